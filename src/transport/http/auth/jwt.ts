/**
 * JWT access tokens (RFC 9068), checked with jose: the signature against the
 * authorization server's keys, an allow-list of asymmetric algorithms (no
 * `none`, and no HMAC, which would let anyone holding the public key sign:
 * RFC 8725 §3.1-3.2), `iss`, `exp` and `nbf` with a small leeway, and `aud`
 * naming this server (RFC 8707; MCP basic/authorization §Token Validation).
 */
import type { GetKey } from './keys.js';

type Jose = typeof import('jose');

/** The asymmetric JWS algorithms (RFC 7518 §3.1, RFC 8037) accepted unless narrowed. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Whether a token has the shape of a JWS in compact serialization (RFC 7515 §7.1); anything else is opaque. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

export interface JwtRules {
  issuer: string;
  audience: string;
  algorithms: readonly string[];
  leewaySeconds: number;
}

/** The verified claims, or a throw: jose's errors for a bad token, AuthUnavailableError when keys cannot be had. */
export async function verifyJwt(jose: Jose, token: string, keys: GetKey, rules: JwtRules): Promise<Record<string, unknown>> {
  const { payload } = await jose.jwtVerify(token, keys, {
    issuer: rules.issuer,
    audience: rules.audience,
    algorithms: [...rules.algorithms],
    clockTolerance: rules.leewaySeconds,
    // RFC 9068 §2.2: an access token has an expiry; one without is refused.
    requiredClaims: ['exp'],
  });
  return payload;
}
