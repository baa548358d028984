/**
 * toNodeHandler adapts any fetch handler, as srvx and the official SDK do,
 * not only one made by createHttpHandler: request line, headers, body and
 * client disconnects in; status, headers (several Set-Cookie), and a streamed
 * body out. Over a real node:http server on 127.0.0.1.
 */
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, toNodeHandler } from '../../../src/http.js';
import { createServer as createMcpServer, definePrompt, staticPrompts } from '../../../src/index.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: Parameters<typeof toNodeHandler>[0]): Promise<string> {
  const server = createServer(toNodeHandler(handler));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    outgoing.once('error', reject);
    outgoing.end(init.body);
  });
}

describe('toNodeHandler with any fetch handler', () => {
  it('passes the request in and writes the response out', async () => {
    const base = await listen({
      async fetch(req) {
        const echo = { method: req.method, url: req.url, header: req.headers.get('x-test'), body: await req.text() };
        const headers = new Headers({ 'content-type': 'application/json', 'x-reply': 'yes' });
        headers.append('set-cookie', 'a=1');
        headers.append('set-cookie', 'b=2');
        return new Response(JSON.stringify(echo), { status: 201, headers });
      },
    });
    const answer = await send(`${base}/some/path?q=1`, { method: 'POST', headers: { 'x-test': 'hello', 'content-type': 'text/plain' }, body: 'the body' });
    expect(answer.status).toBe(201);
    expect(answer.headers['x-reply']).toBe('yes');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(answer.body)).toEqual({ method: 'POST', url: `${base}/some/path?q=1`, header: 'hello', body: 'the body' });
  });

  it('streams a body as it comes, and tells the handler when the client leaves', async () => {
    let aborted!: () => void;
    const left = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const base = await listen({
      fetch(req) {
        if (new URL(req.url).pathname === '/stream') {
          req.signal.addEventListener('abort', () => aborted());
          // A body that never ends on its own: only the client's leaving stops it.
          return new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('first\n')) }), {
            headers: { 'content-type': 'text/plain' },
          });
        }
        return new Response(null, { status: 204 });
      },
    });
    expect((await send(`${base}/empty`, {})).status).toBe(204);
    const outgoing = request(`${base}/stream`);
    outgoing.end();
    const [res] = (await once(outgoing, 'response')) as [import('node:http').IncomingMessage];
    const [chunk] = (await once(res, 'data')) as [Buffer];
    expect(chunk.toString()).toBe('first\n');
    outgoing.destroy();
    await left;
  });

  it('answers 500 when the handler throws', async () => {
    const base = await listen({
      fetch() {
        throw new Error('boom');
      },
    });
    expect((await send(base, {})).status).toBe(500);
  });

  it("goes through a skillport handler's fetch once it was replaced, as middleware does", async () => {
    const mcp = createMcpServer({ name: 't', version: '1', prompts: staticPrompts([definePrompt({ name: 'p', get: () => 'hi' })]) });
    const own = createHttpHandler(mcp);
    const seen: string[] = [];
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // Replaced on the object itself, and on a spread copy: both must run the new fetch.
    const copy = { ...own, fetch: (req: Request) => (seen.push('copy'), own.fetch(req)) };
    const mutated = createHttpHandler(mcp);
    const original = mutated.fetch.bind(mutated);
    mutated.fetch = (req: Request) => (seen.push('mutated'), original(req));
    for (const handler of [own, copy, mutated]) {
      const base = await listen(handler);
      const answer = await send(`${base}/mcp`, { method: 'POST', headers, body });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { serverInfo: { name: 't' } } });
    }
    expect(seen).toEqual(['copy', 'mutated']);
    await Promise.all([own.close(), mutated.close()]);
  });
});
