/**
 * skillport as an OAuth 2.1 resource server (MCP basic/authorization, the
 * same on 2025-06-18, 2025-11-25 and 2026-07-28): every request to the MCP
 * endpoint carries an access token the configured authorization server
 * issued for this server; the answers to one that does not are the spec's:
 *
 * - no token: 401 with `WWW-Authenticate: Bearer resource_metadata=…,
 *   scope=…` (RFC 9728 §5.1; the scope per 2025-11-25 §Scope Selection);
 * - a bad token: the same with `error="invalid_token"` (RFC 6750 §3.1);
 * - a good token without every required scope: 403
 *   `error="insufficient_scope"` naming all of them (2025-11-25 §Scope
 *   Challenge Handling);
 * - a token in the query string: 400 (§Access Token Usage: MUST NOT);
 * - the authorization server unreachable and nothing cached to check with:
 *   503 with Retry-After, since the token may well be good.
 *
 * JWT tokens are verified by jwt.ts (keys.ts), opaque ones asked about by
 * introspection (introspection.ts); the claims of both pass the same rules
 * (claims.ts). jose is loaded on the first token, so a server without OAuth
 * never loads it. Tokens are never logged or echoed. The handler reaches
 * this through the AuthGate (gate.ts).
 */

import { ErrorCode } from '../../../jsonrpc/errors.js';
import { type Logger, type Principal, silentLogger } from '../../../server/index.js';
import type { DependencyStatus } from '../../../telemetry/dependencies.js';
import { type Rejection, Rejections, reject } from '../errors.js';
import { HEADER } from '../headers.js';
import type { HttpRequest } from '../request.js';
import type { Admission } from './admission.js';
import { BadToken, type ClaimContext, lacksScope, principalOf } from './claims.js';
import { AuthUnavailableError, createDiscovery } from './discovery.js';
import { createIntrospection, type Introspect } from './introspection.js';
import { ASYMMETRIC_ALGORITHMS, looksLikeJwt, verifyJwt } from './jwt.js';
import { createKeySource, type GetKey } from './keys.js';
import { challenge, protectedResourceMetadata } from './metadata.js';
import { type OAuthOptions, readScopes } from './oauth-options.js';
import { createOutageLog } from './outage-log.js';

type Jose = typeof import('jose');

export interface OAuthGate {
  /** Checks the request's token for the MCP endpoint at `endpoint`. Never rejects. */
  admit(request: HttpRequest, endpoint: URL): Promise<Admission>;
  /** The Protected Resource Metadata document for `endpoint` (RFC 9728 §2). */
  metadata(endpoint: URL, name: string): Record<string, unknown>;
}

/** Longest token looked at; anything longer is refused unread (a JWT of a few KB is already large). */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** RFC 6750 §2.1 `b64token`. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const Forbidden: Rejection = {
  status: 403,
  reason: 'auth_scope',
  code: ErrorCode.InvalidRequest,
  message: 'Forbidden: the access token lacks a required scope',
};
const TokenInQuery: Rejection = {
  status: 400,
  reason: 'auth',
  code: ErrorCode.InvalidRequest,
  message: 'Bad Request: access tokens are accepted only in the Authorization header',
};
const Unavailable: Rejection = {
  status: 503,
  reason: 'auth_unavailable',
  code: ErrorCode.InternalError,
  message: 'Service Unavailable: the authorization server cannot be reached to check the token; retry shortly',
};

