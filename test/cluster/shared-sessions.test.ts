/**
 * Legacy sessions shared through a real Redis, between two handlers in this
 * process (two replicas without the sockets): the official v1 client's
 * requests alternate between them, the session's settings follow it, DELETE
 * on one ends the session and the GET stream on the other, and a replica
 * started after the others closed still serves the session.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, createHttpHandler, type HttpHandler, type SharedState } from '../../src/http.js';
import { createServer } from '../../src/index.js';
import { loadSkillsFolder } from '../../src/skills.js';
import { ROOT } from '../_stdio-client.js';
import { type Started, startRedis, tempDir } from './_processes.js';

const FOLDER = `${ROOT}test/fixtures/skills/valid`;
let redis: Started & { url: string };
let dir: { path: string; cleanup(): void };
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  dir = tempDir('skillport-redis-');
  redis = await startRedis(dir.path);
});
afterAll(async () => {
  await redis?.stop();
  dir?.cleanup();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

interface Replica {
  handler: HttpHandler;
  shared: SharedState;
  /** Requests this replica answered, by method. */
  seen: string[];
}

/**
 * A handler on the shared Redis. Its session sweep is set past any test's
 * length: the sweep also ends a copy whose record is gone (a missed DELETE
 * broadcast), and must not be what makes a test about the broadcast pass.
 */
async function replica(at = FOLDER, watch = false): Promise<Replica> {
  const folder = await loadSkillsFolder([at], { watch });
  const server = createServer({ name: 'replica', version: '1.0.0', prompts: folder.prompts, resources: folder.resources, pageSize: 2 });
  const shared = await connectRedis(redis.url);
  const handler = createHttpHandler(server, { shared, sessionSweepMs: 3_600_000 });
  closers.push(async () => {
    await handler.close();
    await shared.close();
    server.close();
    folder.close();
  });
  return { handler, shared, seen: [] };
}

/** A fetch that sends each request to the next replica in turn. */
function roundRobin(replicas: Replica[]): typeof fetch {
  let next = 0;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const target = replicas[next++ % replicas.length] as Replica;
    const request = new Request(input, init);
    target.seen.push(request.method);
    return target.handler.fetch(request);
  }) as typeof fetch;
}

async function connect(fetchVia: typeof fetch): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:8080/mcp'), { fetch: fetchVia });
  const client = new Client({ name: 'shared-sessions-test', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

async function promptNames(client: Client): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    names.push(...page.prompts.map((p) => p.name));
    cursor = page.nextCursor;
  } while (cursor);
  return names;
}

describe('legacy sessions shared through Redis', () => {
  it('serves one session from two replicas in turn, pages included', async () => {
    const a = await replica();
    const b = await replica();
    const { client, transport } = await connect(roundRobin([a, b]));
    const alone = await connect(roundRobin([a]));
    expect(await promptNames(client)).toEqual(await promptNames(alone.client));
    await client.getPrompt({ name: 'greeting', arguments: { who: 'x' } });
    expect(a.seen.filter((m) => m === 'POST').length).toBeGreaterThan(1);
    expect(b.seen.filter((m) => m === 'POST').length).toBeGreaterThan(1);
    expect(transport.sessionId).toBeDefined();
  });

  it('refuses an unknown session id with 404 on every replica', async () => {
    const a = await replica();
    const response = await a.handler.fetch(
      new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'no-such-session' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
    );
    expect(response.status).toBe(404);
  });

  it('ends the session everywhere on DELETE at one replica, GET stream included', async () => {
    const a = await replica();
    const b = await replica();
    // The session and its GET stream on a; the DELETE goes to b.
    // The client's own GET stream is refused (405, which it accepts), so the test opens the one it watches.
    const via = roundRobin([a]);
    const { client, transport } = await connect((async (input: string | URL | Request, init?: RequestInit) =>
      new Request(input, init).method === 'GET' ? new Response(null, { status: 405 }) : via(input, init)) as typeof fetch);
    await client.ping();
    const id = transport.sessionId as string;
    const version = transport.protocolVersion ?? '2025-11-25';
    const stream = await a.handler.fetch(
      new Request('http://127.0.0.1:8080/mcp', { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': version } }),
    );
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const gone = await b.handler.fetch(new Request('http://127.0.0.1:8080/mcp', { method: 'DELETE', headers: { 'mcp-session-id': id } }));
    expect(gone.status).toBe(204);
    // The stream on a ends (read until done: keep-alive comments may come first), told by the
    // broadcast: nothing else ends it within the test (the sweep is an hour away).
    let gaveUp = false;
    const guard = setTimeout(() => {
      gaveUp = true;
      void reader.cancel();
    }, 20_000);
    for (;;) if ((await reader.read()).done) break;
    clearTimeout(guard);
    expect(gaveUp, 'the GET stream at a was not ended by the DELETE broadcast').toBe(false);
    for (const target of [a, b]) {
      const response = await target.handler.fetch(
        new Request('http://127.0.0.1:8080/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        }),
      );
      expect(response.status).toBe(404);
    }
  });

  it('keeps a session when every replica that served it is gone', async () => {
    const a = await replica();
    const { client, transport } = await connect(roundRobin([a]));
    await client.subscribeResource({ uri: 'skill://greeting/SKILL.md' });
    const id = transport.sessionId as string;
    await a.handler.close();
    const fresh = await replica();
    const response = await fresh.handler.fetch(
      new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompts/list' }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 7, result: { prompts: expect.any(Array) } });
  });
});

describe('session settings across replicas', () => {
  it('delivers an update on the GET stream at one replica for a subscription made at another', async () => {
    const copy = tempDir('skillport-shared-folder-');
    cpSync(FOLDER, copy.path, { recursive: true });
    closers.push(async () => copy.cleanup());
    const a = await replica(copy.path, true);
    const b = await replica(copy.path, true);
    const via = roundRobin([a]);
    const { client, transport } = await connect((async (input: string | URL | Request, init?: RequestInit) =>
      new Request(input, init).method === 'GET' ? new Response(null, { status: 405 }) : via(input, init)) as typeof fetch);
    await client.ping();
    const headers = {
      'mcp-session-id': transport.sessionId as string,
      'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
    };
    const stream = await a.handler.fetch(new Request('http://127.0.0.1:8080/mcp', { headers: { ...headers, accept: 'text/event-stream' } }));
    expect(stream.status).toBe(200);
    const uri = 'skill://greeting/SKILL.md';
    const subscribed = await b.handler.fetch(
      new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'resources/subscribe', params: { uri } }),
      }),
    );
    expect(subscribed.status).toBe(200);
    // a hears of the new subscription through Redis; then the file changes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    appendFileSync(join(copy.path, 'greeting', 'SKILL.md'), '\nOne more line.\n');
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = setTimeout(() => void reader.cancel(), 10_000);
    while (!text.includes('notifications/resources/updated')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    clearTimeout(deadline);
    expect(text).toContain('notifications/resources/updated');
    expect(text).toContain(uri);
    await reader.cancel();
  });
});

describe('readiness with Redis', () => {
  it('answers /readyz 200 while Redis answers and 503 once it is gone, /healthz 200 throughout', async () => {
    const own = tempDir('skillport-redis-ready-');
    const mine = await startRedis(own.path);
    const { serveHttp } = await import('../../src/http.js');
    const running = await serveHttp(createServer({ name: 'ready', version: '1.0.0' }), { redis: mine.url });
    try {
      const base = running.url.origin;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      await mine.stop();
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
      await mine.stop();
      own.cleanup();
    }
  });
});
