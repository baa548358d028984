/**
 * POST /hooks/git over real node:http: GitHub's body signature and GitLab's
 * token, each right and wrong; the route beside a bearer-protected MCP
 * endpoint; methods, sizes; a burst of hooks calling onHook once.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHook, GIT_HOOK_PATH, type HttpRoute, serveHttp } from '../../src/http.js';
import { createServer, staticPrompts } from '../../src/index.js';

const SECRET = 'a shared webhook secret';
const BODY = JSON.stringify({ ref: 'refs/heads/main', after: 'f'.repeat(40) });
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(routes: Record<string, HttpRoute> = {}) {
  const server = createServer({ name: 't', version: '1', prompts: staticPrompts([]) });
  const http = await serveHttp(server, { authToken: 'mcp-token', routes });
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
