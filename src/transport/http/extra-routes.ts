/**
 * The endpoints of the `routes` option (webhooks), beside the MCP endpoint,
 * as entries of the route table (routes.ts). They are `guarded`: reached
 * after the Host and Origin checks but without the bearer token, each
 * guarding itself, so what they hold must never be taken from the MCP
 * endpoint: their bodies are read against a budget of their own.
 */
import type { HttpOptions, HttpRoute } from './options.js';
import { createBodyBudget, type HttpReply, type HttpRequest, type Route } from './request.js';

/** Default of `maxBufferedRouteBodyBytes`: four webhook bodies at their default 1 MiB cap. */
const DEFAULT_ROUTE_BODY_BUDGET = 4 * 1024 * 1024;

/** The routes of `options`, which may not take the MCP endpoint's `path`. */
export function createUserRoutes(options: HttpOptions, path: string): Route[] {
  const routes = Object.entries(options.routes ?? {});
  if (routes.some(([at]) => at === path)) throw new TypeError(`a route cannot take the MCP endpoint's path ${path}`);
  const max = options.maxBufferedRouteBodyBytes ?? DEFAULT_ROUTE_BODY_BUDGET;
  if (!Number.isSafeInteger(max) || max < 1) throw new TypeError('maxBufferedRouteBodyBytes must be a positive integer');
  // Bodies stalled on an unauthenticated route must never leave an authorized MCP request without room (503).
  const bodies = createBodyBudget(max);

  /** A route's answer, its body read against the routes' budget and given back after. */
  async function answer(own: HttpRoute, request: HttpRequest): Promise<HttpReply> {
    let held = 0;
    try {
      return await own({
        method: request.method,
        headers: request.headers,
        readBody: async (limit) => {
          const bytes = await request.readBody(limit, bodies);
          if (bytes instanceof Uint8Array) held += bytes.byteLength;
          return bytes;
        },
      });
    } finally {
      bodies.give(held);
    }
  }

  return routes.map(([at, own]) => ({ path: at, access: 'guarded', answer: (request) => answer(own, request) }));
}
