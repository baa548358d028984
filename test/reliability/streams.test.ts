/**
 * Long-lived streams and shutdown: a listen stream whose client stops
 * reading (bounded buffer, then the stream is ended and the request
 * cancelled), clients that disconnect mid-stream (hundreds of times: the
 * server stays healthy and its memory flat), caps on concurrent listen/GET
 * streams per client and overall, and SIGTERM under load (in-flight
 * requests answered, listen streams ended with their result, exit 0).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { HTTP_FIXTURE, HttpChild, httpBuilt, type Message, MiB, memoryFlat, rssOf, sleep, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const figures = new Figures();
let server: HttpChild | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(() => writeSection('streams', `### Streams, disconnects and shutdown (HTTP)\n\n${figures.table()}`));

const LISTEN = { jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: modern({ notifications: { promptsListChanged: true } }) };

async function start(http: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<URL> {
  server = new HttpChild(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir: VALID_SKILLS, http, ...extra }) });
  return server.url;
}

/** Opens a listen stream; resolves once the acknowledgement arrived, with a way to drop the connection. */
function openListen(url: URL, id: string): Promise<{ status: number; events: string[]; drop(): void; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const body = { ...LISTEN, id };
    const req = httpRequest(url, { method: 'POST', headers: modernHeaders(body, url), agent: false }, (res) => {
      const events: string[] = [];
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      const drop = (): void => void req.destroy();
      if (res.statusCode !== 200) {
        res.resume();
        return resolve({ status: res.statusCode ?? 0, events, drop, ended });
      }
      res.on('data', (c: Buffer) => {
        events.push(c.toString());
        if (events.join('').includes('acknowledged')) resolve({ status: 200, events, drop, ended });
      });
    });
    req.setTimeout(20_000, () => req.destroy(new Error('Hang guard: listen not acknowledged')));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('streams (in-process)', () => {
  it('ends a listen stream whose client stops reading, after a bounded buffer, and cancels its request', async () => {
    const { createServer, definePrompt, livePrompts } = await import('../../src/index.js');
    const { createHttpHandler } = await import('../../src/http.js');
    const prompts = livePrompts([definePrompt({ name: 'p0', get: () => 'x' })]);
    const handler = createHttpHandler(createServer({ name: 't', version: '1', prompts }));
    const url = new URL('http://127.0.0.1/mcp');
    const response = await handler.fetch(
      new Request(url, { method: 'POST', headers: { ...modernHeaders(LISTEN, url), Host: '127.0.0.1' }, body: JSON.stringify(LISTEN) }),
    );
    expect(response.status).toBe(200);
    // The client never reads: 20,000 changes, each a notification queued for it.
    for (let i = 1; i <= 20_000; i++) prompts.set([definePrompt({ name: `p${i}`, get: () => 'x' })]);
    const reader = response.body!.getReader();
    let bytes = 0;
    let ended = false;
    for (let i = 0; i < 30_000; i++) {
      const next = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (next.done) {
        ended = true;
        break;
      }
      bytes += next.value?.byteLength ?? 0;
    }
    expect(ended, 'the stream never ended').toBe(true);
    // Far less than 20,000 notifications were kept for it.
    expect(bytes).toBeLessThan(20_000 * 100);
    await handler.close();
    figures.add('Listen stream never read while 20,000 changes fire', 'ended at 1,000 unread events, its queue dropped and its request cancelled');
  });
});

describe.skipIf(!httpBuilt())('streams over node:http', () => {
  it('stays healthy and flat while hundreds of clients drop listen streams and in-flight requests mid-way', async () => {
    const url = await start({ maxStreamsPerClient: 64 });
    const samples: number[] = [];
    let dropped = 0;
    for (let round = 0; round < 6; round++) {
      const batch = await Promise.all(Array.from({ length: 40 }, (_, i) => openListen(url, `l-${round}-${i}`)));
      for (const stream of batch) {
        expect(stream.status).toBe(200);
        stream.drop();
        dropped++;
      }
      // Requests abandoned before their answer is read.
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const body = { jsonrpc: '2.0', id: i, method: 'prompts/get', params: modern({ name: 'greeting', arguments: { who: 'x'.repeat(100_000) } }) };
          return new Promise<void>((resolve) => {
            const req = httpRequest(url, { method: 'POST', headers: modernHeaders(body, url), agent: false }, (res) => {
              res.once('data', () => req.destroy());
              res.on('close', resolve);
            });
            req.on('error', () => resolve());
            req.on('close', () => resolve());
            req.end(JSON.stringify(body));
          });
        }),
      );
      dropped += 40;
      const probe = await httpSend(url, {
        headers: modernHeaders({ method: 'server/discover' }, url),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() }),
      });
      expect(probe.status).toBe(200);
      if (round > 0) samples.push(rssOf(server!.pid));
    }
    expect(memoryFlat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB)).join(', ')}`).toBe(true);
    figures.add('Clients dropping listen streams and half-read answers', `${dropped} disconnects; server healthy, RSS flat`);
  }, 60_000);

  it('caps concurrent listen/GET streams per client and overall with 429', async () => {
    const url = await start({ maxStreams: 6, maxStreamsPerClient: 4 });
    const opened = await Promise.all(Array.from({ length: 4 }, (_, i) => openListen(url, `a-${i}`)));
    expect(opened.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect((await openListen(url, 'a-over')).status).toBe(429);
    // A legacy GET stream counts too.
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 's', version: '1' } },
    };
    const session = await httpSend(url, {
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: url.host },
      body: JSON.stringify(init),
    });
    const id = session.headers['mcp-session-id'] as string;
    const get = await new Promise<number>((resolve) => {
      const req = httpRequest(
        url,
        { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25', Host: url.host }, agent: false },
        (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', () => resolve(-1));
      req.end();
    });
    expect(get).toBe(429);
    // Closing one frees a place.
    opened[0]!.drop();
    await opened[0]!.ended;
    let reopened = 0;
    for (let i = 0; i < 50 && reopened !== 200; i++) {
      await sleep(50);
      reopened = await openListen(url, `a-again-${i}`).then((s) => (s.status === 200 ? (s.drop(), 200) : s.status));
    }
    expect(reopened).toBe(200);
    for (const stream of opened) stream.drop();
    figures.add('Listen/GET streams over maxStreamsPerClient (4) / maxStreams (6)', '429; a closed stream frees its place');
  }, 60_000);

  it('on SIGTERM under load answers the requests in flight, ends listen streams with their result, and exits 0', async () => {
    const url = await start();
    const listens = await Promise.all(Array.from({ length: 5 }, (_, i) => openListen(url, `s-${i}`)));
    const body = (i: number) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'prompts/get',
      params: modern({ name: 'greeting', arguments: { who: 'x'.repeat(50_000) } }),
    });
    let first = false;
    const inFlight = Array.from({ length: 300 }, (_, i) =>
      httpSend(url, { headers: modernHeaders(body(i), url), body: JSON.stringify(body(i)), agent: false })
        .then((answer) => {
          first = true;
          return answer;
        })
        .catch((error: Error) => error),
    );
    // Shut down once the server is answering, with most of the 300 still in flight.
    for (let i = 0; i < 400 && !first; i++) await sleep(5);
    server!.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    const exit = await server!.exited;
    let answered = 0;
    let refused = 0;
    for (const answer of answers) {
      if (answer instanceof Error) continue;
      if (answer.status === 200) {
        expect((JSON.parse(answer.body) as Message).result.messages).toHaveLength(1);
        answered++;
      } else if (answer.status === 503) refused++;
    }
    // Every request either got its answer or a clean 503 (it arrived after shutdown began);
    // the rest never reached the server (connection refused once the listener closed).
    const notConnected = answers.filter((a) => a instanceof Error && /ECONNREFUSED|ECONNRESET|socket hang up/.test(a.message)).length;
    expect(answered + refused + notConnected).toBe(300);
    expect(answered).toBeGreaterThan(0);
    for (const stream of listens) {
      await stream.ended;
      expect(stream.events.join('')).toMatch(/"id":"s-\d","result":\{[\s\S]*"resultType":"complete"/);
    }
    expect(exit).toEqual({ code: 0, signal: null });
    server = undefined;
    figures.add('SIGTERM with 300 requests in flight and 5 listen streams', 'answered or 503, listens ended with their result, exit 0');
  }, 60_000);
});
