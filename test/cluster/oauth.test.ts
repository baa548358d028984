/**
 * A legacy session under OAuth, shared by three replicas through a real
 * Redis and nginx: the replicas run `serve --auth-issuer` against the real
 * OpenID provider of the auth tests (oidc-provider in this process, JWTs and
 * introspected opaque tokens). A session opened on one replica belongs to
 * who opened it (its token's client and subject) on every replica: another
 * caller's token naming it gets 404 for POST, GET and DELETE wherever it
 * lands, directly or through the balancer, and the session lives on for
 * its owner, who can end it from yet another replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSend } from '../_http-client.js';
import { initializeParams } from '../_wire.js';
import { type Issuer, RS_CLIENT, startIssuer } from '../transport/http/auth/_issuer.js';
import { type Cluster, startCluster } from './_cluster.js';

/** The audience every replica asks of a token: the one public URL a deployment has. */
const AUDIENCE = 'https://skills.example/mcp';
const SECRET_VARIABLE = 'SKILLPORT_TEST_INTROSPECTION_SECRET';

let issuer: Issuer;
let cluster: Cluster;

beforeAll(async () => {
  issuer = await startIssuer();
  cluster = await startCluster({
    args: () => [
      '--auth-issuer',
      issuer.url,
      '--auth-audience',
      AUDIENCE,
      '--auth-introspection',
      `${issuer.url}/token/introspection`,
      '--auth-client-id',
      RS_CLIENT.id,
      '--auth-client-secret-env',
      SECRET_VARIABLE,
    ],
    env: { [SECRET_VARIABLE]: RS_CLIENT.secret },
  });
});
afterAll(async () => {
  await cluster?.stop();
  await issuer?.stop();
});

/** One legacy request to `url` with `token`, answered whole. */
async function send(url: string, token: string, method: string, body?: unknown, session?: string) {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (session !== undefined) headers['Mcp-Session-Id'] = session;
  return httpSend(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), agent: false });
}

const LIST = { jsonrpc: '2.0', id: 2, method: 'prompts/list' };

describe('a session under OAuth across replicas', () => {
  it.each([
    ['two subjects (JWTs)', 'team-a', 'team-b'],
    ['two clients without sub (introspected opaque tokens)', 'opaque', 'opaque-b'],
  ])('belongs to who opened it on every replica: %s', async (_name, ownerClient, otherClient) => {
    const owner = await issuer.token(ownerClient, AUDIENCE, 'skills:read');
    const other = await issuer.token(otherClient, AUDIENCE, 'skills:read');
    const [first, second, third] = cluster.replicas.map((replica) => replica.url) as [string, string, string];

    const opened = await send(first, owner, 'POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    expect(session).toBeTruthy();
    expect((await send(first, owner, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

    // Another caller, on the replicas that did not open it and through the balancer (to the replica the session id hashes to).
    for (const url of [second, third]) {
      expect((await send(url, other, 'POST', LIST, session)).status, url).toBe(404);
      expect((await send(url, other, 'GET', undefined, session)).status, url).toBe(404);
      expect((await send(url, other, 'DELETE', undefined, session)).status, url).toBe(404);
    }
    for (let i = 0; i < 3; i++) {
      expect((await send(cluster.nginx.url, other, 'POST', LIST, session)).status).toBe(404);
      expect((await send(cluster.nginx.url, other, 'DELETE', undefined, session)).status).toBe(404);
    }

    // The owner still has it anywhere, and ends it from a replica that did not open it.
    const listed = await send(third, owner, 'POST', LIST, session);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).result.prompts.length).toBeGreaterThan(0);
    expect((await send(second, owner, 'DELETE', undefined, session)).status).toBe(204);
    expect((await send(first, owner, 'POST', LIST, session)).status).toBe(404);
  });
});
