/**
 * Resumable SSE streams of 2025 sessions (src/transport/http/sessions/
 * resume.ts, event-stream.ts, event-store.ts), over the web handler and
 * node:http: event ids that name their stream, the priming event and `retry`
 * on 2025-11-25 (none on 2025-06-18), a GET with Last-Event-ID replaying
 * exactly what one stream missed and going on live, a POST's answer resumed
 * by GET with the rest of its request, and 400 for ids past the bounds or of
 * another session. The official v1 client's own reconnection: resume-sdk.test.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../../src/http.js';
import { createServer, defineResource, defineTool, liveResources, staticTools } from '../../../src/index.js';
import { HTTP_CLIENTS, type MakeHttpClient, post, type RawHttpClient, SseReader } from '../../_http-client.js';
import { type RevisionName, schemaErrors } from '../../_schema.js';
import { initializeParams, type Message } from '../../_wire.js';

const URIS = Array.from({ length: 12 }, (_, i) => `test://r${i}`);
const GET_ID = /^g[0-9a-f]{32}_[1-9][0-9]*$/;
const POST_ID = /^p[0-9a-f]{32}_[1-9][0-9]*$/;

function expectValid(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** A server whose resources each send their own `notifications/resources/updated`, and a tool that waits for the test. */
function fixture() {
  const resources = liveResources({
    resources: URIS.map((uri) => defineResource({ uri, name: uri.slice(7), mimeType: 'text/plain', read: () => uri })),
  });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const waits = defineTool({
    name: 'waits',
    description: 'Logs, waits until the test lets it go, logs again and answers.',
    call: async (_args, ctx) => {
      ctx.log?.('info', 'first');
      await gate;
      ctx.log?.('info', 'second');
      return 'done';
    },
  });
  const server = createServer({ name: 'resume', version: '1', resources, tools: staticTools([waits]), logging: true });
  return { server, update: (i: number) => resources.updated(URIS[i] as string), release };
}

