/**
 * The AuthGate (src/transport/http/auth/gate.ts) alone: one `admit` for no
 * protection, the static token and OAuth, with the routes and the 404 detail
 * each brings. The OAuth resource server against a real issuer:
 * refusals.test.ts and the rest of this folder.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HttpReply } from '../../../../src/http.js';
import { silentLogger } from '../../../../src/index.js';
import { type Admission, createAuthGate } from '../../../../src/transport/http/auth/gate.js';
import { NO_AUTHORIZATION_SERVER } from '../../../../src/transport/http/auth/static-token.js';
import { fakeRequest } from '../_request.js';

const ISSUER = 'https://issuer.example';
const INTROSPECT = `${ISSUER}/introspect`;

function replyOf(admission: Admission): HttpReply {
  if (!('reply' in admission)) throw new Error(`admitted: ${JSON.stringify(admission)}`);
  return admission.reply;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AuthGate', () => {
  it('admits every request, at once and without a principal, when nothing protects the endpoint', () => {
    const gate = createAuthGate({}, '/mcp', 'srv', silentLogger);
    expect(gate.admit(fakeRequest('/mcp'))).toEqual({ principal: undefined });
    expect(gate.routes).toEqual([]);
    expect(gate.notFoundDetail).toBeUndefined();
  });

  it('admits the static token at once and refuses anything else with 401 and a bearer challenge', () => {
    const gate = createAuthGate({ authToken: 'secret' }, '/mcp', 'srv', silentLogger);
    expect(gate.admit(fakeRequest('/mcp', { headers: bearer('secret') }))).toEqual({ principal: undefined });
    const missing = replyOf(gate.admit(fakeRequest('/mcp')) as Admission);
    expect(missing.status).toBe(401);
    expect(missing.headers['WWW-Authenticate']).toBe('Bearer realm="mcp"');
    const wrong = replyOf(gate.admit(fakeRequest('/mcp', { headers: bearer('guess') })) as Admission);
    expect(wrong.headers['WWW-Authenticate']).toBe('Bearer realm="mcp", error="invalid_token"');
    // No authorization server: no metadata document, and a 404 that says to send the token.
    expect(gate.routes).toEqual([]);
    expect(gate.notFoundDetail).toBe(NO_AUTHORIZATION_SERVER);
  });

  it('brings the metadata routes with a static token whose authorization servers are named', async () => {
    const gate = createAuthGate({ authToken: 'secret', authorizationServers: ['https://as.example'] }, '/mcp', 'srv', silentLogger);
    expect(gate.routes.map((route) => [route.path, route.access])).toEqual([
      ['/.well-known/oauth-protected-resource', 'guarded'],
      ['/.well-known/oauth-protected-resource/mcp', 'guarded'],
    ]);
    const document = await gate.routes[0]?.answer(fakeRequest('/.well-known/oauth-protected-resource', { method: 'GET' }), undefined);
    expect(JSON.parse(String(document?.body))).toMatchObject({ resource: 'http://localhost/mcp', authorization_servers: ['https://as.example'] });
    const refused = replyOf(gate.admit(fakeRequest('/mcp')) as Admission);
    expect(refused.headers['WWW-Authenticate']).toBe('Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"');
    expect(gate.notFoundDetail).toBeUndefined();
  });

  it('refuses a static token and OAuth together', () => {
    expect(() => createAuthGate({ authToken: 'secret', oauth: { issuer: ISSUER } }, '/mcp', 'srv', silentLogger)).toThrow(/exclude each other/);
  });

  describe('under OAuth, through the same admit', () => {
    /** The introspection endpoint answers `claims` for every token. */
    function introspectionAnswers(claims: Record<string, unknown>): void {
      vi.stubGlobal('fetch', async (url: string) => {
        expect(url).toBe(INTROSPECT);
        return Response.json(claims);
      });
    }
    const options = { oauth: { issuer: ISSUER, scopes: ['skills:read'], introspection: { endpoint: INTROSPECT, clientId: 'rs', clientSecret: 's' } } };

    it('admits a good token with the principal its claims name', async () => {
      introspectionAnswers({ active: true, iss: ISSUER, aud: 'http://localhost/mcp', sub: 'alice', client_id: 'app', scope: 'skills:read other' });
      const gate = createAuthGate(options, '/mcp', 'srv', silentLogger);
      const admission = await gate.admit(fakeRequest('/mcp', { headers: bearer('opaque-1') }));
      expect(admission).toEqual({ principal: { subject: 'alice', client: 'app', scopes: ['skills:read', 'other'], audiences: ['skills:read', 'other'] } });
      expect(gate.routes.map((route) => route.path)).toEqual(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']);
    });

    it('refuses a token for another resource (401) and one without the scope (403)', async () => {
      introspectionAnswers({ active: true, aud: 'https://elsewhere.example/mcp', sub: 'alice' });
      const elsewhere = replyOf(await createAuthGate(options, '/mcp', 'srv', silentLogger).admit(fakeRequest('/mcp', { headers: bearer('opaque-2') })));
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.headers['WWW-Authenticate']).toContain('error_description="the access token was issued for another resource"');
      introspectionAnswers({ active: true, aud: 'http://localhost/mcp', sub: 'alice', scope: 'other' });
      const narrow = replyOf(await createAuthGate(options, '/mcp', 'srv', silentLogger).admit(fakeRequest('/mcp', { headers: bearer('opaque-3') })));
      expect(narrow.status).toBe(403);
      expect(narrow.headers['WWW-Authenticate']).toContain('error="insufficient_scope"');
    });

    it('challenges a request without a token, naming the metadata and the scopes', async () => {
      const gate = createAuthGate(options, '/mcp', 'srv', silentLogger);
      const refused = replyOf(await gate.admit(fakeRequest('/mcp')));
      expect(refused.status).toBe(401);
      expect(refused.headers['WWW-Authenticate']).toBe(
        'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="skills:read"',
      );
    });
  });
});
