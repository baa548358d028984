/**
 * The route table (src/transport/http/routes.ts): every path the handler
 * answers in one list, and which of two routes at one path answers.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/index.js';
import type { Route } from '../../../src/transport/http/request.js';
import { routeTable, tableOf } from '../../../src/transport/http/routes.js';
import { fakeRequest } from './_request.js';

const server = createServer({ name: 'routes', version: '1' });

function route(path: string, access: Route['access'], name: string): Route {
  return { path, access, answer: () => ({ status: 200, headers: {}, body: name }) };
}

/** Which route answers each path, by its body. */
async function answers(table: ReturnType<typeof routeTable>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const found of table.routes) {
    const reply = await found.answer(fakeRequest(found.path, { method: 'GET' }), undefined);
    out[found.path] = typeof reply.body === 'string' && reply.body !== 'ok\n' ? reply.body : `health (${found.access})`;
  }
  return out;
}

describe('route table', () => {
  it('keeps the first route listed for a path', () => {
    const table = tableOf([route('/a', 'guarded', 'first'), route('/a', 'open', 'second'), route('/b', 'authorized', 'b')]);
    expect(table.routes.map((found) => found.path)).toEqual(['/a', '/b']);
    expect(table.get('/a')?.access).toBe('guarded');
  });

  it('lists health, the routes option, the gate routes and the MCP endpoint, in that precedence', async () => {
    const table = routeTable({
      server,
      options: {},
      path: '/mcp',
      endpoint: route('/mcp', 'authorized', 'mcp'),
      userRoutes: [route('/hook', 'guarded', 'hook'), route('/healthz', 'guarded', 'shadowed by health'), route('/meta', 'guarded', 'user meta')],
      authRoutes: [route('/meta', 'guarded', 'gate meta'), route('/gate', 'guarded', 'gate')],
      serving: () => true,
    });
    expect(await answers(table)).toEqual({
      '/healthz': 'health (open)',
      '/readyz': 'health (open)',
      '/hook': 'hook',
      '/meta': 'user meta',
      '/gate': 'gate',
      '/mcp': 'mcp',
    });
  });

  it('gives a health path to the MCP endpoint put there', () => {
    const table = routeTable({
      server,
      options: {},
      path: '/healthz',
      endpoint: route('/healthz', 'authorized', 'mcp'),
      userRoutes: [],
      authRoutes: [],
      serving: () => true,
    });
    expect(table.get('/healthz')?.access).toBe('authorized');
    expect(table.get('/readyz')?.access).toBe('open');
  });
});
