/**
 * The route table: every path the handler answers, in one list. A request's
 * path picks its route: an exact match first, else the route of the longest
 * prefix that holds the path (a prefix route's path ends in `/`); the
 * route's `access` says which of the handler's stages it passes first
 * (request.ts `Access`); a path in no route is 404 after the guards. To add
 * an endpoint (metrics, an index page), write its `Route` in a module of its
 * own and list it in {@link routeTable}: the handler does not change.
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

/** Routes by path: exact ones, then prefixes. */
export interface RouteTable {
  /** The route for a request's path: its exact route, else the longest prefix holding it. */
  get(path: string): Route | undefined;
  /** Every route kept, exact ones first, in order of precedence. */
  readonly routes: readonly Route[];
}

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
    // Webhooks, the discovery index and the like (extra-routes.ts): with a body budget of their own.
    ...parts.userRoutes,
    ...parts.authRoutes,
    parts.endpoint,
  ]);
}

/** The table of `routes`, the first of each path (and kind) kept. */
export function tableOf(routes: readonly Route[]): RouteTable {
  const exact = new Map<string, Route>();
  const prefixes = new Map<string, Route>();
  for (const route of routes) {
    const kind = route.prefix === true ? prefixes : exact;
    if (!kind.has(route.path)) kind.set(route.path, route);
  }
  // Longest first, so the first prefix that holds a path is the longest; a handful of entries, scanned with startsWith (no pattern).
  const byLength = [...prefixes.values()].sort((a, b) => b.path.length - a.path.length);
  return {
    get(path) {
      const found = exact.get(path);
      if (found !== undefined || byLength.length === 0) return found;
      return byLength.find((route) => path.startsWith(route.path));
    },
    routes: [...exact.values(), ...byLength],
  };
}
