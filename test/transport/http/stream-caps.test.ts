/**
 * The per-client stream cap behind a proxy: by default every request of the
 * in-process handler has no address (only `maxStreams` applies); with
 * `trustProxy` the last X-Forwarded-For entry names the client.
 */
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, livePrompts } from '../../../src/index.js';
import { createHttpHandler } from '../../../src/transport/http/handler.js';
import { modernHeaders } from '../../_http-client.js';
import { modern } from '../../_wire.js';

const LISTEN = { jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: modern({ notifications: { promptsListChanged: true } }) };

function listen(handler: ReturnType<typeof createHttpHandler>, forwardedFor: string | undefined): Promise<Response> {
  const headers = modernHeaders(LISTEN, new URL('http://127.0.0.1:8080/mcp'));
  if (forwardedFor !== undefined) headers['X-Forwarded-For'] = forwardedFor;
  return handler.fetch(new Request('http://127.0.0.1:8080/mcp', { method: 'POST', headers, body: JSON.stringify(LISTEN) }));
}

describe('stream caps behind a proxy', () => {
  const server = () => createServer({ name: 'caps', version: '1.0.0', prompts: livePrompts([definePrompt({ name: 'p', get: () => 'x' })]) });

  it('with trustProxy, counts each forwarded client on its own and refuses one over its cap with 429', async () => {
    const handler = createHttpHandler(server(), { maxStreamsPerClient: 1, trustProxy: true });
    const opened = [await listen(handler, '203.0.113.5'), await listen(handler, '10.9.9.9, 198.51.100.7')];
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    // The same client as the first (the last entry is what the proxy saw; earlier ones are the client's say).
    expect((await listen(handler, '192.0.2.1, 203.0.113.5')).status).toBe(429);
    for (const response of opened) await response.body?.cancel();
    await handler.close();
  });

  it('without trustProxy, ignores X-Forwarded-For', async () => {
    const handler = createHttpHandler(server(), { maxStreamsPerClient: 1, maxStreams: 2 });
    const opened = [await listen(handler, '203.0.113.5'), await listen(handler, '203.0.113.5')];
    // No remote address in-process: only maxStreams counts, whatever the header says.
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    expect((await listen(handler, '198.51.100.7')).status).toBe(429);
    for (const response of opened) await response.body?.cancel();
    await handler.close();
  });
});
