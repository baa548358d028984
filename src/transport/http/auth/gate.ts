/**
 * The AuthGate: the one place a request to an `authorized` route (the MCP
 * endpoint) is admitted or refused, whichever way the server is protected:
 *
 * - nothing configured: every request is admitted, without a principal;
 * - a static `authToken` (static-token.ts): 401 without it; with
 *   `authorizationServers`, the challenge names the metadata document;
 * - `oauth` (oauth.ts): an OAuth 2.1 resource server, whose token rules are
 *   claims.ts; the admitted principal goes with the request to its handlers.
 *
 * The gate also brings what its kind of protection serves besides: the
 * Protected Resource Metadata routes (metadata.ts) and what a 404 says.
 */

import type { Logger } from '../../../server/index.js';
import { dependencyStatus } from '../../../telemetry/dependencies.js';
import { Rejections, reject } from '../errors.js';
import { HEADER } from '../headers.js';
import type { HttpOptions } from '../options.js';
import type { HttpRequest, Route } from '../request.js';
import { ADMITTED, type Admission } from './admission.js';
import { challenge, metadataRoutes, protectedResourceMetadata } from './metadata.js';
import { createOAuthGate } from './oauth.js';
import { createTokenCheck, NO_AUTHORIZATION_SERVER } from './static-token.js';

export type { Admission } from './admission.js';

export interface AuthGate {
  /** Admits or refuses a request for an `authorized` route; a promise only when it must ask (OAuth). Never rejects. */
  admit(request: HttpRequest): Admission | Promise<Admission>;
  /** The routes this protection serves (the metadata document at its two paths), or none. */
  readonly routes: readonly Route[];
  /** What a 404 adds, if anything (a static token without an authorization server). */
  readonly notFoundDetail: string | undefined;
}

const OPEN: AuthGate = { admit: () => ADMITTED, routes: [], notFoundDetail: undefined };

/** The gate for `options`: static token, OAuth or none. `path` is the MCP endpoint's, `name` the server's. */
export function createAuthGate(options: HttpOptions, path: string, name: string, logger: Logger): AuthGate {
  const token = options.authToken !== undefined ? createTokenGate(options.authToken, options.authorizationServers, path, name) : undefined;
  if (token && options.oauth) throw new TypeError('authToken and oauth exclude each other: a static token is for local use');
  if (token) return token;
  if (!options.oauth) return OPEN;
  // OAuth 2.1 resource server (oauth.ts): tokens checked against the authorization server.
  const oauth = createOAuthGate(options.oauth, logger, options.metrics && dependencyStatus(options.metrics));
  return {
    // Authentication before everything the protocol checks (the resolver's 2026 header rules among them).
    admit: (request) => oauth.admit(request, new URL(path, request.origin)),
    routes: metadataRoutes(path, (endpoint) => oauth.metadata(endpoint, name)),
    notFoundDetail: undefined,
  };
}

/** The static token's gate: 401 with a challenge unless the request carries it. */
function createTokenGate(token: string, authorizationServers: readonly string[] | undefined, path: string, name: string): AuthGate {
  const tokenValid = createTokenCheck(token);
  // Protected Resource Metadata only where it can name an authorization server (static-token.ts).
  const servers = authorizationServers?.length ? authorizationServers : undefined;
  return {
    admit(request) {
      const authorization = request.headers.get(HEADER.authorization);
      if (tokenValid(authorization)) return ADMITTED;
      const metadataFor = servers ? new URL(path, request.origin) : undefined;
      return {
        reply: reject(Rejections.Unauthorized, null, {
          [HEADER.wwwAuthenticate]: challenge(metadataFor, authorization !== null ? 'invalid_token' : undefined),
        }),
      };
    },
    routes: servers ? metadataRoutes(path, (endpoint) => protectedResourceMetadata(endpoint, servers, name)) : [],
    notFoundDetail: servers ? undefined : NO_AUTHORIZATION_SERVER,
  };
}
