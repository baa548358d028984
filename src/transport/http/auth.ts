/**
 * Optional bearer-token protection and the OAuth 2.0 Protected Resource
 * Metadata document (RFC 9728) that MCP authorization requires of a
 * protected server (2025-06-18, 2025-11-25 and 2026-07-28
 * basic/authorization §Authorization Server Discovery).
 *
 * The token is a static shared secret, compared in constant time and never
 * logged. skillport runs no authorization server. With `authorizationServers`
 * (the ones that issue its tokens) the 401 challenge points to the metadata
 * document naming them. Without, there is no document and the challenge is a
 * plain bearer one: a document must name at least one authorization server
 * (2025-06-18 basic/authorization §2.3.1), and naming this server, which has
 * none, sent OAuth clients looking for one here and failing on a 404 instead
 * of asking their user for the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Path prefix of the Protected Resource Metadata document (RFC 9728 §3). */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

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

/** The URL of the metadata document for the MCP endpoint at `endpoint` (RFC 9728 §3.1). */
export function metadataUrl(endpoint: URL): string {
  return `${endpoint.origin}${METADATA_PATH}${endpoint.pathname === '/' ? '' : endpoint.pathname}`;
}

/**
 * The challenge sent with 401 and 403 (RFC 6750 §3): with `metadataFor`, the
 * endpoint whose metadata document to name (RFC 9728 §5.1); without, a plain
 * bearer challenge. The scopes the endpoint needs go in `scope` (MCP
 * 2025-11-25 authorization §Scope Challenge Handling); a missing token gets
 * no error code (RFC 6750 §3.1).
 */
export function challenge(metadataFor: URL | undefined, error?: string, options: { scope?: readonly string[]; description?: string | undefined } = {}): string {
  const parts = [metadataFor ? `resource_metadata="${metadataUrl(metadataFor)}"` : 'realm="mcp"'];
  if (options.scope?.length) parts.push(`scope="${options.scope.join(' ')}"`);
  if (error) parts.push(`error="${error}"`);
  if (error && options.description) parts.push(`error_description="${options.description}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * What a 404 adds when the token is static: an OAuth client that finds no
 * metadata may still take this server's origin for its authorization server
 * (the 2025-03-26 fallback, which the SDK clients keep) and end at a 404 on
 * `/register`; SDK clients show that body, so it says what to do instead.
 */
export const NO_AUTHORIZATION_SERVER = 'this server runs no OAuth authorization server; send its static token as Authorization: Bearer <token>';

/** The Protected Resource Metadata document (RFC 9728 §2), with the scopes the endpoint needs when it names any. */
export function protectedResourceMetadata(
  endpoint: URL,
  authorizationServers: readonly string[],
  name: string,
  scopes: readonly string[] = [],
): Record<string, unknown> {
  return {
    resource: `${endpoint.origin}${endpoint.pathname}`,
    authorization_servers: [...authorizationServers],
    bearer_methods_supported: ['header'],
    ...(scopes.length ? { scopes_supported: [...scopes] } : {}),
    resource_name: name,
  };
}
