/**
 * POST /hooks/git over real node:http: GitHub's body signature and GitLab's
 * token, each right and wrong; the route beside a bearer-protected MCP
 * endpoint; methods, sizes; a burst of hooks calling onHook once; stalled
 * unauthenticated hook bodies, which must never cost the MCP endpoint its
 * body budget.
 */
import { createHmac } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHook, GIT_HOOK_PATH, type HttpOptions, type HttpRoute, serveHttp } from '../../../src/http.js';
import { createServer, staticPrompts } from '../../../src/index.js';
import { eventually, modernHeaders } from '../../_http-client.js';
import { modern } from '../../_wire.js';

const SECRET = 'a shared webhook secret';
const BODY = JSON.stringify({ ref: 'refs/heads/main', after: 'f'.repeat(40) });
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(routes: Record<string, HttpRoute> = {}, options: HttpOptions = {}) {
  const server = createServer({ name: 't', version: '1', prompts: staticPrompts([]) });
  const http = await serveHttp(server, { authToken: 'mcp-token', routes, ...options });
  closers.push(() => http.close());
  const hook = new URL(GIT_HOOK_PATH, http.url);
  const send = (headers: Record<string, string>, body: string = BODY, method = 'POST') =>
    fetch(hook, { method, headers: { 'Content-Type': 'application/json', ...headers }, ...(method === 'GET' ? {} : { body }) });
  return { url: http.url, send };
}

