/**
 * Streamable HTTP, 2025-06-18 and 2025-11-25 (basic/transports): sessions,
 * JSON and SSE answers, the GET stream, DELETE, and the version header.
 * Called once per target (web handler, node:http) so both behave alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../../src/http.js';
import { json, type MakeHttpClient, post, type RawHttpClient, SseReader } from '../../_http-client.js';
import { type RevisionName, schemaErrors } from '../../_schema.js';
import { initializeParams, type Message } from '../../_wire.js';
import { createFixture, type Fixture, PROMPT_NAMES } from './http-fixture.js';

const LEGACY = ['2025-06-18', '2025-11-25'] as const;

function expectValid(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** An error answer with the request's id, valid as an error response of `revision`. */
function expectError(revision: RevisionName, body: Message, id: number | string, code: number): void {
  expect(body).toMatchObject({ id, error: { code } });
  expectValid(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', body);
}

/** The response definition of a revision: 2025-06-18 has JSONRPCResponse for results. */
function resultDefinition(revision: RevisionName): string {
  return revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse';
}

function initializeBody(version: string, id: number | string = 1): Message {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: initializeParams(version),
  };
}

export function legacySuite(makeTarget: MakeHttpClient): void {
  let target: RawHttpClient | undefined;
  let fixture: Fixture;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function start(options: HttpOptions = {}): Promise<RawHttpClient> {
    fixture = createFixture();
    target = await makeTarget(fixture.server, options);
    return target;
  }

  /** Initializes a session and sends initialized; returns the session id. */
  async function open(t: RawHttpClient, version: string): Promise<{ id: string; headers: Record<string, string> }> {
    const response = await post(t, initializeBody(version));
    expect(response.status).toBe(200);
    const id = response.headers.get('mcp-session-id');
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    await response.body?.cancel();
    const headers = { 'mcp-session-id': id as string, 'mcp-protocol-version': version };
    const initialized = await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe('');
    return { id: id as string, headers };
  }

  describe.each(LEGACY)('sessions at %s', (revision) => {
    it('initializes with a crypto-random session id and serves requests in the session', { tags: ['schema'] }, async () => {
      const t = await start();
      const response = await post(t, initializeBody(revision));
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await json(response);
      expectValid(revision, resultDefinition(revision), body);
      expectValid(revision, 'InitializeResult', body.result);
      expect(body.result.protocolVersion).toBe(revision);
      const other = await post(t, initializeBody(revision));
      expect(other.headers.get('mcp-session-id')).not.toBe(response.headers.get('mcp-session-id'));
      await other.body?.cancel();

      const { headers } = await open(t, revision);
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await json(await post(t, { jsonrpc: '2.0', id: `p${names.length}`, method: 'prompts/list', params: cursor ? { cursor } : {} }, headers));
        expectValid(revision, 'ListPromptsResult', page.result);
        names.push(...page.result.prompts.map((p: Message) => p.name));
        cursor = page.result.nextCursor;
      } while (cursor);
      expect(names).toEqual(PROMPT_NAMES);
      const got = await json(
        await post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'with_args', arguments: { arg1: 'a', arg2: 'b' } } }, headers),
      );
      expectValid(revision, 'GetPromptResult', got.result);
      const completed = await json(
        await post(
          t,
          {
            jsonrpc: '2.0',
            id: 3,
            method: 'completion/complete',
            params: { ref: { type: 'ref/prompt', name: 'with_args' }, argument: { name: 'arg1', value: 'alp' } },
          },
          headers,
        ),
      );
      expectValid(revision, 'CompleteResult', completed.result);
      expect(completed.result.completion.values).toEqual(['alpha', 'alphabet']);
      const read = await json(await post(t, { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'test://template/7/data' } }, headers));
      expectValid(revision, 'ReadResourceResult', read.result);
      const missing = await json(await post(t, { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'test://nope' } }, headers));
      expectError(revision, missing, 5, -32002);
    });

    it('answers with one SSE event when the client accepts only text/event-stream', { tags: ['schema'] }, async () => {
      const t = await start();
      const { headers } = await open(t, revision);
      const response = await post(t, { jsonrpc: '2.0', id: 9, method: 'prompts/get', params: { name: 'simple' } }, { ...headers, accept: 'text/event-stream' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const events = await new SseReader(response).toEnd();
      expect(events).toHaveLength(1);
      expectValid(revision, resultDefinition(revision), events[0]);
    });

    it('delivers list changes and subscribed resource updates on the GET stream, and only there', { tags: ['schema'] }, async () => {
      const t = await start({ keepAliveMs: 0 });
      const { headers } = await open(t, revision);
      const subscribed = await json(await post(t, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched' } }, headers));
      expect(subscribed.result).toEqual({});
      const get = await t.fetch(new Request(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }));
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('text/event-stream');
      const second = await t.fetch(new Request(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }));
      expect(second.status).toBe(409);
      const stream = new SseReader(get);
      fixture.change();
      await stream.until((r) => r.events.length >= 2);
      const methods = stream.events.map((e) => e.method).sort();
      expect(methods).toEqual(['notifications/prompts/list_changed', 'notifications/resources/updated']);
      for (const event of stream.events) expectValid(revision, 'JSONRPCNotification', event);
      expect(stream.events.find((e) => e.method === 'notifications/resources/updated')?.params).toEqual({ uri: 'test://watched' });
      await stream.cancel();
    });

    it('keeps what is sent while no GET stream is open and delivers it when one opens', async () => {
      const t = await start({ keepAliveMs: 0 });
      const { headers } = await open(t, revision);
      fixture.change();
      const stream = new SseReader(await t.fetch(new Request(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } })));
      await stream.until((r) => r.events.length >= 1);
      // Not subscribed to test://watched, so only the list change is for this session.
      expect(stream.events.map((e) => e.method)).toEqual(['notifications/prompts/list_changed']);
      await stream.cancel();
    });

    it('ends the session on DELETE; the id then gets 404 everywhere', { tags: ['schema'] }, async () => {
      const t = await start();
      const { headers } = await open(t, revision);
      const deleted = await t.fetch(new Request(t.url, { method: 'DELETE', headers }));
      expect(deleted.status).toBe(204);
      const after = await post(t, { jsonrpc: '2.0', id: 1, method: 'prompts/list' }, headers);
      expect(after.status).toBe(404);
      expectError(revision, await json(after), 1, -32600);
      expect((await t.fetch(new Request(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }))).status).toBe(404);
      expect((await t.fetch(new Request(t.url, { method: 'DELETE', headers }))).status).toBe(404);
    });

    it('rejects an unsupported MCP-Protocol-Version with 400 and accepts a missing one', { tags: ['schema'] }, async () => {
      const t = await start();
      const { headers } = await open(t, revision);
      const bad = await post(t, { jsonrpc: '2.0', id: 1, method: 'prompts/list' }, { ...headers, 'mcp-protocol-version': '1999-01-01' });
      expect(bad.status).toBe(400);
      const body = await json(bad);
      expectError(revision, body, 1, -32600);
      const noHeader: Record<string, string> = { 'mcp-session-id': headers['mcp-session-id'] as string };
      const ok = await post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/list' }, noHeader);
      expect(ok.status).toBe(200);
      expectValid(revision, 'ListPromptsResult', (await json(ok)).result);
    });
  });

  describe('without a session', () => {
    it('answers 400 to a request that needs a session, and 404 to an unknown session id', { tags: ['schema'] }, async () => {
      const t = await start();
      const missing = await post(t, { jsonrpc: '2.0', id: 1, method: 'prompts/list' });
      expect(missing.status).toBe(400);
      expectError('2025-11-25', await json(missing), 1, -32600);
      const unknown = await post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/list' }, { 'mcp-session-id': 'no-such-session' });
      expect(unknown.status).toBe(404);
      expectError('2025-06-18', await json(unknown), 2, -32600);
    });

    it('counter-offers the newest legacy revision to an unknown version', async () => {
      const t = await start();
      const body = await json(await post(t, initializeBody('1900-01-01')));
      expect(body.result.protocolVersion).toBe('2025-11-25');
    });

    it('answers GET and DELETE without a session id with 405', async () => {
      const t = await start();
      for (const method of ['GET', 'DELETE']) {
        const response = await t.fetch(new Request(t.url, { method, headers: { accept: 'text/event-stream' } }));
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toContain('POST');
      }
    });
  });

  describe('stateless legacy mode (sessions: false)', () => {
    it('mints no session id and serves every request as if just initialized', { tags: ['schema'] }, async () => {
      const t = await start({ sessions: false });
      const init = await post(t, initializeBody('2025-11-25'));
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect((await json(init)).result.protocolVersion).toBe('2025-11-25');
      expect((await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
      for (const version of ['2025-06-18', '2025-11-25'] as const) {
        const list = await json(await post(t, { jsonrpc: '2.0', id: 1, method: 'prompts/list' }, { 'mcp-protocol-version': version }));
        expectValid(version, 'ListPromptsResult', list.result);
      }
      const noHeader = await json(await post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'simple' } }));
      expectValid('2025-06-18', 'GetPromptResult', noHeader.result);
      // A session id is ignored rather than looked up.
      const withId = await post(t, { jsonrpc: '2.0', id: 3, method: 'prompts/list' }, { 'mcp-session-id': 'whatever', 'mcp-protocol-version': '2025-11-25' });
      expect(withId.status).toBe(200);
      const get = await t.fetch(new Request(t.url, { method: 'GET', headers: { accept: 'text/event-stream' } }));
      expect(get.status).toBe(405);
    });
  });
}
