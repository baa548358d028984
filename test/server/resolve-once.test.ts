/**
 * Each fact about a message is decided once: the resolver runs once per
 * message, and reads the 2026-07-28 `_meta` envelope once, whatever the
 * transport and the era (it used to run three times on a 2026 HTTP request:
 * in the transport's routing, its header checks and the connection).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initializeParams, modernMeta } from '../_wire.js';

const counts = vi.hoisted(() => ({ resolve: 0, meta: 0 }));
vi.mock('../../src/protocol/rev2026-07-28/meta.js', async (original) => {
  const meta = await original<typeof import('../../src/protocol/rev2026-07-28/meta.js')>();
  return {
    ...meta,
    readRequestMeta: (params: Record<string, unknown> | undefined) => {
      counts.meta++;
      return meta.readRequestMeta(params);
    },
  };
});
vi.mock('../../src/protocol/resolve.js', async (original) => {
  const resolver = await original<typeof import('../../src/protocol/resolve.js')>();
  return {
    ...resolver,
    resolve: (...args: Parameters<typeof resolver.resolve>) => {
      counts.resolve++;
      return resolver.resolve(...args);
    },
  };
});

const { createServer, definePrompt, staticPrompts } = await import('../../src/index.js');
const { RawStdioClient } = await import('../_stdio-client.js');
const { RawHttpClient, json, modernPost, post } = await import('../_http-client.js');

const server = createServer({
  name: 'once',
  version: '1.0.0',
  prompts: staticPrompts([definePrompt({ name: 'hello', arguments: [{ name: 'who', required: true }], get: ({ who }) => `Hello ${who}` })]),
});

beforeEach(() => {
  counts.resolve = 0;
  counts.meta = 0;
});
afterEach(() => vi.clearAllMocks());

describe('the resolver', () => {
  it('decides a 2026-07-28 HTTP request once and reads its _meta once', async () => {
    const target = await RawHttpClient.inProcess(server);
    try {
      const answer = await json(await modernPost(target, 'prompts/get', { name: 'hello', arguments: { who: 'Ada' } }));
      expect(answer.result.messages[0].content.text).toBe('Hello Ada');
      expect(counts).toEqual({ resolve: 1, meta: 1 });
      // A refused one too: the error comes from the same single decision.
      const refused = await modernPost(target, 'prompts/get', { name: 'hello' }, { 'mcp-method': 'prompts/list' });
      expect(refused.status).toBe(400);
      expect(counts).toEqual({ resolve: 2, meta: 2 });
    } finally {
      await target.close();
    }
  });

  it('decides each message of an HTTP session once', async () => {
    const target = await RawHttpClient.inProcess(server);
    try {
      const init = await post(target, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id') as string;
      await init.text();
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      expect((await post(target, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
      const answer = await json(
        await post(target, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'hello', arguments: { who: 'Bo' } } }, headers),
      );
      expect(answer.result.messages[0].content.text).toBe('Hello Bo');
      expect(counts).toEqual({ resolve: 3, meta: 3 });
    } finally {
      await target.close();
    }
  });

  it('decides each stdio line once', async () => {
    const client = RawStdioClient.inProcess(server);
    client.send({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'hello', arguments: { who: 'Cy' }, _meta: modernMeta() } });
    client.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: initializeParams('2025-06-18') });
    await client.close();
    expect(client.garbage).toEqual([]);
    expect(client.received.map((message) => message.id).sort()).toEqual([1, 2]);
    expect(counts).toEqual({ resolve: 2, meta: 2 });
  });
});