function counter(debounceMs = 10) {
  const calls = { count: 0 };
  const route = createGitHook({ secret: SECRET, debounceMs, maxBodyBytes: 1024, onHook: () => void calls.count++ });
  return { calls, route };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('POST /hooks/git', () => {
  it("accepts GitHub's X-Hub-Signature-256 of the raw body with 202, without the MCP bearer token, and fetches", async () => {
    const { calls, route } = counter();
    const { send, url } = await start({ [GIT_HOOK_PATH]: route });
    const answer = await send({ 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': sign(BODY) });
    expect(answer.status).toBe(202);
    await until(() => calls.count > 0);
    expect(calls.count).toBe(1);
    // The MCP endpoint beside it still wants its token.
    expect((await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it("accepts GitLab's X-Gitlab-Token", async () => {
    const { calls, route } = counter();
    const { send } = await start({ [GIT_HOOK_PATH]: route });
    expect((await send({ 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': SECRET })).status).toBe(202);
    await until(() => calls.count > 0);
    expect(calls.count).toBe(1);
  });

  it('refuses a missing or wrong signature or token with 401 and fetches nothing', async () => {
    const { calls, route } = counter();
    const { send } = await start({ [GIT_HOOK_PATH]: route });
    const refused = [
      {},
      { 'X-Hub-Signature-256': sign(BODY, 'another secret') },
      { 'X-Hub-Signature-256': sign(`${BODY} `) },
      { 'X-Hub-Signature-256': sign(BODY).replace('sha256=', 'sha1=') },
      { 'X-Hub-Signature-256': 'sha256=00' },
      // A right GitLab token does not excuse a wrong GitHub signature.
      { 'X-Hub-Signature-256': sign(BODY, 'another secret'), 'X-Gitlab-Token': SECRET },
      { 'X-Gitlab-Token': `${SECRET}x` },
      { 'X-Gitlab-Token': '' },
    ];
    for (const headers of refused) {
      const answer = await send(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(await answer.text()).not.toContain(SECRET);
    }
    // A good hook after them is the only fetch.
    expect((await send({ 'X-Gitlab-Token': SECRET })).status).toBe(202);
    await until(() => calls.count > 0);
    expect(calls.count).toBe(1);
  });

  it('answers 405 to other methods, 413 to a body over the cap, and 404 where no hook is configured', async () => {
    const { calls, route } = counter();
    const { send } = await start({ [GIT_HOOK_PATH]: route });
    const get = await send({}, '', 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = 'x'.repeat(2048);
    expect((await send({ 'X-Hub-Signature-256': sign(big) }, big)).status).toBe(413);
    expect(calls.count).toBe(0);

    const bare = await start();
    expect((await bare.send({ 'X-Gitlab-Token': SECRET })).status).toBe(404);
  });

  it('calls onHook once for a burst of hooks', async () => {
    const { calls, route } = counter(1000);
    const { send } = await start({ [GIT_HOOK_PATH]: route });
    const answers = await Promise.all(Array.from({ length: 5 }, () => send({ 'X-Hub-Signature-256': sign(BODY) })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    await until(() => calls.count > 0);
    // One more quiet period: nothing else was pending.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(calls.count).toBe(1);
  });

  it('refuses an empty secret and a route on the MCP path', () => {
    expect(() => createGitHook({ secret: '', onHook: () => {} })).toThrow(/non-empty secret/);
    const server = createServer({ name: 't', version: '1', prompts: staticPrompts([]) });
    return expect(serveHttp(server, { routes: { '/mcp': counter().route } })).rejects.toThrow(/MCP endpoint's path/);
  });
});

/** A raw connection that sends `head` and `body` and then stalls; what it received so far. */
function stall(url: URL, head: string, body: Buffer | string): Promise<{ socket: Socket; received: () => string }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      socket.write(body, () => resolve({ socket, received: () => received }));
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

/** The head of a hook POST declaring `length` body bytes, with `headers` besides. */
function hookHead(url: URL, length: number, headers: Record<string, string>): string {
  const lines = { Host: url.host, 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers };
  return `POST ${GIT_HOOK_PATH} HTTP/1.1\r\n${Object.entries(lines)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n`;
}

/** An authorized 2026-07-28 request to /mcp, its status. */
async function mcpStatus(url: URL): Promise<number> {
  const body = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() };
  const answer = await fetch(url, { method: 'POST', headers: { ...modernHeaders(body), Authorization: 'Bearer mcp-token' }, body: JSON.stringify(body) });
  await answer.arrayBuffer();
  return answer.status;
}

describe('POST /hooks/git against stalled bodies', () => {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  it("keeps answering authorized POST /mcp while unauthenticated hook bodies stall: the routes' bodies have a budget of their own", async () => {
    const route = createGitHook({ secret: SECRET, onHook: () => {} });
    // Both budgets small, so that 50-byte bodies fill them (each arrives whole, nothing cascades).
    const { url, send } = await start({ [GIT_HOOK_PATH]: route }, { maxBufferedBodyBytes: 4096, maxBufferedRouteBodyBytes: 4096 });
    const base = new URL(url);
    for (let i = 0; i < 120; i++) {
      const connection = await stall(base, hookHead(base, 51, { 'X-Hub-Signature-256': sign('forged') }), 'x'.repeat(50));
      sockets.push(connection.socket);
    }
    // A whole signed hook, larger than any stalled body: 503 once the stalled bodies fill the routes' budget.
    const probe = JSON.stringify({ ref: 'refs/heads/main', padding: 'p'.repeat(200) });
    await eventually(async () => (await send({ 'X-Hub-Signature-256': sign(probe) }, probe)).status === 503);
    // The MCP endpoint's budget holds none of it.
    expect(await mcpStatus(url)).toBe(200);
  });

  it('answers 413 at once to a hook declaring more than 1 MiB (the default cap), without reading it, and /mcp stays served', async () => {
    const route = createGitHook({ secret: SECRET, onHook: () => {} });
    const { url } = await start({ [GIT_HOOK_PATH]: route });
    const base = new URL(url);
    // The reported attack: 16 connections each sending 4 MiB less one byte, then stalling.
    const size = 4 * 1024 * 1024;
    const connections = await Promise.all(
      Array.from({ length: 16 }, () => stall(base, hookHead(base, size, { 'X-Hub-Signature-256': sign('forged') }), Buffer.alloc(size - 1, 0x20))),
    );
    sockets.push(...connections.map((c) => c.socket));
    await eventually(() => connections.every((c) => c.received().startsWith('HTTP/1.1 413')));
    expect(await mcpStatus(url)).toBe(200);
    // Just over the default cap is refused; at the cap is read and checked.
    const over = 'x'.repeat(1024 * 1024 + 1);
    const at = 'x'.repeat(1024 * 1024);
    const hook = new URL(GIT_HOOK_PATH, url);
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': sign(over) }, body: over })).status).toBe(413);
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': sign(at) }, body: at })).status).toBe(202);
  });

  it('refuses a hook without a well-formed signature or with a wrong GitLab token before reading its body', async () => {
    const { url } = await start({ [GIT_HOOK_PATH]: counter().route });
    const base = new URL(url);
    const refused = [{}, { 'X-Hub-Signature-256': 'sha256=00' }, { 'X-Gitlab-Token': 'wrong' }];
    for (const headers of refused) {
      // 100 bytes declared, 10 sent: only an answer that does not wait for the body arrives.
      const connection = await stall(base, hookHead(base, 100, headers), 'x'.repeat(10));
      sockets.push(connection.socket);
      await eventually(() => connection.received().startsWith('HTTP/1.1 401'));
    }
  });
});
