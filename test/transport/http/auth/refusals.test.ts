/**
 * The resource server's answers, each refusal the issue lists with its exact
 * status and challenge, against tokens from a real OpenID provider
 * (oidc-provider, in this process) or signed with its key: MCP
 * basic/authorization §Token Validation and §Error Handling, RFC 6750 §3,
 * RFC 9728 §5.1, RFC 8707.
 */
import { exportSPKI, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Issuer, RS_CLIENT, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
let metadata: string;
const tokens: string[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({
    issuer: issuer.url,
    scopes: ['skills:read'],
    introspection: { endpoint: `${issuer.url}/token/introspection`, clientId: RS_CLIENT.id, clientSecret: RS_CLIENT.secret },
  });
  metadata = `${new URL(served.url).origin}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(async () => {
  await served?.close();
  await issuer?.stop();
});

/** A token kept, so the log can be searched for it at the end. */
function kept(token: string): string {
  tokens.push(token);
  return token;
}

const now = () => Math.floor(Date.now() / 1000);
function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: issuer.url, aud: served.url, sub: 'someone', scope: 'skills:read', iat: now(), exp: now() + 300, ...overrides };
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refused(token: string | undefined, status: number, challenge: string): Promise<void> {
  const response = await call(served.url, 'prompts/list', {}, token === undefined ? undefined : kept(token));
  expect(response.status).toBe(status);
  expect(response.headers.get('www-authenticate')).toBe(challenge);
  const body = (await response.json()) as { error?: { code: number } };
  expect(body.error?.code).toBe(-32600);
}

const invalid = (description: string) =>
  `Bearer resource_metadata="${metadata}", scope="skills:read", error="invalid_token", error_description="${description}"`;

describe('a token from the authorization server', () => {
  it('is accepted when issued for this server with the required scope (JWT)', async () => {
    const token = kept(await issuer.token('team-a', served.url, 'skills:read team:a'));
    const response = await call(served.url, 'prompts/list', {}, token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { prompts: Array<{ name: string }> } };
    expect(body.result.prompts.length).toBeGreaterThan(0);
  });

  it('is accepted when opaque and active at the introspection endpoint', async () => {
    const token = kept(await issuer.token('opaque', served.url, 'skills:read'));
    expect(token.split('.')).toHaveLength(1);
    expect((await call(served.url, 'prompts/list', {}, token)).status).toBe(200);
  });
});

describe('refusals', () => {
  it('no token: 401 naming the metadata document and the scope, no error code', async () => {
    await refused(undefined, 401, `Bearer resource_metadata="${metadata}", scope="skills:read"`);
  });

  it.each(['2025-06-18', '2025-11-25'])('no token on %s initialize: the same 401 and challenge, before any version rule', async (version) => {
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", scope="skills:read"`);
  });

  it('another scheme than Bearer counts as no token', async () => {
    const response = await call(served.url, 'prompts/list', {}, undefined, { Authorization: 'Basic dXNlcjpwYXNz' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", scope="skills:read"`);
  });

  it('a token issued for another resource (RFC 8707 audience)', async () => {
    await refused(
      await issuer.token('team-a', 'https://elsewhere.example/mcp', 'skills:read'),
      401,
      invalid('the access token was issued for another resource'),
    );
  });

  it('a token from another issuer', async () => {
    await refused(await issuer.sign(claims({ iss: 'https://evil.example' })), 401, invalid('the access token was issued by another authorization server'));
  });

  it('an expired token (past the 30 s leeway)', async () => {
    await refused(await issuer.sign(claims({ iat: now() - 600, exp: now() - 60 })), 401, invalid('the access token has expired'));
  });

  it('a token not valid yet (past the leeway)', async () => {
    await refused(await issuer.sign(claims({ nbf: now() + 120 })), 401, invalid('the access token is not valid yet'));
  });

  it('a token without exp', async () => {
    const { exp: _exp, ...rest } = claims();
    await refused(await issuer.sign(rest), 401, invalid('the access token lacks a required claim'));
  });

  it('alg none', async () => {
    await refused(
      `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`,
      401,
      invalid('the access token is signed with an algorithm this server does not accept'),
    );
  });

  it('HMAC signed with the public key (algorithm confusion)', async () => {
    const pem = await exportSPKI((await importJWK(issuer.publicJwk, 'RS256')) as Parameters<typeof exportSPKI>[0]);
    for (const secret of [pem, JSON.stringify(issuer.publicJwk)]) {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: issuer.kid }).sign(new TextEncoder().encode(secret));
      await refused(token, 401, invalid('the access token is signed with an algorithm this server does not accept'));
    }
  });

  it('an unknown kid, looked up at most once per cooldown however many come', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const before = issuer.hits.filter((path) => path === '/jwks').length;
    for (let i = 0; i < 20; i++) {
      await refused(await issuer.sign(claims(), { kid: `made-up-${i}` }, privateKey), 401, invalid('the access token is signed with an unknown key'));
    }
    expect(issuer.hits.filter((path) => path === '/jwks').length - before).toBeLessThanOrEqual(1);
  });

  it("a token signed with another key under the issuer's kid", async () => {
    const { privateKey } = await generateKeyPair('RS256');
    await refused(await issuer.sign(claims(), {}, privateKey), 401, invalid('the access token signature does not verify'));
  });

  it('a tampered signature or payload', async () => {
    const token = await issuer.token('team-a', served.url, 'skills:read');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const widened = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), scope: 'skills:read team:a team:b' });
    await refused(`${header}.${widened}.${signature}`, 401, invalid('the access token signature does not verify'));
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    await refused(`${header}.${payload}.${flipped}`, 401, invalid('the access token signature does not verify'));
  });

  it('a revoked opaque token', async () => {
    const token = await issuer.token('opaque', served.url, 'skills:read');
    await issuer.revoke('opaque', token);
    await refused(token, 401, invalid('the access token is not active'));
  });

  it('an opaque token for another resource', async () => {
    await refused(
      await issuer.token('opaque', 'https://elsewhere.example/mcp', 'skills:read'),
      401,
      invalid('the access token was issued for another resource'),
    );
  });

  it('a made-up opaque token', async () => {
    await refused('not-a-token-anyone-issued', 401, invalid('the access token is not active'));
  });

  it('a token missing the required scope: 403 insufficient_scope naming every required scope', async () => {
    await refused(
      await issuer.token('noscope', served.url, 'team:a'),
      403,
      `Bearer resource_metadata="${metadata}", scope="skills:read", error="insufficient_scope"`,
    );
  });

  it('a token in the query string: 400, even a good one', async () => {
    const token = kept(await issuer.token('team-a', served.url, 'skills:read'));
    const response = await call(`${served.url}?access_token=${token}`, 'prompts/list', {}, token);
    expect(response.status).toBe(400);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", scope="skills:read", error="invalid_request"`);
  });

  it('authenticates before the 2026-07-28 header checks: no token and no MCP-Protocol-Version is 401, not 400', async () => {
    const response = await call(served.url, 'prompts/list', {}, undefined, { 'MCP-Protocol-Version': '' });
    expect(response.status).toBe(401);
    const token = kept(await issuer.token('team-a', served.url, 'skills:read'));
    const checked = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'prompts/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(checked.status).toBe(400);
    expect(((await checked.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });
});

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('is served at the path-aware and the root well-known URI, naming the issuer and the scopes', async () => {
    const origin = new URL(served.url).origin;
    for (const where of [metadata, `${origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(where);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: served.url,
        authorization_servers: [issuer.url],
        bearer_methods_supported: ['header'],
        scopes_supported: ['skills:read'],
        resource_name: 'auth-test',
      });
    }
  });
});

describe('the log', () => {
  it('never holds a token', () => {
    expect(tokens.length).toBeGreaterThan(10);
    const text = served.log.join('\n');
    for (const token of tokens) expect(text).not.toContain(token);
  });
});
