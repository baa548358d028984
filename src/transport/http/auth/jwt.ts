/**
 * JWT access tokens (RFC 9068). jose checks the signature against the
 * authorization server's keys and an allow-list of asymmetric algorithms (no
 * `none`, and no HMAC, which would let anyone holding the public key sign:
 * RFC 8725 §3.1-3.2); the claims (`iss`, `aud`, `exp`, `nbf`...) are checked
 * by the rules an introspection answer passes too (claims.ts), not by jose.
 */

import { BadToken } from './claims.js';
import { AuthUnavailableError } from './discovery.js';
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

/** jose's error codes, in words; anything else is "not valid". */
function describe(error: unknown): string {
  switch ((error as { code?: string }).code) {
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

/** A payload read strictly: UTF-8 and a JSON object, as a JWT Claims Set must be (RFC 7519 §7.2 step 10). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The claims of a token whose signature verifies with one of `algorithms`,
 * unchecked (claims.ts checks them); a {@link BadToken} for a bad token,
 * AuthUnavailableError when the keys cannot be had.
 */
export async function verifyJwt(jose: Jose, token: string, keys: GetKey, algorithms: readonly string[]): Promise<Record<string, unknown>> {
  let verified: Awaited<ReturnType<Jose['compactVerify']>>;
  try {
    verified = await jose.compactVerify(token, keys, { algorithms: [...algorithms] });
  } catch (error) {
    if (error instanceof AuthUnavailableError) throw error;
    throw new BadToken(describe(error));
  }
  // A JWT's payload is base64url-encoded: one marked unencoded (RFC 7797 §3, `b64` in `crit`) is no JWT, as jose's jwtVerify says.
  const { b64, crit } = verified.protectedHeader;
  if (b64 === false && crit?.includes('b64')) throw new BadToken('the access token is not valid');
  let claims: unknown;
  try {
    claims = JSON.parse(UTF8.decode(verified.payload));
  } catch {
    throw new BadToken('the access token is not valid');
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new BadToken('the access token is not valid');
  return claims as Record<string, unknown>;
}
