/**
 * A real OpenID provider (`oidc-provider`, certified) in this process on
 * 127.0.0.1, as the authorization server of the auth tests: client
 * credentials with resource indicators (RFC 8707) issue JWT access tokens
 * signed RS256 with a key the test holds, or opaque ones for the `opaque`
 * client, which its RFC 7662 endpoint answers for the `skillport` client.
 * It can be stopped and started again on the same port (the authorization
 * server going down). Tokens the provider would never issue (expired,
 * another issuer, `alg: none`…) are signed here with its own key, and its
 * introspection answers can be rewritten or held on their way out
 * (`introspection`), to show what the resource server does with an answer
 * the provider would not give.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export const SCOPES = ['skills:read', 'team:a', 'team:b'];
export const RS_CLIENT = { id: 'skillport', secret: 'skillport-introspection-secret-0123456789' };

export interface Issuer {
  readonly url: string;
  /** The provider's signing key (private), to sign tokens it would not issue. */
  readonly key: Key;
  readonly kid: string;
  readonly publicJwk: JWK;
  /** A token from the token endpoint through client credentials. */
  token(client: string, resource: string, scope: string): Promise<string>;
  /** Revokes a token (RFC 7009). */
  revoke(client: string, token: string): Promise<void>;
  /** A JWT with these claims over the provider's key, or other header fields. */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>, key?: Key): Promise<string>;
  /**
   * Rotates the signing key: a new key signs from now on, the old one stays
   * published (the provider's state starts afresh).
   */
  rotate(): Promise<void>;
  /** Requests the server took, by path (to see what skillport asked). */
  readonly hits: string[];
  /** Answers the introspection endpoint through `override` from now on; undefined: the provider answers. */
  introspection(override: IntrospectionOverride | undefined): void;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** What the introspection endpoint sends: a status and a body. */
export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Answers the introspection endpoint instead of the provider, given the
 * provider's own answer (its JSON, asked for only when called).
 */
export type IntrospectionOverride = (real: () => Promise<Record<string, unknown>>) => Promise<RawAnswer>;

/**
 * Client id → its secret; `opaque` and `opaque-b` get opaque tokens, whose
 * introspection answers name the client and no subject (`sub`), as
 * oidc-provider answers for client credentials (its JWTs say `sub` = the client id).
 */
export const CLIENTS: Record<string, string> = {
  'team-a': 'team-a-secret',
  'team-b': 'team-b-secret',
  opaque: 'opaque-secret',
  'opaque-b': 'opaque-b-secret',
  noscope: 'noscope-secret',
};

const INTROSPECTION = '/token/introspection';
/** Marks the override's own request to the provider, which is answered by the provider. */
const REAL = 'x-issuer-real';

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export async function startIssuer(): Promise<Issuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'issuer-key-1';
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const hits: string[] = [];
  const box: { handle?: (req: IncomingMessage, res: ServerResponse) => void; override?: IntrospectionOverride | undefined } = {};
  /** The provider's own answer to the introspection request `body` with `authorization`. */
  const realAnswer = (authorization: string, body: string) => async () => {
    const response = await fetch(`${url}${INTROSPECTION}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', [REAL]: '1' },
      body,
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.headers[REAL] === undefined) hits.push(path);
    const override = box.override;
    if (path !== INTROSPECTION || !override || req.headers[REAL] !== undefined) {
      box.handle?.(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      override(realAnswer(req.headers.authorization ?? '', Buffer.concat(chunks).toString()))
        .then((answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(answer.body);
        })
        .catch(() => res.destroy());
    });
  };
  let server = createServer(serve);
  const port = await listen(server, 0);
  const url = `http://127.0.0.1:${port}`;
  const clients = Object.entries(CLIENTS).map(([id, secret]) => ({
    client_id: id,
    client_secret: secret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    scope: id === 'noscope' ? 'team:a' : SCOPES.join(' '),
  }));
  clients.push({ client_id: RS_CLIENT.id, client_secret: RS_CLIENT.secret, grant_types: [], redirect_uris: [], response_types: [] } as never);
  const provider = (keys: unknown[]) =>
    new Provider(url, {
      clients,
      scopes: SCOPES,
      jwks: { keys },
      cookies: { keys: ['test-cookie-key-not-a-secret'] },
      ttl: { ClientCredentials: 600 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: async () => true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as never,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => ({
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: client.clientId.startsWith('opaque') ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
    } as never);
  box.handle = provider([jwk]).callback() as never;
  let signing = { key: privateKey, kid };

  async function tokenRequest(client: string, body: Record<string, string>, path: string): Promise<Response> {
    const secret = CLIENTS[client] ?? '';
    return fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: basic(client, secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
  }

  return {
    url,
    key: privateKey,
    kid,
    publicJwk,
    hits,
    introspection(override) {
      box.override = override;
    },
    async token(client, resource, scope) {
      const response = await tokenRequest(client, { grant_type: 'client_credentials', resource, scope }, '/token');
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`no token: ${body.error} ${body.error_description}`);
      return body.access_token;
    },
    async revoke(client, token) {
      const response = await tokenRequest(client, { token }, '/token/revocation');
      if (response.status !== 200) throw new Error(`revocation answered ${response.status}`);
    },
    sign(claims, header = {}, key = signing.key) {
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signing.kid, typ: 'at+jwt', ...header } as never).sign(key);
    },
    async rotate() {
      const next = await generateKeyPair('RS256', { extractable: true });
      const nextKid = `issuer-key-${Date.now()}`;
      box.handle = provider([{ ...(await exportJWK(next.privateKey)), kid: nextKid, alg: 'RS256', use: 'sig' }, jwk]).callback() as never;
      signing = { key: next.privateKey, kid: nextKid };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      server = createServer(serve);
      await listen(server, port);
    },
  };
}
