/**
 * 2025 sessions under OAuth are bound to who opened them (2025-06-18
 * basic/security_best_practices §Session Hijacking): the token's client and
 * subject together. Another caller's token naming the session id gets 404,
 * as for a session that does not exist, on POST, GET and DELETE; the owner
 * keeps using it. Tokens without `sub` (a client acting for itself: the
 * introspection answers of client-credentials tokens have none) are told
 * apart by their client; a token that names neither is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeParams } from '../../../_wire.js';
import { type Issuer, RS_CLIENT, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({
    issuer: issuer.url,
    introspection: { endpoint: `${issuer.url}/token/introspection`, clientId: RS_CLIENT.id, clientSecret: RS_CLIENT.secret },
  });
});
afterAll(async () => {
  await served?.close();
  await issuer?.stop();
});

function send(token: string, method: string, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (session) headers['Mcp-Session-Id'] = session;
  return fetch(served.url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

/** A session opened with `owner`'s token, `initialized` sent. */
async function open(owner: string): Promise<string> {
  const opened = await send(owner, 'POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
  expect(opened.status).toBe(200);
  const session = opened.headers.get('mcp-session-id') as string;
  expect(session).toBeTruthy();
  await opened.text();
  expect((await send(owner, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  return session;
}

/** `other` finds nothing of `owner`'s session (POST, GET, DELETE: 404); `owner` uses it, then ends it. */
async function ownedBy(owner: string, other: string): Promise<void> {
  const session = await open(owner);
  const list = { jsonrpc: '2.0', id: 2, method: 'prompts/list' };
  expect((await send(other, 'POST', list, session)).status).toBe(404);
  expect((await send(other, 'GET', undefined, session)).status).toBe(404);
  expect((await send(other, 'DELETE', undefined, session)).status).toBe(404);
  const own = await send(owner, 'POST', list, session);
  expect(own.status).toBe(200);
  await own.text();
  expect((await send(owner, 'DELETE', undefined, session)).status).toBe(204);
}

const now = () => Math.floor(Date.now() / 1000);
/** A JWT the issuer's key signs for this server, with `claims` besides the usual ones. */
const jwt = (claims: Record<string, unknown>) =>
  issuer.sign({ iss: issuer.url, aud: served.url, scope: 'skills:read', iat: now(), exp: now() + 300, ...claims });

describe('a session and the caller that opened it', () => {
  it('is not found under two JWT clients without sub, each acting for itself', async () => {
    await ownedBy(await jwt({ client_id: 'robot-a' }), await jwt({ client_id: 'robot-b' }));
  });

  it('is not found under two opaque tokens of two clients, whose introspection answers have no sub', async () => {
    const a = await issuer.token('opaque', served.url, 'skills:read');
    const b = await issuer.token('opaque-b', served.url, 'skills:read');
    await ownedBy(a, b);
  });

  it('is not found under the same subject through another client', async () => {
    await ownedBy(await jwt({ sub: 'alice', client_id: 'app-one' }), await jwt({ sub: 'alice', client_id: 'app-two' }));
    await ownedBy(await jwt({ sub: 'alice', azp: 'app-one' }), await jwt({ sub: 'alice', azp: 'app-two' }));
  });

  it('refuses a token that names neither a subject nor a client: nothing could own what it opens', async () => {
    const nobody = await jwt({});
    const response = await send(nobody, 'POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('is not found under another subject, and keeps working for its owner', async () => {
    const alice = await issuer.token('team-a', served.url, 'skills:read');
    const bob = await issuer.token('team-b', served.url, 'skills:read');
    const session = await open(alice);
    const list = { jsonrpc: '2.0', id: 2, method: 'prompts/list' };
    const hijack = await send(bob, 'POST', list, session);
    expect(hijack.status).toBe(404);
    expect(((await hijack.json()) as { error: { message: string } }).error.message).toBe('Session not found');
    expect((await send(bob, 'GET', undefined, session)).status).toBe(404);
    expect((await send(bob, 'DELETE', undefined, session)).status).toBe(404);

    const own = await send(alice, 'POST', list, session);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { result: { prompts: unknown[] } }).result.prompts.length).toBeGreaterThan(0);
  });
});