let target: RawHttpClient | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function open(t: RawHttpClient, version: string, subscribe = URIS.length): Promise<Record<string, string>> {
  const response = await post(t, { jsonrpc: '2.0', id: 0, method: 'initialize', params: initializeParams(version) });
  const id = response.headers.get('mcp-session-id') as string;
  await response.body?.cancel();
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': version };
  expect((await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  for (let i = 0; i < subscribe; i++) {
    const answer = await post(t, { jsonrpc: '2.0', id: 100 + i, method: 'resources/subscribe', params: { uri: URIS[i] } }, headers);
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
  }
  return headers;
}

function get(t: RawHttpClient, headers: Record<string, string>, lastEventId?: string): Promise<Response> {
  const all = { ...headers, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
  return t.fetch(new Request(t.url, { method: 'GET', headers: all }));
}

const urisOf = (reader: SseReader): unknown[] => reader.events.map((event) => (event.params as { uri?: string } | undefined)?.uri);

/** Expects the answer that says the stream cannot be resumed: 400 with a JSON-RPC error. */
async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as Message;
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect((body.error as { message: string }).message).toContain('Last-Event-ID');
}

describe.each(Object.entries(HTTP_CLIENTS))('resumable streams, %s', (_name, make: MakeHttpClient) => {
  async function start(options: HttpOptions = {}) {
    const made = fixture();
    target = await make(made.server, options);
    return { t: target, ...made };
  }

  describe.each(['2025-06-18', '2025-11-25'] as const)('at %s', (revision) => {
    it('numbers GET stream events in one stream, primed with retry only where the revision primes', { tags: ['schema'] }, async () => {
      const { t, update } = await start({ resumption: { retryMs: 2500 } });
      const headers = await open(t, revision, 4);
      const reader = new SseReader(await get(t, headers));
      for (let i = 0; i < 4; i++) update(i);
      await reader.until((r) => r.events.length === 4);
      expect(urisOf(reader)).toEqual(URIS.slice(0, 4));
      for (const event of reader.events) expectValid(revision, 'JSONRPCNotification', event);
      const ids = reader.eventIds as string[];
      for (const id of ids) expect(id).toMatch(GET_ID);
      expect(new Set(ids.map((id) => id.split('_')[0])).size).toBe(1);
      const seqs = ids.map((id) => Number(id.split('_')[1]));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(4);
      if (revision === '2025-11-25') {
        // The priming event comes first: an id of the same stream, empty data, and the retry.
        expect(reader.blocks[0]).toEqual({ id: expect.stringMatching(GET_ID), data: false, retry: 2500 });
        expect(reader.primings).toHaveLength(1);
        expect(reader.primings[0]?.split('_')[0]).toBe(ids[0]?.split('_')[0]);
      } else {
        expect(reader.primings).toEqual([]);
        expect(reader.retry).toBeUndefined();
      }
      // A second session's stream is another stream.
      const other = new SseReader(await get(t, await open(t, revision, 1)));
      update(0);
      await other.until((r) => r.events.length === 1);
      expect(other.eventIds[0]?.split('_')[0]).not.toBe(ids[0]?.split('_')[0]);
      await reader.cancel();
      await other.cancel();
    });

    it('replays exactly the missed messages once, in order, then goes on live', { tags: ['schema'] }, async () => {
      const { t, update } = await start();
      const headers = await open(t, revision);
      const first = new SseReader(await get(t, headers));
      update(0);
      update(1);
      await first.until((r) => r.events.length === 2);
      const seen = first.lastEventId as string;
      await first.cancel();
      // Sent while the stream is cut.
      for (const i of [2, 3, 4]) update(i);
      await sleep(20);
      const resumed = new SseReader(await get(t, headers, seen));
      await resumed.until((r) => r.events.length === 3);
      update(5);
      await resumed.until((r) => r.events.length === 4);
      expect(urisOf(resumed)).toEqual(URIS.slice(2, 6));
      for (const event of resumed.events) expectValid(revision, 'JSONRPCNotification', event);
      const seqs = resumed.eventIds.map((id) => Number(id?.split('_')[1]));
      expect(seqs).toEqual([1, 2, 3, 4].map((n) => Number(seen.split('_')[1]) + n));
      // The resumed connection is the session's GET stream now: another plain GET conflicts.
      expect((await get(t, headers)).status).toBe(409);
      await resumed.cancel();
      // And resuming again from the same id gets the same events, no more, no fewer.
      const again = new SseReader(await get(t, headers, seen));
      await again.until((r) => r.events.length === 4);
      expect(urisOf(again)).toEqual(URIS.slice(2, 6));
      await again.cancel();
    });

    it("refuses another session's ids, unknown ids and ids past the kept count", async () => {
      const { t, update } = await start({ resumption: { maxEvents: 3 } });
      const mine = await open(t, revision);
      const theirs = await open(t, revision);
      const their = new SseReader(await get(t, theirs));
      update(0);
      await their.until((r) => r.events.length === 1);
      await their.cancel();
      await expectRefused(await get(t, mine, their.lastEventId));
      await expectRefused(await get(t, mine, 'not-an-id'));
      // r0's update, sent while `mine` had no GET stream, comes first on its first one.
      const own = new SseReader(await get(t, mine));
      update(1);
      await own.until((r) => r.events.length === 2);
      expect(urisOf(own)).toEqual(URIS.slice(0, 2));
      const early = own.eventIds[0] as string;
      const [stream, seq] = early.split('_');
      await expectRefused(await get(t, mine, `${stream}_${Number(seq) + 50}`));
      for (const i of [2, 3, 4, 5]) update(i);
      await own.until((r) => r.events.length === 6);
      await own.cancel();
      // Five events came after `early` and three are kept.
      await expectRefused(await get(t, mine, early));
      // The last three are.
      const resumed = new SseReader(await get(t, mine, own.eventIds[2]));
      await resumed.until((r) => r.events.length === 3);
      expect(urisOf(resumed)).toEqual(URIS.slice(3, 6));
      await resumed.cancel();
    });

    it('refuses ids past the kept bytes and age', async () => {
      const { t, update } = await start({ resumption: { maxBytes: 400, maxAgeMs: 200 } });
      const headers = await open(t, revision);
      const reader = new SseReader(await get(t, headers));
      update(0);
      await reader.until((r) => r.events.length === 1);
      const early = reader.lastEventId as string;
      for (let i = 1; i < 8; i++) update(i);
      await reader.until((r) => r.events.length === 8);
      await reader.cancel();
      // Seven events of over 90 bytes each: more than 400 bytes came after `early`.
      await expectRefused(await get(t, headers, early));
      const recent = reader.eventIds[6] as string;
      const resumed = new SseReader(await get(t, headers, recent));
      await resumed.until((r) => r.events.length === 1);
      await resumed.cancel();
      // Older than maxAgeMs: no longer kept.
      await sleep(300);
      await expectRefused(await get(t, headers, recent));
    });
  });

  it('resumes a POST answer whose connection closed mid-call: the rest of its messages, its response, once', { tags: ['schema'] }, async () => {
    const { t, release } = await start({ resumption: { pollAfterMs: 50, retryMs: 100 } });
    const headers = await open(t, '2025-11-25', 0);
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'waits', arguments: {} } };
    const answer = await post(t, call, headers);
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    const reader = new SseReader(answer);
    // The connection closes after pollAfterMs; the stream does not end.
    await reader.toEnd();
    expect(reader.blocks[0]).toEqual({ id: expect.stringMatching(POST_ID), data: false, retry: 100 });
    expect(reader.events.map((event) => (event.params as { data?: unknown }).data)).toEqual(['first']);
    const resumed = new SseReader(await get(t, headers, reader.lastEventId));
    release();
    const events = await resumed.toEnd();
    expect(events.map((event) => ('id' in event ? 'response' : (event.params as { data?: unknown }).data))).toEqual(['second', 'response']);
    for (const id of resumed.eventIds) expect(id?.split('_')[0]).toBe(reader.lastEventId?.split('_')[0]);
    expectValid('2025-11-25', 'JSONRPCResultResponse', events[1]);
    expect(events[1]).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'done' }] } });
    // After the request ended, the stored stream still gives what came after an id, then ends.
    const late = new SseReader(await get(t, headers, resumed.eventIds[0]));
    expect((await late.toEnd()).map((event) => event.id)).toEqual([7]);
  });

  it('ignores Last-Event-ID and sends no ids when resumption is off', async () => {
    const { t, update } = await start({ resumption: false });
    const headers = await open(t, '2025-11-25', 1);
    const reader = new SseReader(await get(t, headers, `g${'0'.repeat(32)}_1`));
    update(0);
    await reader.until((r) => r.events.length === 1);
    expect(reader.eventIds).toEqual([undefined]);
    expect(reader.blocks.filter((block) => block.id !== undefined || block.retry !== undefined)).toEqual([]);
    await reader.cancel();
  });
});
