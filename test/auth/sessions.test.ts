/**
 * 2025 sessions under OAuth are bound to the subject of the token that
 * opened them (2025-06-18 basic/security_best_practices §Session Hijacking):
 * another subject's token naming the session id gets 404, as for a session
 * that does not exist, on POST, GET and DELETE; the owner keeps using it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeParams } from '../_wire.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({ issuer: issuer.url });
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

describe('a session and the subject that opened it', () => {
  it('is not found under another subject, and keeps working for its owner', async () => {
    const alice = await issuer.token('team-a', served.url, 'skills:read');
    const bob = await issuer.token('team-b', served.url, 'skills:read');
    const opened = await send(alice, 'POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id') as string;
    expect(session).toBeTruthy();
    await opened.text();
    expect((await send(alice, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

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
