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
 * JWT tokens are checked here (jwt.ts, keys.ts), opaque ones by
 * introspection (introspection.ts). jose is loaded on the first token, so a
 * server without OAuth never loads it. Tokens are never logged or echoed.
 */

import { ErrorCode } from '../../../jsonrpc/errors.js';
import { type Logger, type Principal, silentLogger } from '../../../server/index.js';
import { challenge, protectedResourceMetadata } from '../auth.js';
import { type Rejection, Rejections, reject } from '../errors.js';
import { HEADER } from '../headers.js';
import type { HttpReply, HttpRequest } from '../request.js';
import { AuthUnavailableError, createDiscovery } from './discovery.js';
import { createIntrospection, type Introspect } from './introspection.js';
import { ASYMMETRIC_ALGORITHMS, looksLikeJwt, verifyJwt } from './jwt.js';
import { createKeySource, type GetKey } from './keys.js';
import { type OAuthOptions, readScopes } from './oauth-options.js';
import { createOutageLog } from './outage-log.js';

type Jose = typeof import('jose');

/** What the gate decided for a request. */
export type Admission = { principal: Principal } | { reply: HttpReply };

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

const Forbidden: Rejection = { status: 403, code: ErrorCode.InvalidRequest, message: 'Forbidden: the access token lacks a required scope' };
const TokenInQuery: Rejection = {
  status: 400,
  code: ErrorCode.InvalidRequest,
  message: 'Bad Request: access tokens are accepted only in the Authorization header',
};
const Unavailable: Rejection = {
  status: 503,
  code: ErrorCode.InternalError,
  message: 'Service Unavailable: the authorization server cannot be reached to check the token; retry shortly',
};

/** Why a token was refused, in words safe to send back (RFC 6750 §3 `error_description`). */
class BadToken extends Error {}

/** jose's error codes, in words; anything else is "not valid". */
function describe(error: unknown): string {
  const { code, claim } = error as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the access token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'nbf' || claim === 'iat') return 'the access token is not valid yet';
      if (claim === 'aud') return 'the access token was issued for another resource';
      if (claim === 'iss') return 'the access token was issued by another authorization server';
      return 'the access token lacks a required claim';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'the access token is signed with an algorithm this server does not accept';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'the access token is signed with an unknown key';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the access token signature does not verify';
    default:
      return 'the access token is not valid';
  }
}

