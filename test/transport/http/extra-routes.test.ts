/**
 * The `routes` option over real node:http and the handler's `fetch`
 * (src/transport/http/extra-routes.ts, routes.ts): exact and prefix paths
 * (exact first, then the longest prefix), `guarded` and `authorized`
 * access (the MCP endpoint's AuthGate, static token and OAuth, and the
 * principal it admits), binary bodies, HEAD as GET without a body, the path
 * and query handed over undecoded, the Host and Origin guards and CORS before
 * every route, and 404 for a path no route holds.
 */
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpOptions, type RouteRequest, type RouteSpec, serveHttp } from '../../../src/http.js';
import { createServer, staticPrompts } from '../../../src/index.js';
import { httpSend } from '../../_http-client.js';
import { type Issuer, startIssuer } from './auth/_issuer.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Bytes every value of which a text decoding would mangle. */
const BINARY = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);

/** A route answering with what it was given, as JSON. */
function echo(name: string): (request: RouteRequest) => Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return async (request) => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, method: request.method, path: request.path, search: request.search, principal: request.principal ?? null }),
  });
}

const server = createServer({ name: 'routes', version: '1', prompts: staticPrompts([]) });

type Routes = NonNullable<HttpOptions['routes']>;

async function start(routes: Routes, options: HttpOptions = {}) {
  const http = await serveHttp(server, { routes, ...options });
  closers.push(() => http.close());
  const at = (path: string) => new URL(path, http.url).href;
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(at(path), init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  return { url: http.url, at, get };
}

const ROUTES: Routes = {
  '/exact': echo('exact'),
  '/files/': { answer: echo('files'), prefix: true },
  '/files/deep/': { answer: echo('deep'), prefix: true },
  '/files/deep/exact': echo('deep exact'),
};

describe('routes by path', () => {
  it('answers an exact key only at its path', async () => {
    const { get } = await start(ROUTES);
    expect(JSON.parse((await get('/exact')).text).name).toBe('exact');
    expect((await get('/exact/more')).status).toBe(404);
    expect((await get('/exac')).status).toBe(404);
  });

  it('answers every path under a prefix key, the longest prefix first, an exact key before any prefix', async () => {
    const { get } = await start(ROUTES);
    const nameAt = async (path: string) => JSON.parse((await get(path)).text).name;
    expect(await nameAt('/files/')).toBe('files');
    expect(await nameAt('/files/a/b.txt')).toBe('files');
    expect(await nameAt('/files/deep/x')).toBe('deep');
    expect(await nameAt('/files/deep/exact')).toBe('deep exact');
    expect(await nameAt('/files/deeper')).toBe('files');
    // The key without its slash is not under it.
    expect((await get('/files')).status).toBe(404);
    expect((await get('/other/files/x')).status).toBe(404);
  });

  it('hands the route the normalized path and the query, neither decoded', async () => {
    const { url } = await start(ROUTES);
    const seen = async (target: string) => JSON.parse((await httpSend(new URL(target, url), { method: 'GET' })).body);
    expect(await seen('/files/a%2fb%20c?q=%20x&r=%2f')).toMatchObject({ path: '/files/a%2fb%20c', search: '?q=%20x&r=%2f' });
    // Dot segments, plain or encoded, are resolved before routing: they cannot climb out of a prefix unseen.
    expect(await seen('/files/deep/../x')).toMatchObject({ name: 'files', path: '/files/x' });
    expect(await seen('/files/deep/%2e%2e/x')).toMatchObject({ name: 'files', path: '/files/x' });
    expect((await httpSend(new URL('/files/%2e%2e/mcp', url), { method: 'GET' })).status).not.toBe(200);
  });

  it('refuses a prefix key without its trailing slash, a key not from the root, an unknown access', () => {
    const make = (routes: Routes) => () => createHttpHandler(server, { routes });
    expect(make({ '/files': { answer: echo('x'), prefix: true } })).toThrow(TypeError);
    expect(make({ 'files/': { answer: echo('x'), prefix: true } })).toThrow(TypeError);
    expect(make({ '/x': { answer: echo('x'), access: 'open' } as unknown as RouteSpec })).toThrow(TypeError);
    expect(make({ '/mcp': echo('x') })).toThrow(TypeError);
  });
});

describe('route answers', () => {
  const binary = async () => ({ status: 200, headers: { 'Content-Type': 'application/octet-stream', ETag: '"b"' }, body: BINARY });

  it('sends a binary body byte for byte, with its length, over node:http and fetch', async () => {
    const { at } = await start({ '/bin': binary });
    const response = await fetch(at('/bin'));
    expect(response.headers.get('content-length')).toBe('256');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BINARY);
    const handler = createHttpHandler(server, { routes: { '/bin': binary } });
    closers.push(() => handler.close());
    const viaFetch = await handler.fetch(new Request('http://localhost/bin'));
    expect(new Uint8Array(await viaFetch.arrayBuffer())).toEqual(BINARY);
  });

  it('answers HEAD as GET without the body: the route sees GET, the length stays', async () => {
    const { at, get } = await start({ '/bin': binary, '/echo/': { answer: echo('e'), prefix: true } });
    const head = await fetch(at('/bin'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('256');
    expect(head.headers.get('etag')).toBe('"b"');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const text = (await get('/echo/x')).text;
    const echoed = await fetch(at('/echo/x'), { method: 'HEAD' });
    expect(echoed.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text).method).toBe('GET');
    // The handler's own fetch drops the body too (node:http would drop it for a HEAD by itself).
    const handler = createHttpHandler(server, { routes: { '/bin': binary } });
    closers.push(() => handler.close());
    const viaFetch = await handler.fetch(new Request('http://localhost/bin', { method: 'HEAD' }));
    expect(viaFetch.headers.get('content-length')).toBe('256');
    expect(viaFetch.body).toBeNull();
  });
  it('sends one Content-Length when a route sets its own, in any case, with a string or byte body', async () => {
    const own = (name: string, body: string | Uint8Array) => async () => ({
      status: 200,
      headers: { 'Content-Type': 'text/plain', [name]: String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) },
      body,
    });
    const { url } = await start({ '/lower': own('content-length', 'héllo'), '/upper': own('Content-Length', BINARY) });
    for (const [path, length] of [
      ['/lower', '6'],
      ['/upper', '256'],
    ] as const) {
      const head = await rawHead(new URL(path, url));
      const lines = head.split('\r\n').filter((line) => /^content-length:/i.test(line));
      expect(lines, path).toEqual([`${lines[0]?.split(':')[0]}: ${length}`]);
    }
  });
});