/** The audience as a URL, when it is an http(s) one. */
function canonicalUrl(audience: string | undefined): URL | undefined {
  if (audience === undefined || !URL.canParse(audience)) return undefined;
  const url = new URL(audience);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** What the gate's checks share: the options read once, and the ways to the authorization server. */
interface GateState {
  readonly options: OAuthOptions;
  readonly required: readonly string[];
  readonly algorithms: readonly string[];
  readonly leewaySeconds: number;
  readonly introspect: Introspect | undefined;
  /** jose and the key set, loaded on the first JWT. */
  jwtTools(): Promise<{ jose: Jose; keys: GetKey }>;
}

export function createOAuthGate(options: OAuthOptions, logger: Logger = silentLogger, status?: DependencyStatus): OAuthGate {
  const state = readGateOptions(options, logger, status);
  // A configured audience that is an http(s) URL is this endpoint's canonical URL (RFC 8707
  // §2): the metadata and the challenge name it, so clients behind a TLS-terminating proxy ask
  // for tokens for the URL they use, not the one this process sees.
  const canonical = canonicalUrl(options.audience);
  return {
    admit: (request, seen) => admit(state, request, canonical ?? seen),
    metadata(seen, name) {
      const endpoint = canonical ?? seen;
      return protectedResourceMetadata(endpoint, [options.issuer], name, state.required);
    },
  };
}

/** The options checked, and the discovery, key set and introspection they call for. */
function readGateOptions(options: OAuthOptions, logger: Logger, status: DependencyStatus | undefined): GateState {
  const issuer = options.issuer;
  const algorithms = options.algorithms ?? ASYMMETRIC_ALGORITHMS;
  for (const alg of algorithms) {
    if (!ASYMMETRIC_ALGORITHMS.includes(alg)) throw new TypeError(`oauth.algorithms: ${alg} is not an asymmetric JWS algorithm`);
  }
  const timeoutMs = options.timeoutMs ?? 5000;
  const now = Date.now;
  const keyCooldownMs = options.keyCooldownMs ?? 30_000;
  // A failed lookup of the metadata is retried no more often than the keys are.
  // Each part the authorization server serves says its outages (and their end) once (outage-log.ts).
  const discover = createDiscovery(issuer, {
    timeoutMs,
    retryMs: Math.min(5000, keyCooldownMs),
    maxAgeMs: 60 * 60_000,
    now,
    outage: createOutageLog(logger, `the authorization server's metadata (${issuer})`, (up) => status?.('auth_metadata', up)),
  });
  const introspect: Introspect | undefined = options.introspection
    ? createIntrospection({
        ...options.introspection,
        timeoutMs,
        cacheMs: options.introspectionCacheMs ?? 30_000,
        maxEntries: 10_000,
        maxInFlight: 32,
        now,
        outage: createOutageLog(logger, `the authorization server's introspection endpoint (${options.introspection.endpoint})`, (up) =>
          status?.('auth_introspection', up),
        ),
      })
    : undefined;
  let tools: Promise<{ jose: Jose; keys: GetKey }> | undefined;
  function jwtTools(): Promise<{ jose: Jose; keys: GetKey }> {
    tools ??= import('jose').then((jose) => {
      const keys = createKeySource(
        jose,
        async () => {
          const uri = (await discover()).jwks_uri;
          if (!uri) throw new AuthUnavailableError('the authorization server publishes no jwks_uri');
          return uri;
        },
        {
          timeoutMs,
          cooldownMs: keyCooldownMs,
          maxAgeMs: 10 * 60_000,
          now,
          outage: createOutageLog(logger, "the authorization server's key set", (up) => status?.('auth_keys', up)),
        },
      );
      return { jose, keys };
    });
    return tools;
  }
  return { options, required: readScopes(options.scopes), algorithms, leewaySeconds: options.leewaySeconds ?? 30, introspect, jwtTools };
}

function challengeHeader(state: GateState, endpoint: URL, error?: string, description?: string): Record<string, string> {
  return { [HEADER.wwwAuthenticate]: challenge(endpoint, error, { scope: state.required, description }) };
}

/** The gate's decision for a request to the endpoint at `endpoint`. */
async function admit(state: GateState, request: HttpRequest, endpoint: URL): Promise<Admission> {
  if (request.search && new URLSearchParams(request.search).has('access_token')) {
    return { reply: reject(TokenInQuery, null, challengeHeader(state, endpoint, 'invalid_request')) };
  }
  const authorization = request.headers.get(HEADER.authorization);
  // No credentials of this scheme: a plain challenge, no error code (RFC 6750 §3.1).
  if (authorization === null || !/^Bearer(\s|$)/i.test(authorization.trimStart())) {
    return { reply: reject(Rejections.Unauthorized, null, challengeHeader(state, endpoint)) };
  }
  const token = BEARER.exec(authorization.trim())?.[1];
  try {
    if (token === undefined) throw new BadToken('the Authorization header is not a bearer token');
    const principal = await principalFor(state, token, state.options.audience ?? `${endpoint.origin}${endpoint.pathname}`);
    // Every scope the endpoint needs, not only the missing ones (2025-11-25 §Scope Challenge Handling).
    if (lacksScope(principal, state.required)) return { reply: reject(Forbidden, null, challengeHeader(state, endpoint, 'insufficient_scope')) };
    return { principal };
  } catch (error) {
    if (error instanceof BadToken) return { reply: reject(Rejections.Unauthorized, null, challengeHeader(state, endpoint, 'invalid_token', error.message)) };
    if (error instanceof AuthUnavailableError) return { reply: reject(Unavailable, null, { 'Retry-After': '5' }) };
    throw error;
  }
}

/** The token's claims, from its signature (a JWT) or the introspection endpoint (an opaque token), through the rules of claims.ts. */
async function principalFor(state: GateState, token: string, audience: string): Promise<Principal> {
  if (token.length > MAX_TOKEN_LENGTH) throw new BadToken('the access token is too long');
  const { issuer, audienceClaim } = state.options;
  if (looksLikeJwt(token)) {
    const { jose, keys } = await state.jwtTools();
    const claims = await verifyJwt(jose, token, keys, state.algorithms);
    return principalOf(claims, 'jwt', context(issuer, audience, state.leewaySeconds), audienceClaim);
  }
  if (!state.introspect) throw new BadToken('the access token is not valid');
  const claims = await state.introspect(token);
  if (!claims) throw new BadToken('the access token is not active');
  return principalOf(claims, 'introspection', context(issuer, audience, state.leewaySeconds), audienceClaim);
}

/** What the claim rules compare with, now (whole seconds, as jose counted). */
function context(issuer: string, audience: string, leewaySeconds: number): ClaimContext {
  return { issuer, audience, leewaySeconds, now: Math.floor(Date.now() / 1000) };
}
