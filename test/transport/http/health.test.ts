/**
 * GET /healthz and /readyz: answered before Host, Origin and token checks,
 * with a tiny body, readiness from the caller's check, 503 while draining.
 */
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, staticPrompts } from '../../../src/index.js';
import { createHttpHandler } from '../../../src/transport/http/handler.js';
import { serveHttp } from '../../../src/transport/http/serve.js';

function server() {
  return createServer({ name: 'health', version: '1.0.0', prompts: staticPrompts([definePrompt({ name: 'p', get: () => 'hi' })]) });
}

const at = (path: string, init: RequestInit = {}) => new Request(`http://10.1.2.3:8080${path}`, init);

describe('health endpoints', () => {
  it('answers /healthz 200 ok whatever the Host, Origin and token', async () => {
    const handler = createHttpHandler(server(), { authToken: 'secret-token' });
    const response = await handler.fetch(at('/healthz', { headers: { Origin: 'https://evil.example' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('ok\n');
    // The MCP endpoint still refuses the same Host.
    expect((await handler.fetch(at('/mcp', { method: 'POST' }))).status).toBe(403);
    await handler.close();
  });

  it('follows the ready check on /readyz: 200 when it passes, 503 when false, throwing or after draining', async () => {
    let state: boolean | 'throw' = true;
    const handler = createHttpHandler(server(), {
      ready: () => {
        if (state === 'throw') throw new Error('redis down');
        return state;
      },
    });
    expect((await handler.fetch(at('/readyz'))).status).toBe(200);
    state = false;
    const refused = await handler.fetch(at('/readyz'));
    expect(refused.status).toBe(503);
    expect(await refused.text()).toBe('unavailable\n');
    state = 'throw';
    expect((await handler.fetch(at('/readyz'))).status).toBe(503);
    state = true;
    await handler.close();
    expect((await handler.fetch(at('/readyz'))).status).toBe(503);
    expect((await handler.fetch(at('/healthz'))).status).toBe(200);
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const handler = createHttpHandler(server());
    const head = await handler.fetch(at('/readyz', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await handler.fetch(at('/healthz', { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await handler.close();
  });

  it('leaves the path to the MCP endpoint when the endpoint was put there', async () => {
    const handler = createHttpHandler(server(), { path: '/healthz' });
    const response = await handler.fetch(new Request('http://127.0.0.1:8080/healthz'));
    // A GET without a session at the MCP endpoint: 405, not the health answer.
    expect(response.status).toBe(405);
    await handler.close();
  });

  it('is served over node:http by serveHttp', async () => {
    const running = await serveHttp(server(), { ready: async () => false });
    const base = running.url.origin;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    await running.close();
  });
});