/** The status line and header lines of a GET, as the bytes came, read over a socket of its own. */
function rawHead(url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const guard = setTimeout(() => socket.destroy(new Error('Hang guard: no answer head')), 5000);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(guard);
      socket.destroy();
      resolve(text.slice(0, end));
    });
    socket.on('error', reject);
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('guards before every route', () => {
  it('checks Host and Origin before a route answers, and lets an allowed page read it (CORS)', async () => {
    const { url } = await start(ROUTES);
    const target = new URL('/files/x', url);
    expect((await httpSend(target, { method: 'GET', headers: { Host: 'evil.example' } })).status).toBe(403);
    expect((await httpSend(target, { method: 'GET', headers: { Origin: 'http://evil.example' } })).status).toBe(403);
    const page = await httpSend(target, { method: 'GET', headers: { Origin: 'http://localhost:6274' } });
    expect(page.status).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect(String(page.headers['access-control-expose-headers'])).toContain('ETag');
  });

  it('lets a guarded route answer without the token, an authorized one only with it, as the MCP endpoint does', async () => {
    const { get, url } = await start(
      { '/open': echo('open'), '/closed/': { answer: echo('closed'), prefix: true, access: 'authorized' } },
      { authToken: 'route-token' },
    );
    expect((await get('/open')).status).toBe(200);
    const refused = await get('/closed/x');
    expect(refused.status).toBe(401);
    const mcp = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(mcp.headers.get('www-authenticate'));
    expect((await get('/closed/x', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await get('/closed/x', { headers: { Authorization: 'Bearer route-token' } })).status).toBe(200);
    expect((await get('/nowhere', { headers: { Authorization: 'Bearer route-token' } })).status).toBe(404);
  });
});

describe('authorized routes behind OAuth', () => {
  let issuer: Issuer;
  beforeAll(async () => {
    issuer = await startIssuer();
  });
  afterAll(async () => {
    await issuer?.stop();
  });

  it("gives the route the AuthGate's principal, and the gate's 401 with its challenge without a token", async () => {
    const { get, url } = await start(
      { '/closed/': { answer: echo('closed'), prefix: true, access: 'authorized' }, '/open': echo('open') },
      { oauth: { issuer: issuer.url, scopes: ['skills:read'] } },
    );
    const refused = await get('/closed/x');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    const token = await issuer.token('team-a', url.href, 'skills:read team:a');
    const admitted = await get('/closed/x', { headers: { Authorization: `Bearer ${token}` } });
    expect(admitted.status).toBe(200);
    expect(JSON.parse(admitted.text).principal).toMatchObject({ client: 'team-a', scopes: expect.arrayContaining(['team:a']) });
    // A guarded route sees no principal, even with a token.
    expect(JSON.parse((await get('/open', { headers: { Authorization: `Bearer ${token}` } })).text).principal).toBeNull();
  });
});
