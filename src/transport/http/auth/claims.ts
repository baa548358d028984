/**
 * The claim rules of an access token, written once for both kinds: a JWT
 * (jwt.ts: jose checks only its signature and the algorithm allow-list) and
 * an introspection answer (introspection.ts). MCP basic/authorization §Token
 * Validation: the resource server checks that the token was issued for it
 * (RFC 8707), by its authorization server, and is valid now; RFC 7662 §4
 * asks the same of what an introspection answer says.
 *
 * A refused token is a {@link BadToken} whose message is sent back as the
 * challenge's `error_description` (RFC 6750 §3): words safe to show, never
 * the token. The words are those jose used for the same checks, so a JWT is
 * described as it was when jose checked its claims.
 */
import type { Principal } from '../../../server/index.js';

/** Why a token was refused, in words safe to send back (RFC 6750 §3 `error_description`). */
export class BadToken extends Error {}

/** Where the claims come from: the two differ only in which claims they must carry. */
export type TokenKind = 'jwt' | 'introspection';

/** What the rules compare the claims with. */
export interface ClaimContext {
  /** The configured authorization server's issuer identifier. */
  readonly issuer: string;
  /** The audience this endpoint answers to (RFC 8707 resource indicator). */
  readonly audience: string;
  /** Clock leeway for the time claims, in seconds. */
  readonly leewaySeconds: number;
  /** The time now, in whole seconds since the epoch. */
  readonly now: number;
}

/** A rule: the refusal's words, or undefined when the claims pass it. */
export type ClaimRule = (claims: Record<string, unknown>, context: ClaimContext) => string | undefined;

const ISSUER = 'the access token was issued by another authorization server';
const RESOURCE = 'the access token was issued for another resource';
const NOT_YET = 'the access token is not valid yet';
const LACKS = 'the access token lacks a required claim';

/**
 * The claims each kind must carry. A JWT access token names its issuer and
 * expiry (RFC 9068 §2.2; one without `exp` is refused); every member of an
 * introspection answer but `active` is optional (RFC 7662 §2.2). Both must
 * name this server as their audience.
 */
const REQUIRED: Record<TokenKind, ReadonlyArray<[claim: string, refusal: string]>> = {
  jwt: [
    ['iss', ISSUER],
    ['aud', RESOURCE],
    ['exp', LACKS],
  ],
  introspection: [['aud', RESOURCE]],
};

/** A time claim, when present, is a number (RFC 7519 §2 NumericDate). */
const numeric =
  (claim: string, refusal: string): ClaimRule =>
  (claims) =>
    claims[claim] !== undefined && typeof claims[claim] !== 'number' ? refusal : undefined;

/** The values of a claim that is a string or a list (`aud`, RFC 7519 §4.1.3), strings only. */
export function audiences(value: unknown): string[] {
  return typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The rules every token's claims pass, in order (the first refusal is the
 * answer). Add a rule here, and it holds for JWT and opaque tokens alike.
 */
export const CLAIM_RULES: readonly ClaimRule[] = [
  // Only the configured authorization server's tokens (RFC 8414 §3.3 checks its metadata names the same issuer).
  (claims, { issuer }) => (claims.iss !== undefined && claims.iss !== issuer ? ISSUER : undefined),
  // Issued for this server (RFC 8707 §2, MCP basic/authorization §Token Audience Binding).
  (claims, { audience }) => (audiences(claims.aud).includes(audience) ? undefined : RESOURCE),
  numeric('iat', NOT_YET),
  numeric('nbf', NOT_YET),
  (claims, { now, leewaySeconds }) => (typeof claims.nbf === 'number' && claims.nbf > now + leewaySeconds ? NOT_YET : undefined),
  numeric('exp', LACKS),
  (claims, { now, leewaySeconds }) => (typeof claims.exp === 'number' && claims.exp <= now - leewaySeconds ? 'the access token has expired' : undefined),
];

/** A claim that is a non-empty string, or undefined. */
const named = (claim: unknown): string | undefined => (typeof claim === 'string' && claim !== '' ? claim : undefined);

/** A claim's values: a list of strings, or one string of space-separated values (as `scope` is). */
function values(claim: unknown): string[] {
  return typeof claim === 'string' ? claim.split(' ').filter(Boolean) : audiences(claim);
}

/**
 * The principal of claims that pass every rule, or a {@link BadToken}: its
 * subject (`sub`) and client (`client_id`, RFC 9068 §2.2 and RFC 7662 §2.2,
 * else OpenID's `azp`), the scopes of `scope` (RFC 9068 §2.2.3, RFC 7662
 * §2.2) or the common `scp` list, and its audiences, the values of
 * `audienceClaim` or else its scopes.
 *
 * What a caller opens (a 2025 session, a 2026 requestState) is bound to its
 * client and subject together (core/context.ts `principalId`). A token that
 * names neither could be anyone's (RFC 7662 makes both optional; RFC 9068
 * requires both in a JWT): it is refused, rather than admitted as a caller
 * every other such token would be. The issuer is not part of it: only the
 * configured one's tokens are accepted.
 */
export function principalOf(claims: Record<string, unknown>, kind: TokenKind, context: ClaimContext, audienceClaim: string | undefined): Principal {
  for (const [claim, refusal] of REQUIRED[kind]) if (!Object.hasOwn(claims, claim)) throw new BadToken(refusal);
  for (const rule of CLAIM_RULES) {
    const refusal = rule(claims, context);
    if (refusal !== undefined) throw new BadToken(refusal);
  }
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

/** Whether the principal lacks one of the scopes the endpoint requires (then 403 `insufficient_scope`, not 401). */
export function lacksScope(principal: Principal, required: readonly string[]): boolean {
  return required.some((scope) => !principal.scopes.includes(scope));
}
