/**
 * Memory a client can pin, over Streamable HTTP on 127.0.0.1: connections
 * past the cap, request bodies held open one byte short of their end,
 * answers nobody reads, open listen requests with large parameters, and the
 * server-side caps shared with stdio (completion values, subscriptions, a
 * resource over the cap). Each limit is set small and crossed; RSS must
 * stay flat or within a bound.
 */

import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { GUARD, HTTP_FIXTURE, HttpChild, httpBuilt, MiB, rssOf, SOAK, sleep } from './_harness.js';
import { BIG_FILE_BYTES, BIG_URI, described, flat, growthFigure, memoryFolder, rounds } from './_memory.js';
import { Figures, writeSection } from './_report.js';

const figures = new Figures();
let folder: ReturnType<typeof memoryFolder>;
let server: HttpChild | undefined;
beforeAll(() => {
  folder = memoryFolder();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(() => {
  folder.remove();
  writeSection(
    'memory-http',
    `### Memory a client can pin (HTTP)\n\nEach limit set small and crossed${SOAK ? ', at the sizes of the original reports' : ''}.\n\n${figures.table()}`,
  );
});

/** Starts the fixture with a small V8 heap, so that holding far more than a case allows crashes it. */
async function start(options: Record<string, unknown>, heapMiB = 96): Promise<URL> {
  collections = 0;
  server = new HttpChild(HTTP_FIXTURE, [], {
    RELIABILITY_OPTIONS: JSON.stringify({ dir: folder.dir, ...options }),
    NODE_OPTIONS: `--max-old-space-size=${heapMiB}`,
  });
  return server.url;
}

/** Collections asked of the fixture started last (each counts its own). */
let collections = 0;

/**
 * The fixture's RSS after a full collection (fixtures/server.mjs, SIGUSR2):
 * what it holds, whenever the collector would have run on its own. Under a
 * whole suite on two cores, garbage not yet collected once put a case
 * 0.2 MiB over a bound it meets by 70 MiB when run alone.
 */
async function heldRss(): Promise<number> {
  const done = `collected ${++collections}\n`;
  server!.child.kill('SIGUSR2');
  for (let wait = 0; wait < 400 && !server!.stdout.includes(done); wait++) await sleep(25);
  expect(server!.stdout, 'the fixture collected its garbage').toContain(done);
  return rssOf(server!.pid);
}

function post(url: URL, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return httpSend(url, { headers: { ...modernHeaders(body, url), ...headers }, body: JSON.stringify(body), agent: false, timeoutMs: 30_000 * GUARD });
}

/** The raw head of a 2026-07-28 POST with a declared body length. */
function head(url: URL, body: Record<string, unknown>, length: number): string {
  const headers = { ...modernHeaders(body, url), 'Content-Length': String(length) };
  return `POST ${url.pathname} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

/** Opens a raw connection; resolves once connected, with what it received and whether the server closed it. */
function open(url: URL): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    const socket = connect(Number(url.port), url.hostname, () => resolve({ socket, received: () => received, closed: () => closed }));
    socket.on('data', (c: Buffer) => (received += c.toString('latin1').slice(0, 4096 - received.length)));
    socket.on('close', () => (closed = true));
    socket.on('error', () => (closed = true));
    socket.once('error', reject);
  });
}

describe.skipIf(!httpBuilt())('memory over HTTP', () => {
  it('closes connections past maxConnections and serves again once they go', async () => {
    const url = await start({ http: { maxConnections: 8 } });
    const sockets = await Promise.all(Array.from({ length: 24 }, () => open(url)));
    for (let i = 0; i < 100 && sockets.filter((s) => s.closed()).length < 16; i++) await sleep(20);
    expect(sockets.filter((s) => s.closed()).length).toBe(16);
    for (const s of sockets) s.socket.destroy();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await sleep(20);
      status = (await post(url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() }).catch(() => ({ status: 0 }))).status;
    }
    expect(status).toBe(200);
    figures.add('Connections over maxConnections (8), 24 opened', '16 closed by the server; served again once they went');
  });

  it(
    'answers bodies past maxBufferedBodyBytes with 503 and Retry-After, holding no more than the budget',
    async () => {
      const url = await start({ http: { maxBufferedBodyBytes: 8 * MiB } });
      const count = SOAK ? 300 : 40;
      const size = 4 * MiB;
      const body = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() };
      const before = rssOf(server!.pid);
      const chunk = Buffer.alloc(size - 1, 0x20);
      const stalled = await Promise.all(
        Array.from({ length: count }, async () => {
          const connection = await open(url);
          connection.socket.write(head(url, body, size));
          // One byte short of the end, then nothing more.
          await new Promise<void>((resolve) => connection.socket.write(chunk, () => resolve()));
          return connection;
        }),
      );
      for (let i = 0; i < 200 && stalled.filter((s) => s.received() !== '' || s.closed()).length < count - 2; i++) await sleep(20);
      const growth = rssOf(server!.pid) - before;
      const refused = stalled.filter((s) => s.received().startsWith('HTTP/1.1 503'));
      expect(refused.length).toBeGreaterThanOrEqual(count - 2);
      expect(refused[0]!.received()).toMatch(/\r\nretry-after: \d+\r\n/i);
      // Held: at most the budget. The refused bodies are read and dropped (so each
      // client can read its 503), which churns through buffers that GC frees later.
      expect(growth, `RSS grew ${Math.round(growth / MiB)} MiB`).toBeLessThan(96 * MiB);
      for (const s of stalled) s.socket.destroy();
      await sleep(50);
      expect((await post(url, body)).status).toBe(200);
      const answered = SOAK ? `${refused.length} answered` : 'all but those within the budget answered';
      figures.add(
        `${count} bodies stalled one byte short of 4 MiB (maxBufferedBodyBytes 8 MiB)`,
        `${answered} 503 + Retry-After; ${growthFigure(growth, 96 * MiB)}`,
      );
    },
    120_000 * GUARD,
  );

  it(
    'answers new requests with 503 while more than maxBufferedResponseBytes of answers are unread, and refuses a resource over maxResourceBytes',
    async () => {
      const url = await start({ http: { maxBufferedResponseBytes: 8 * MiB }, limits: { maxResourceBytes: 128 * MiB } }, SOAK ? 1024 : 192);
      const count = SOAK ? 24 : 12;
      const body = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: modern({ uri: BIG_URI }) };
      const text = JSON.stringify(body);
      const before = await heldRss();
      const readers: Array<Awaited<ReturnType<typeof open>>> = [];
      for (let i = 0; i < count; i++) {
        const connection = await open(url);
        // The first bytes tell the status; then the client stops reading.
        connection.socket.once('data', () => connection.socket.pause());
        connection.socket.write(head(url, body, Buffer.byteLength(text)) + text);
        readers.push(connection);
        // One at a time: each is answered (or refused) before the next arrives.
        for (let wait = 0; wait < 600 * GUARD && connection.received().length < 12 && !connection.closed(); wait++) await sleep(50);
      }
      const growth = (await heldRss()) - before;
      expect(growth, `RSS grew ${Math.round(growth / MiB)} MiB`).toBeLessThan(SOAK ? 640 * MiB : 200 * MiB);
      const statuses = readers.map((r) => r.received().slice(9, 12));
      expect(statuses.filter((s) => s === '200').length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === '503').length).toBeGreaterThanOrEqual(count - 4);
      for (const r of readers) r.socket.destroy();
      await server!.stop();
      // Over the cap: refused, not read.
      const small = await start({ limits: { maxResourceBytes: 4 * MiB } });
      const refused = await post(small, { ...body, id: 2 });
      expect(JSON.parse(refused.body).error).toEqual({ code: -32603, message: expect.any(String) });
      const served = SOAK ? `${statuses.filter((s) => s === '200').length} answered, the rest 503` : 'the first answered, later ones 503';
      figures.add(
        `${count} reads of a ${Math.round(BIG_FILE_BYTES / MiB)} MiB file whose answers are not read (maxBufferedResponseBytes 8 MiB)`,
        `${served}; ${growthFigure(growth, SOAK ? 640 * MiB : 200 * MiB)}`,
      );
      figures.add('Resource over maxResourceBytes, HTTP', '-32603');
    },
    120_000 * GUARD,
  );

  it(
    'keeps no open listen request its parameters',
    async () => {
      const url = await start({ watch: true, http: { maxStreamsPerClient: 200 } });
      const pad = 'p'.repeat(3_000_000);
      const drops: Array<() => void> = [];
      let id = 0;
      const samples = await rounds(server!.pid, async () => {
        await Promise.all(
          Array.from({ length: 10 }, () => {
            const body = { jsonrpc: '2.0', id: ++id, method: 'subscriptions/listen', params: modern({ notifications: { promptsListChanged: true }, pad }) };
            return new Promise<void>((resolve, reject) => {
              const req = httpRequest(url, { method: 'POST', headers: modernHeaders(body, url), agent: false }, (res) => {
                res.on('data', (c: Buffer) => {
                  if (c.toString().includes('acknowledged')) resolve();
                });
              });
              req.on('error', reject);
              req.end(JSON.stringify(body));
              drops.push(() => req.destroy());
            });
          }),
        );
      });
      for (const drop of drops) drop();
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      figures.add('Listen: 10 open listen requests with 3 MB of parameters per round', described(samples, 48 * MiB));
    },
    120_000 * GUARD,
  );

  it(
    'applies the server caps to completion values and subscriptions over HTTP',
    async () => {
      const url = await start({ watch: true, limits: { maxSubscriptions: 4, maxSubscriptionUriBytes: 512 } });
      let id = 0;
      const samples = await rounds(server!.pid, async (round) => {
        for (let i = 0; i < 24; i++) {
          const value = `${round}-${i}-`.padEnd(1_000_000, 'v');
          const answer = await post(url, {
            jsonrpc: '2.0',
            id: ++id,
            method: 'completion/complete',
            params: modern({ ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'colour', value } }),
          });
          expect(answer.status).toBe(200);
        }
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'm', version: '1' } },
      };
      const legacy = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: url.host };
      const session = await httpSend(url, { headers: legacy, body: JSON.stringify(init) });
      const headers = { ...legacy, 'Mcp-Session-Id': session.headers['mcp-session-id'] as string, 'MCP-Protocol-Version': '2025-11-25' };
      await httpSend(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      const long = await httpSend(url, {
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: `skill://${'u'.repeat(600)}` } }),
      });
      expect(JSON.parse(long.body).error.code).toBe(-32602);
      figures.add('Completion: 24 distinct 1 MB values per round, HTTP', described(samples, 48 * MiB));
      figures.add('Subscription URI over maxSubscriptionUriBytes, HTTP session', '-32602');
    },
    120_000 * GUARD,
  );
});
