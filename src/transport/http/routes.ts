/**
 * The route table: every path the handler answers, in one list. A request's
 * path picks its route (an exact match); the route's `access` says which of
 * the handler's stages it passes first (request.ts `Access`); a path in no
 * route is 404 after the guards. To add an endpoint (metrics, an index page),
 * write its `Route` in a module of its own and list it in {@link routeTable}:
 * the handler does not change.
 */
import type { Server } from '../../server/index.js';
import { healthRoutes } from './health.js';
import type { HttpOptions } from './options.js';
import type { Route } from './request.js';

/** What the routes are made of. */
export interface RouteParts {
  readonly server: Server;
  readonly options: HttpOptions;
  /** The MCP endpoint's path. */
  readonly path: string;
  /** The MCP endpoint (mcp-endpoint.ts). */
  readonly endpoint: Route;
  /**
   * The routes the options configure, made (and checked) before the handler
   * opens anything: the `routes` option (extra-routes.ts `createUserRoutes`) and
   * the AuthGate's (auth/gate.ts: the Protected Resource Metadata document).
   */
  readonly userRoutes: readonly Route[];
  readonly authRoutes: readonly Route[];
  /** False once the handler drains. */
  serving(): boolean;
}

/** Routes by exact path. */
export type RouteTable = ReadonlyMap<string, Route>;

/**
 * Every route, in order of precedence: where two take one path, the first
 * listed answers (the routes option may not take the MCP endpoint's path:
 * extra-routes.ts refuses it).
 */
export function routeTable(parts: RouteParts): RouteTable {
  const { options, path } = parts;
  return tableOf([
    // Health first, before any guard (health.ts); unless the MCP endpoint itself was put at one of their paths.
    ...healthRoutes(parts.serving, options.ready).filter((route) => route.path !== path),
    // Webhooks and the like (extra-routes.ts): unauthenticated, with a body budget of their own.
    ...parts.userRoutes,
    ...parts.authRoutes,
    parts.endpoint,
  ]);
}

/** The table of `routes`, the first of each path kept. */
export function tableOf(routes: readonly Route[]): RouteTable {
  const table = new Map<string, Route>();
  for (const route of routes) if (!table.has(route.path)) table.set(route.path, route);
  return table;
}
