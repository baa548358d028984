/**
 * What the Streamable HTTP transport refuses before the server sees a
 * request: DNS rebinding (Host, Origin), missing or wrong bearer tokens,
 * oversized and malformed bodies, wrong media types; plus the Protected
 * Resource Metadata document and graceful shutdown. Called once per target.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../../src/http.js';
import { eventually, json, type MakeHttpClient, modernPost, post, type RawHttpClient, SseReader } from '../../_http-client.js';
import { schemaErrors } from '../../_schema.js';
import type { Message } from '../../_wire.js';
import { createFixture } from './http-fixture.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** An id-less or id-null transport error: the status and the JSON-RPC code. */
async function expectHttpError(response: Response, status: number, code: number): Promise<Message> {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
  // 2025-11-25 allows an error without a readable id; JSON-RPC 2.0 writes it as null.
  const { id: _id, ...withoutId } = body;
  expect(schemaErrors('2025-11-25', 'JSONRPCErrorResponse', withoutId)).toEqual([]);
  return body;
}

export function securitySuite(makeTarget: MakeHttpClient): void {
  let target: RawHttpClient | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function start(options: HttpOptions = {}): Promise<RawHttpClient> {
    target = await makeTarget(createFixture().server, options);
    return target;
  }

  describe('DNS rebinding defence', () => {
    it('refuses a foreign Host or Origin with 403 and accepts localhost ones', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectHttpError(await post(t, INITIALIZE, { host: 'evil.example.com', origin: 'http://evil.example.com' }), 403, -32600);
      await expectHttpError(await post(t, INITIALIZE, { host: 'evil.example.com' }), 403, -32600);
      await expectHttpError(await post(t, INITIALIZE, { origin: 'http://evil.example.com' }), 403, -32600);
      await expectHttpError(await post(t, INITIALIZE, { origin: 'null' }), 403, -32600);
      await expectHttpError(await modernPost(t, 'server/discover', {}, { origin: 'https://evil.example.com' }), 403, -32600);
      for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080']) {
        const response = await post(t, INITIALIZE, { origin, host: 'localhost:1234' });
        expect(response.status, origin).toBe(200);
        await response.body?.cancel();
      }
    });

    it('follows the allowedOrigins and allowedHosts options', async () => {
      const t = await start({ allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] });
      const ok = await post(t, INITIALIZE, { host: 'mcp.example.com:443', origin: 'https://app.example.com' });
      expect(ok.status).toBe(200);
      await ok.body?.cancel();
      expect((await post(t, INITIALIZE, { host: 'mcp.example.com', origin: 'http://localhost' })).status).toBe(403);
      expect((await post(t, INITIALIZE, { host: 'localhost' })).status).toBe(403);
    });
  });

  describe('CORS for allowed origins', () => {
    it('answers a preflight from an allowed origin and lets the page read answers and the session id', async () => {
      const t = await start();
      const origin = 'http://localhost:6274';
      const preflight = await t.fetch(
        new Request(t.url, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
      const init = await post(t, INITIALIZE, { origin });
      expect(init.status).toBe(200);
      expect(init.headers.get('access-control-allow-origin')).toBe(origin);
      expect(init.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
      expect((await json(init)).result.protocolVersion).toBe('2025-11-25');
      const modern = await modernPost(t, 'server/discover', {}, { origin });
      expect(modern.headers.get('access-control-allow-origin')).toBe(origin);
      await modern.body?.cancel();
    });

    it('sends no CORS headers without an Origin, and refuses a preflight from a foreign one', async () => {
      const t = await start();
      const plain = await post(t, INITIALIZE);
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      await plain.body?.cancel();
      expect((await t.fetch(new Request(t.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com' } }))).status).toBe(403);
      expect((await t.fetch(new Request(t.url, { method: 'OPTIONS' }))).status).toBe(405);
    });
  });

  describe('bearer token', () => {
    it('answers 401 with a resource_metadata challenge until the right token comes', async () => {
      const t = await start({ authToken: 's3cret-token', authorizationServers: ['https://auth.example.com'] });
      const none = await post(t, INITIALIZE);
      expect(none.status).toBe(401);
      const challenge = none.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
      await none.body?.cancel();
      const wrong = await post(t, INITIALIZE, { authorization: 'Bearer s3cret-tokeN' });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await wrong.body?.cancel();
      expect((await post(t, INITIALIZE, { authorization: 'Basic czNjcmV0LXRva2Vu' })).status).toBe(401);
      const right = await post(t, INITIALIZE, { authorization: 'Bearer s3cret-token' });
      expect(right.status).toBe(200);
      await right.body?.cancel();
      const modern = await modernPost(t, 'server/discover', {}, { authorization: 'bearer s3cret-token' });
      expect(modern.status).toBe(200);
      await modern.body?.cancel();
    });

    it('serves Protected Resource Metadata (RFC 9728) at both well-known paths without a token', async () => {
      const t = await start({ authToken: 'token', authorizationServers: ['https://auth.example.com'] });
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const response = await t.fetch(new Request(new URL(path, t.url)));
        expect(response.status, path).toBe(200);
        const document = await json(response);
        expect(document).toMatchObject({
          resource: new URL('/mcp', t.url).href,
          authorization_servers: ['https://auth.example.com'],
          bearer_methods_supported: ['header'],
        });
      }
    });

    it('with a static token and no authorization server, asks for the bearer token and points to no metadata', async () => {
      const t = await start({ authToken: 's3cret-token' });
      const none = await post(t, INITIALIZE);
      expect(none.status).toBe(401);
      // No resource_metadata: a metadata document would have to name an authorization server, and there is none.
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
      expect((await json(none)).error).toMatchObject({ message: 'Unauthorized: a valid bearer token is required' });
      const wrong = await post(t, INITIALIZE, { authorization: 'Bearer s3cret-tokeN' });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_token"');
      await wrong.body?.cancel();
      // What an OAuth client probes when there is no metadata (the MCP server's origin as its own
      // authorization server, as in 2025-03-26): 404s that say what to do instead.
      for (const [method, path] of [
        ['GET', '/.well-known/oauth-protected-resource'],
        ['GET', '/.well-known/oauth-protected-resource/mcp'],
        ['GET', '/.well-known/oauth-authorization-server'],
        ['POST', '/register'],
      ] as const) {
        const response = await t.fetch(new Request(new URL(path, t.url), { method }));
        expect(response.status, path).toBe(404);
        expect((await json(response)).error.message, path).toBe(
          'Not Found: this server runs no OAuth authorization server; send its static token as Authorization: Bearer <token>',
        );
      }
      const right = await post(t, INITIALIZE, { authorization: 'Bearer s3cret-token' });
      expect(right.status).toBe(200);
      await right.body?.cancel();
    });

    it('has no metadata document when no token is configured', async () => {
      const t = await start();
      expect((await t.fetch(new Request(new URL('/.well-known/oauth-protected-resource', t.url)))).status).toBe(404);
    });
  });

  describe('bodies and media types', () => {
    it('answers malformed JSON with 400 -32700 and id null', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectHttpError(await post(t, '{"jsonrpc":"2.0", "id": 1,'), 400, -32700);
      await expectHttpError(await post(t, Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1')), 400, -32700);
    });

    it('answers a batch with 400 -32600', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectHttpError(await post(t, [INITIALIZE]), 400, -32600);
    });

    it('answers a body over maxBodyBytes with 413', { tags: ['schema'] }, async () => {
      const t = await start({ maxBodyBytes: 1024 });
      const big = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(2048) } };
      await expectHttpError(await post(t, big), 413, -32600);
      const ok = await post(t, INITIALIZE);
      expect(ok.status).toBe(200);
      await ok.body?.cancel();
    });

    it('answers a wrong Content-Type with 415, an unusable Accept with 406, other methods with 405', { tags: ['schema'] }, async () => {
      const t = await start();
      await expectHttpError(await post(t, INITIALIZE, { 'content-type': 'text/plain' }), 415, -32600);
      await expectHttpError(await post(t, INITIALIZE, { accept: 'text/html' }), 406, -32600);
      await expectHttpError(await t.fetch(new Request(t.url, { method: 'PUT', body: '{}' })), 405, -32600);
      await expectHttpError(await t.fetch(new Request(new URL('/elsewhere', t.url), { method: 'POST', body: '{}' })), 404, -32600);
    });
  });

  describe('shutdown', () => {
    it('ends the GET stream, lets a request in flight finish, then refuses work', async () => {
      const fixture = createFixture();
      const t = await makeTarget(fixture.server, { keepAliveMs: 0 });
      target = t;
      const init = await post(t, INITIALIZE);
      const session = init.headers.get('mcp-session-id') as string;
      await init.body?.cancel();
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      const stream = new SseReader(await t.fetch(new Request(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } })));
      const inFlight = post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'gated' } }, headers);
      await eventually(() => fixture.started.includes('gated'));
      const closing = t.close();
      target = undefined;
      await stream.toEnd();
      fixture.release();
      const answer = await json(await inFlight);
      expect(answer.result.messages[0].content.text).toBe('released');
      await closing;
      const after = await post(t, INITIALIZE).catch((error: unknown) => error);
      // In-process the handler answers 503; the node server no longer accepts connections.
      if (after instanceof Response) expect(after.status).toBe(503);
      else expect(after).toBeInstanceOf(Error);
    });
  });
}