function audiences(value: unknown): string[] {
  return typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A claim's values: a list of strings, or one string of space-separated values (as `scope` is). */
function values(claim: unknown): string[] {
  return typeof claim === 'string' ? claim.split(' ').filter(Boolean) : audiences(claim);
}

/** A claim that is a non-empty string, or undefined. */
const named = (claim: unknown): string | undefined => (typeof claim === 'string' && claim !== '' ? claim : undefined);

/**
 * The principal of verified claims: its subject (`sub`) and client
 * (`client_id`, RFC 9068 §2.2 and RFC 7662 §2.2, else OpenID's `azp`), the
 * scopes of `scope` (RFC 9068 §2.2.3, RFC 7662 §2.2) or the common `scp`
 * list, and its audiences, the values of `audienceClaim` or else its scopes.
 *
 * What a caller opens (a 2025 session, a 2026 requestState) is bound to its
 * client and subject together (core/context.ts `principalId`). A token that
 * names neither could be anyone's (RFC 7662 makes both optional; RFC 9068
 * requires both in a JWT): it is refused, rather than admitted as a caller
 * every other such token would be. The issuer is not part of it: only the
 * configured one's tokens are accepted.
 */
function principalOf(claims: Record<string, unknown>, audienceClaim: string | undefined): Principal {
  const scopes = values(claims.scope ?? claims.scp);
  const subject = named(claims.sub);
  const client = named(claims.client_id) ?? named(claims.azp);
  if (subject === undefined && client === undefined) throw new BadToken('the access token names neither a subject nor a client');
  return {
    ...(subject !== undefined ? { subject } : {}),
    ...(client !== undefined ? { client } : {}),
    scopes,
    audiences: audienceClaim === undefined ? scopes : values(claims[audienceClaim]),
  };
}

/** The audience as a URL, when it is an http(s) one. */
function canonicalUrl(audience: string | undefined): URL | undefined {
  if (audience === undefined || !URL.canParse(audience)) return undefined;
  const url = new URL(audience);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

export function createOAuthGate(options: OAuthOptions, logger: Logger = silentLogger): OAuthGate {
  const issuer = options.issuer;
  const required = readScopes(options.scopes);
  const algorithms = options.algorithms ?? ASYMMETRIC_ALGORITHMS;
  for (const alg of algorithms) {
    if (!ASYMMETRIC_ALGORITHMS.includes(alg)) throw new TypeError(`oauth.algorithms: ${alg} is not an asymmetric JWS algorithm`);
  }
  const leewaySeconds = options.leewaySeconds ?? 30;
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
    outage: createOutageLog(logger, `the authorization server's metadata (${issuer})`),
  });
  const introspect: Introspect | undefined = options.introspection
    ? createIntrospection({
        ...options.introspection,
        timeoutMs,
        cacheMs: options.introspectionCacheMs ?? 30_000,
        maxEntries: 10_000,
        maxInFlight: 32,
        now,
        outage: createOutageLog(logger, `the authorization server's introspection endpoint (${options.introspection.endpoint})`),
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
        { timeoutMs, cooldownMs: keyCooldownMs, maxAgeMs: 10 * 60_000, now, outage: createOutageLog(logger, "the authorization server's key set") },
      );
      return { jose, keys };
    });
    return tools;
  }

  // A configured audience that is an http(s) URL is this endpoint's canonical URL (RFC 8707
  // §2): the metadata and the challenge name it, so clients behind a TLS-terminating proxy ask
  // for tokens for the URL they use, not the one this process sees.
  const canonical = canonicalUrl(options.audience);
  function challengeHeader(endpoint: URL, error?: string, description?: string): Record<string, string> {
    return { [HEADER.wwwAuthenticate]: challenge(endpoint, error, { scope: required, description }) };
  }

  async function claimsOf(token: string, audience: string): Promise<Record<string, unknown>> {
    if (token.length > MAX_TOKEN_LENGTH) throw new BadToken('the access token is too long');
    if (looksLikeJwt(token)) {
      const { jose, keys } = await jwtTools();
      try {
        return await verifyJwt(jose, token, keys, { issuer, audience, algorithms, leewaySeconds });
      } catch (error) {
        if (error instanceof AuthUnavailableError) throw error;
        throw new BadToken(describe(error));
      }
    }
    if (!introspect) throw new BadToken('the access token is not valid');
    const claims = await introspect(token);
    if (!claims) throw new BadToken('the access token is not active');
    // RFC 7662 §4: the resource server checks what the answer says applies to it.
    const seconds = now() / 1000;
    if (typeof claims.exp === 'number' && claims.exp + leewaySeconds <= seconds) throw new BadToken('the access token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf - leewaySeconds > seconds) throw new BadToken('the access token is not valid yet');
    if (claims.iss !== undefined && claims.iss !== issuer) throw new BadToken('the access token was issued by another authorization server');
    if (!audiences(claims.aud).includes(audience)) throw new BadToken('the access token was issued for another resource');
    return claims;
  }

  return {
    async admit(request, seen) {
      const endpoint = canonical ?? seen;
      if (request.search && new URLSearchParams(request.search).has('access_token')) {
        return { reply: reject(TokenInQuery, null, challengeHeader(endpoint, 'invalid_request')) };
      }
      const authorization = request.headers.get(HEADER.authorization);
      // No credentials of this scheme: a plain challenge, no error code (RFC 6750 §3.1).
      if (authorization === null || !/^Bearer(\s|$)/i.test(authorization.trimStart())) {
        return { reply: reject(Rejections.Unauthorized, null, challengeHeader(endpoint)) };
      }
      const token = BEARER.exec(authorization.trim())?.[1];
      try {
        if (token === undefined) throw new BadToken('the Authorization header is not a bearer token');
        const principal = principalOf(await claimsOf(token, options.audience ?? `${endpoint.origin}${endpoint.pathname}`), options.audienceClaim);
        const missing = required.filter((scope) => !principal.scopes.includes(scope));
        // Every scope the endpoint needs, not only the missing ones (2025-11-25 §Scope Challenge Handling).
        if (missing.length) return { reply: reject(Forbidden, null, challengeHeader(endpoint, 'insufficient_scope')) };
        return { principal };
      } catch (error) {
        if (error instanceof BadToken) return { reply: reject(Rejections.Unauthorized, null, challengeHeader(endpoint, 'invalid_token', error.message)) };
        if (error instanceof AuthUnavailableError) return { reply: reject(Unavailable, null, { 'Retry-After': '5' }) };
        throw error;
      }
    },
    metadata(seen, name) {
      const endpoint = canonical ?? seen;
      return protectedResourceMetadata(endpoint, [issuer], name, required);
    },
  };
}
