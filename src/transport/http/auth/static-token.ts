/**
 * The static bearer token (`authToken`): a shared secret every MCP request
 * carries, compared in constant time and never logged. skillport runs no
 * authorization server; with `authorizationServers` (the ones that issue its
 * tokens) the 401 challenge points to the metadata document naming them
 * (metadata.ts). Without, there is no document and the challenge is a plain
 * bearer one: a document must name at least one authorization server
 * (2025-06-18 basic/authorization §2.3.1), and naming this server, which has
 * none, sent OAuth clients looking for one here and failing on a 404 instead
 * of asking their user for the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Builds the check for an `Authorization` header. Both sides are hashed
 * first so the comparison takes the same time whatever the lengths.
 */
export function createTokenCheck(token: string): (authorization: string | null) => boolean {
  if (token.length === 0) throw new TypeError('authToken must not be empty');
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    // Hash something even without a token, so a missing header costs the same.
    const actual = digest(match?.[1] ?? '');
    return timingSafeEqual(actual, expected) && match !== null;
  };
}

/**
 * What a 404 adds when the token is static: an OAuth client that finds no
 * metadata may still take this server's origin for its authorization server
 * (the 2025-03-26 fallback, which the SDK clients keep) and end at a 404 on
 * `/register`; SDK clients show that body, so it says what to do instead.
 */
export const NO_AUTHORIZATION_SERVER = 'this server runs no OAuth authorization server; send its static token as Authorization: Bearer <token>';
