/**
 * Optional bearer-token protection and the OAuth 2.0 Protected Resource
 * Metadata document (RFC 9728) that MCP authorization requires of a
 * protected server (2025-06-18, 2025-11-25 and 2026-07-28
 * basic/authorization §Authorization Server Discovery).
 *
 * The token is a static shared secret, compared in constant time and never
 * logged. skillport runs no authorization server: `authorizationServers`
 * names the one that issues tokens for it; without it the document names the
 * server's own origin so that it stays valid (the spec requires at least one
 * entry), and clients must be configured with the token directly.
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

/** The challenge sent with 401 (RFC 6750 §3, RFC 9728 §5.1). */
export function challenge(endpoint: URL, tokenPresent: boolean): string {
  const error = tokenPresent ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${metadataUrl(endpoint)}"${error}`;
}

/** The Protected Resource Metadata document (RFC 9728 §2). */
export function protectedResourceMetadata(endpoint: URL, authorizationServers: readonly string[] | undefined, name: string): Record<string, unknown> {
  return {
    resource: `${endpoint.origin}${endpoint.pathname}`,
    // MUST hold at least one entry (2025-06-18 basic/authorization §2.3.1).
    authorization_servers: authorizationServers && authorizationServers.length > 0 ? [...authorizationServers] : [endpoint.origin],
    bearer_methods_supported: ['header'],
    resource_name: name,
  };
}
