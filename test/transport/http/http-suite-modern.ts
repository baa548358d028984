/**
 * Streamable HTTP, 2026-07-28 (basic/transports/streamable-http): header
 * validation, status codes, stateless requests, subscriptions/listen as an
 * SSE stream, and cancellation by closing the stream. Called once per target.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../../src/http.js';
import { eventually, json, type MakeHttpClient, modernPost, post, type RawHttpClient, SseReader } from '../../_http-client.js';
import { schemaErrors } from '../../_schema.js';
import { type Message, modernMeta } from '../../_wire.js';
import { createFixture, type Fixture, PROMPT_NAMES } from './http-fixture.js';

const REV = '2026-07-28';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function expectValid(name: string, value: unknown): void {
  expect(schemaErrors(REV, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** A 400/404 rejection: the status, the code, the request id echoed, and a valid error response. */
async function expectRejected(response: Response, status: number, code: number): Promise<Message> {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.error?.code, JSON.stringify(body)).toBe(code);
  expect(typeof body.id).toBe('number');
  expectValid('JSONRPCErrorResponse', body);
  return body;
}

function base64(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

export function modernSuite(makeTarget: MakeHttpClient): void {
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

  describe('2026-07-28 requests', () => {
    it('serves discover, every page, get, complete and read statelessly, with valid results', { tags: ['schema'] }, async () => {
      const t = await start();
      const discover = await modernPost(t, 'server/discover');
      expect(discover.status).toBe(200);
      expect(discover.headers.get('mcp-session-id')).toBeNull();
      const body = await json(discover);
      expectValid('JSONRPCResultResponse', body);
      expectValid('DiscoverResult', body.result);

      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await json(await modernPost(t, 'prompts/list', cursor ? { cursor } : {}))).result;
        expectValid('ListPromptsResult', page);
        names.push(...page.prompts.map((p: Message) => p.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(names).toEqual(PROMPT_NAMES);

      const got = (await json(await modernPost(t, 'prompts/get', { name: 'with_args', arguments: { arg1: 'x', arg2: 'y' } }))).result;
      expectValid('GetPromptResult', got);
      const completed = (
        await json(await modernPost(t, 'completion/complete', { ref: { type: 'ref/prompt', name: 'with_args' }, argument: { name: 'arg1', value: 'b' } }))
      ).result;
      expectValid('CompleteResult', completed);
      const read = (await json(await modernPost(t, 'resources/read', { uri: 'test://static-text' }))).result;
      expectValid('ReadResourceResult', read);
      const templates = (await json(await modernPost(t, 'resources/templates/list'))).result;
      expectValid('ListResourceTemplatesResult', templates);
    });

    it('ignores a stale Mcp-Session-Id on a 2026-07-28 request and never mints one', async () => {
      const t = await start();
      const response = await modernPost(t, 'server/discover', {}, { 'mcp-session-id': 'stale-or-unknown' });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    });

    it('answers a JSON-RPC error that is not a transport error with 200 (unknown prompt, missing resource)', async () => {
      const t = await start();
      const unknown = await modernPost(t, 'prompts/get', { name: 'nope' });
      expect(unknown.status).toBe(200);
      expect((await json(unknown)).error.code).toBe(-32602);
      const missing = await json(await modernPost(t, 'resources/read', { uri: 'test://nope' }));
      expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'test://nope' } });
    });

    it('turns a provider failure into -32603 without leaking it, and keeps serving', async () => {
      const t = await start();
      const failed = await json(await modernPost(t, 'prompts/get', { name: 'fails' }));
      expect(failed.error.code).toBe(-32603);
      expect(JSON.stringify(failed)).not.toContain('secret detail');
      expect((await modernPost(t, 'server/discover')).status).toBe(200);
    });

    it('accepts a notification with 202 and no body', async () => {
      const t = await start();
      const response = await post(
        t,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: modernMeta() } },
        { 'mcp-protocol-version': REV, 'mcp-method': 'notifications/cancelled' },
      );
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });
  });

  describe('2026-07-28 validation, in order', () => {
    it('400 -32020 without MCP-Protocol-Version', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectRejected(await modernPost(t, 'server/discover', {}, { 'mcp-protocol-version': undefined }), 400, -32020);
    });

    it('400 -32602 when _meta or one of its required fields is missing', { tags: ['schema'] }, async () => {
      const t = await start();
      const noMeta = await post(
        t,
        { jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} },
        { 'mcp-protocol-version': REV, 'mcp-method': 'server/discover' },
      );
      await expectRejected(noMeta, 400, -32602);
      for (const drop of ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities']) {
        const meta = modernMeta();
        delete meta[drop];
        await expectRejected(await modernPost(t, 'server/discover', { _meta: meta }), 400, -32602);
      }
      const noClientInfo = modernMeta();
      delete noClientInfo['io.modelcontextprotocol/clientInfo'];
      expect((await modernPost(t, 'server/discover', { _meta: noClientInfo })).status).toBe(200);
    });

    it('400 -32020 when the header version differs from _meta, 400 -32022 when it is not served', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectRejected(await modernPost(t, 'server/discover', { _meta: modernMeta('v999') }), 400, -32020);
      const unsupported = await expectRejected(
        await modernPost(t, 'server/discover', { _meta: modernMeta('v999') }, { 'mcp-protocol-version': 'v999' }),
        400,
        -32022,
      );
      expect(unsupported.error.data).toEqual({ supported: ['2026-07-28'], requested: 'v999' });
      expectValid('UnsupportedProtocolVersionError', unsupported);
      // A legacy version in the header beside modern _meta is a mismatch too.
      await expectRejected(await modernPost(t, 'server/discover', {}, { 'mcp-protocol-version': '2025-11-25' }), 400, -32020);
    });

    it('400 -32020 when Mcp-Method is missing, different, or differs in case; header names are case-insensitive', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectRejected(await modernPost(t, 'prompts/list', {}, { 'mcp-method': undefined }), 400, -32020);
      await expectRejected(await modernPost(t, 'prompts/list', {}, { 'mcp-method': 'tools/list' }), 400, -32020);
      await expectRejected(await modernPost(t, 'prompts/list', {}, { 'mcp-method': 'PROMPTS/LIST' }), 400, -32020);
      const mismatch = await expectRejected(await modernPost(t, 'prompts/list', {}, { 'mcp-method': 'x' }), 400, -32020);
      expectValid('HeaderMismatchError', mismatch);
      expect((await modernPost(t, 'prompts/list', {}, { 'MCP-METHOD': 'prompts/list' })).status).toBe(200);
    });

    it('checks Mcp-Name on prompts/get and resources/read, decoding Base64 and trimming whitespace', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectRejected(await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': undefined }), 400, -32020);
      await expectRejected(await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': 'with_args' }), 400, -32020);
      await expectRejected(await modernPost(t, 'resources/read', { uri: 'test://static-text' }, { 'mcp-name': 'test://other' }), 400, -32020);
      expect((await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': '  simple  ' })).status).toBe(200);
      const cafe = await modernPost(t, 'prompts/get', { name: 'café' }, { 'mcp-name': base64('café') });
      expect((await json(cafe)).result.messages[0].content.text).toBe('Bonjour.');
      expect((await modernPost(t, 'resources/read', { uri: 'test://static-text' }, { 'mcp-name': base64('test://static-text') })).status).toBe(200);
      // Malformed Base64, and a sentinel that decodes to something else.
      await expectRejected(await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': '=?base64?c2ltcGxl?=x' }), 400, -32020);
      await expectRejected(await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': '=?base64?c2ltcGxl=?=' }), 400, -32020);
      await expectRejected(await modernPost(t, 'prompts/get', { name: 'simple' }, { 'mcp-name': base64('fails') }), 400, -32020);
    });

    it('404 -32601 for removed and unknown methods', { tags: ['schema'] }, async () => {
      const t = await start();
      for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'tools/list', 'unknown/method']) {
        const body = await expectRejected(await modernPost(t, method, method.startsWith('resources/') ? { uri: 'test://watched' } : {}), 404, -32601);
        expectValid('MethodNotFoundError', body.error);
      }
    });
  });

  describe('subscriptions/listen', () => {
    it('streams the acknowledgement, then the asked-for changes tagged with the listen id', { tags: ['schema'] }, async () => {
      const t = await start({ keepAliveMs: 0 });
      const response = await post(
        t,
        {
          jsonrpc: '2.0',
          id: 'listen-1',
          method: 'subscriptions/listen',
          params: { notifications: { promptsListChanged: true, resourceSubscriptions: ['test://watched'] }, _meta: modernMeta() },
        },
        { 'mcp-protocol-version': REV, 'mcp-method': 'subscriptions/listen' },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const stream = new SseReader(response);
      await stream.until((r) => r.events.length >= 1);
      expect(stream.events[0]).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { promptsListChanged: true, resourceSubscriptions: ['test://watched'] } },
      });
      fixture.change();
      await stream.until((r) => r.events.length >= 3);
      expect(stream.events.map((e) => e.method)).toEqual([
        'notifications/subscriptions/acknowledged',
        'notifications/prompts/list_changed',
        'notifications/resources/updated',
      ]);
      for (const event of stream.events) {
        expectValid('JSONRPCNotification', event);
        expect(event.params._meta[SUBSCRIPTION_ID]).toBe('listen-1');
      }
      await stream.cancel();
    });

    it('sends keep-alive comments on a quiet stream', async () => {
      const t = await start({ keepAliveMs: 20 });
      const response = await modernPost(t, 'subscriptions/listen', { notifications: { promptsListChanged: true } });
      const stream = new SseReader(response);
      await stream.until((r) => r.comments.length >= 2);
      expect(stream.comments[0]).toBe(': keep-alive');
      await stream.cancel();
    });

    it('refuses a listen from a client that does not accept text/event-stream with 406', async () => {
      const t = await start();
      expect((await modernPost(t, 'subscriptions/listen', { notifications: {} }, { accept: 'application/json' })).status).toBe(406);
    });

    it('cancels a request whose client goes away', async () => {
      const t = await start();
      const abort = new AbortController();
      const pending = modernPost(t, 'prompts/get', { name: 'slow' }, {}, { signal: abort.signal }).catch(() => undefined);
      // The client leaves once the server is working on the request.
      await eventually(() => fixture.started.includes('slow'));
      abort.abort();
      await pending;
      await eventually(() => fixture.cancelled.includes('slow'));
    });

    it('ends open listen streams with their result on close()', { tags: ['schema'] }, async () => {
      const t = await start({ keepAliveMs: 0 });
      const response = await post(
        t,
        { jsonrpc: '2.0', id: 42, method: 'subscriptions/listen', params: { notifications: { promptsListChanged: true }, _meta: modernMeta() } },
        { 'mcp-protocol-version': REV, 'mcp-method': 'subscriptions/listen' },
      );
      const stream = new SseReader(response);
      await stream.until((r) => r.events.length >= 1);
      const closing = t.close();
      const events = await stream.toEnd();
      await closing;
      target = undefined;
      const last = events[events.length - 1] as Message;
      expect(last).toMatchObject({ id: 42, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 42 } } });
      expectValid('JSONRPCResultResponse', last);
      expectValid('SubscriptionsListenResult', last.result);
    });
  });
}
