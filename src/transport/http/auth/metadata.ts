/**
 * The OAuth 2.0 Protected Resource Metadata document (RFC 9728) that MCP
 * authorization requires of a protected server (2025-06-18, 2025-11-25 and
 * 2026-07-28 basic/authorization §Authorization Server Discovery), its two
 * routes, and the `WWW-Authenticate` challenge that points to it. The
 * document exists only where it can name an authorization server: under
 * OAuth (oauth.ts), or with a static token and `authorizationServers`
 * (static-token.ts says why not otherwise).
 */
import { Rejections, reject } from '../errors.js';
import { jsonReply } from '../exchange.js';
import { HEADER } from '../headers.js';
import type { Route } from '../request.js';
/** Path prefix of the Protected Resource Metadata document (RFC 9728 §3). */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

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

/**
 * The document's routes, at both well-known paths: the prefix followed by the
 * endpoint's path (RFC 9728 §3.1) and the bare prefix, which clients ask too.
 * `document` makes it for the endpoint URL the request reached.
 */
export function metadataRoutes(path: string, document: (endpoint: URL) => Record<string, unknown>): Route[] {
  const route = (at: string): Route => ({
    path: at,
    access: 'guarded',
    answer(request) {
      const endpoint = new URL(path, request.origin);
      if (request.method !== 'GET' && request.method !== 'HEAD') return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: 'GET' });
      return jsonReply(document(endpoint), 200, { 'Cache-Control': 'max-age=3600' });
    },
  });
  return [route(METADATA_PATH), route(`${METADATA_PATH}${path}`)];
}
