/**
 * The endpoints of the `routes` option (webhooks, the discovery index),
 * beside the MCP endpoint, as entries of the route table (routes.ts). A
 * bare function is `guarded`: reached after the Host and Origin checks but
 * without the bearer token, guarding itself; a spec may ask for
 * `authorized` (the AuthGate of the MCP endpoint, handler.ts `enter`) and a
 * `prefix`. Whatever their access, what they hold must never be taken from
 * the MCP endpoint: their bodies are read against a budget of their own.
 */
import type { Principal } from '../../server/index.js';
import type { HttpOptions, HttpRoute, RouteReply, RouteSpec } from './options.js';
import { type BodyBudget, createBodyBudget, type HttpReply, type HttpRequest, type Route } from './request.js';

/** Default of `maxBufferedRouteBodyBytes`: four webhook bodies at their default 1 MiB cap. */
const DEFAULT_ROUTE_BODY_BUDGET = 4 * 1024 * 1024;

/** The routes of `options`, which may not take the MCP endpoint's `path`. */
export function createUserRoutes(options: HttpOptions, path: string): Route[] {
  const routes = Object.entries(options.routes ?? {}).map(([at, given]) => specOf(at, given));
  if (routes.some(({ at, spec }) => at === path && spec.prefix !== true)) throw new TypeError(`a route cannot take the MCP endpoint's path ${path}`);
  const max = options.maxBufferedRouteBodyBytes ?? DEFAULT_ROUTE_BODY_BUDGET;
  if (!Number.isSafeInteger(max) || max < 1) throw new TypeError('maxBufferedRouteBodyBytes must be a positive integer');
  // Bodies stalled on a route must never leave an authorized MCP request without room (503).
  const bodies = createBodyBudget(max);
  return routes.map(({ at, spec }) => ({
    path: at,
    ...(spec.prefix === true ? { prefix: true } : {}),
    access: spec.access ?? 'guarded',
    answer: (request: HttpRequest, principal: Principal | undefined) => answer(spec.answer, request, principal, bodies),
  }));
}

/** A routes entry as a spec, checked: a path from the root, a prefix ending in `/`, a known access. */
function specOf(at: string, given: HttpRoute | RouteSpec): { at: string; spec: RouteSpec } {
  const spec: RouteSpec = typeof given === 'function' ? { answer: given } : given;
  if (!at.startsWith('/')) throw new TypeError(`a route's path must start with "/": ${at}`);
  if (typeof spec.answer !== 'function') throw new TypeError(`the route at ${at} has no answer function`);
  if (spec.access !== undefined && spec.access !== 'guarded' && spec.access !== 'authorized') {
    throw new TypeError(`the route at ${at} has an unknown access: ${String(spec.access)}`);
  }
  if (spec.prefix === true && !at.endsWith('/')) throw new TypeError(`a prefix route's path must end with "/": ${at}`);
  return { at, spec };
}

/**
 * A route's answer, its body read against the routes' budget and given back
 * after. HEAD is GET without the body (RFC 9110 §9.3.2): the route answers a
 * GET, and the body's length stays in Content-Length.
 */
async function answer(own: HttpRoute, request: HttpRequest, principal: Principal | undefined, bodies: BodyBudget): Promise<HttpReply> {
  let held = 0;
  const head = request.method === 'HEAD';
  try {
    const reply = await own({
      method: head ? 'GET' : request.method,
      path: request.pathname,
      search: request.search ?? '',
      headers: request.headers,
      ...(principal !== undefined ? { principal } : {}),
      readBody: async (limit) => {
        const bytes = await request.readBody(limit, bodies);
        if (bytes instanceof Uint8Array) held += bytes.byteLength;
        return bytes;
      },
    });
    return head ? withoutBody(reply) : asHttpReply(reply);
  } finally {
    bodies.give(held);
  }
}

/** A route's reply as the handler's: bytes go as a one-part body, which both adapters write with its length. */
function asHttpReply(reply: RouteReply): HttpReply {
  const { body } = reply;
  if (body instanceof Uint8Array) return { status: reply.status, headers: reply.headers, body: [body] };
  return reply as HttpReply;
}

/** The answer to HEAD: the GET's status and headers, its length and no body. */
function withoutBody(reply: RouteReply): HttpReply {
  const { body } = reply;
  if (body === undefined) return { status: reply.status, headers: reply.headers };
  const length = typeof body === 'string' ? new TextEncoder().encode(body).byteLength : body.byteLength;
  return { status: reply.status, headers: { ...reply.headers, 'content-length': String(length) } };
}
