/**
 * serveHttp's close() with connections that never sent a request
 * (src/transport/http/serve.ts stop): a client that opened a connection
 * ahead of need, or one that connected and went quiet, is not in a request,
 * so the stop closes it as it closes idle keep-alive connections. node's
 * closeIdleConnections passes over such a connection (it counts it as
 * waiting for headers), and the stop used to wait for it until the drain
 * time ran out.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../src/http.js';
import { createServer, staticPrompts } from '../../../src/index.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

function opened(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

const ended = (socket: Socket): Promise<void> => new Promise((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

describe('serveHttp close()', () => {
  it('closes connections that never sent a request, and does not wait the drain time for them', async () => {
    const server = createServer({ name: 'stop', version: '1', prompts: staticPrompts([]) });
    // Drain and header times far past the test's own timeout: a stop that waited for them fails it.
    const http = await serveHttp(server, { drainTimeoutMs: 60_000, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const quiet = await opened(http.url);
    const used = await opened(http.url);
    used.write(`GET /health HTTP/1.1\r\nHost: ${http.url.host}\r\n\r\n`);
    await new Promise((resolve) => used.once('data', resolve));
    await http.close();
    await Promise.all([ended(quiet), ended(used)]);
    expect(quiet.closed && used.closed).toBe(true);
  });
});
