/**
 * What the HTTP transport holds for clients, bounded: request bodies being
 * received (one budget over all requests, 503 with Retry-After past it) and
 * pipelined requests (handled one at a time per connection, so a client
 * cannot make the server build many answers at once on one socket).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttpHandler, serveHttp } from '../../../src/http.js';
import { createServer, definePrompt, staticPrompts } from '../../../src/index.js';
import { modernMeta } from '../../_wire.js';

const META = modernMeta();
const discover = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: META } });
const HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'server/discover',
  Host: '127.0.0.1',
};

/** A request body the test feeds by hand: `send` a chunk, `end` it. */
function handFed(): { body: ReadableStream<Uint8Array>; send(text: string): void; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { body, send: (text) => controller.enqueue(new TextEncoder().encode(text)), end: () => controller.close() };
}

describe('request bodies over the budget (maxBufferedBodyBytes)', () => {
  it('answers a body that would pass the budget with 503 and Retry-After while another is held, and serves it once that one is done', async () => {
    const handler = createHttpHandler(createServer({ name: 't', version: '1' }), { maxBufferedBodyBytes: 64 });
    const url = 'http://127.0.0.1/mcp';
    const first = handFed();
    const text = discover(1);
    first.send(text.slice(0, 40));
    const held = handler.fetch(new Request(url, { method: 'POST', headers: HEADERS, body: first.body, duplex: 'half' } as RequestInit));
    // The chunk sent is read (and taken from the budget) within a few turns.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    const refused = await handler.fetch(new Request(url, { method: 'POST', headers: HEADERS, body: discover(2) }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32603);
    first.send(text.slice(40));
    first.end();
    expect((await held).status).toBe(200);
    // Given back: alone, a body may even pass the budget (up to maxBodyBytes).
    expect((await handler.fetch(new Request(url, { method: 'POST', headers: HEADERS, body: discover(3) }))).status).toBe(200);
    await handler.close();
  });

  it('takes back the share of a node:http client that leaves in the middle of its body, and only once', async () => {
    const http = await serveHttp(createServer({ name: 't', version: '1' }), { port: 0, maxBufferedBodyBytes: 400 });
    const head = (length: number) =>
      `POST /mcp HTTP/1.1\r\nHost: ${http.url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: ${length}\r\n\r\n`;
    /** A client that sends 300 of its 600 bytes; its body is read (and taken from the budget) within a few turns. */
    const halfBody = async () => {
      const socket = connect(Number(http.url.port), '127.0.0.1', () => socket.write(head(600) + 'x'.repeat(300)));
      socket.on('error', () => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      return socket;
    };
    const post = (id: number) => fetch(http.url, { method: 'POST', headers: { ...HEADERS, Host: http.url.host }, body: discover(id) }).then((r) => r.status);
    try {
      expect(discover(1).length).toBeLessThan(400);
      for (let client = 0; client < 3; client++) (await halfBody()).destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Had a share been kept, the budget would still be taken.
      expect(await post(1)).toBe(200);
      // Had a share been given back twice, the budget would have room past its cap for this one.
      const held = await halfBody();
      expect(await post(2)).toBe(503);
      held.destroy();
    } finally {
      await http.close();
    }
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => createHttpHandler(createServer({ name: 't', version: '1' }), { maxBufferedBodyBytes: 0 })).toThrow(TypeError);
  });
});

describe('pipelined requests over node:http', () => {
  it('are handled one after another, each when its turn to be answered comes, with no listener per request left on the socket', async () => {
    // Node warns once more than 10 listeners of one event sit on an emitter: the sign of a listener added per request.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    let running = 0;
    let most = 0;
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([
        definePrompt({
          name: 'slow',
          get: async () => {
            most = Math.max(most, ++running);
            await new Promise((resolve) => setTimeout(resolve, 5));
            running--;
            return 'x'.repeat(1000);
          },
        }),
      ]),
    });
    const http = await serveHttp(server, { port: 0 });
    try {
      const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'slow', _meta: META } });
      const request = (id: number) =>
        `POST /mcp HTTP/1.1\r\nHost: ${http.url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: prompts/get\r\nMcp-Name: slow\r\nContent-Length: ${body(id).length}\r\n\r\n${body(id)}`;
      const received = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(Number(http.url.port), '127.0.0.1', () => socket.write(Array.from({ length: 12 }, (_, i) => request(i + 1)).join('')));
        const guard = setTimeout(() => socket.destroy(new Error('Hang guard: pipelined answers did not all come')), 10_000);
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 12 && text.endsWith('}')) {
            clearTimeout(guard);
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
      });
      expect(received.match(/"id":\d+/g)).toEqual(Array.from({ length: 12 }, (_, i) => `"id":${i + 1}`));
      expect(most).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      await http.close();
    }
  });
});
