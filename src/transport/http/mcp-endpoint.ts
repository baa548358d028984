/**
 * The MCP endpoint as a route of the table (routes.ts), behind the AuthGate.
 * POST: the media types, the body cap (and the budget all bodies share),
 * UTF-8, nesting depth and JSON; then the resolver (protocol/resolve.ts),
 * once, with the headers and the session the request names; its decision
 * picks the route: the stateless route for a 2026-07-28 request
 * (stateless-route.ts), the session routes for the revisions that start
 * with initialize (sessions/routes.ts), or the answer the resolver already
 * wrote. GET and DELETE name a session (sessions/lookup.ts); without one 405.
 */
import { parseErrorResponse, parseMessage } from '../../jsonrpc/messages.js';
import { resolve } from '../../protocol/index.js';
import type { Principal } from '../../server/index.js';
import { RETRY_AFTER, Rejections, reject } from './errors.js';
import { jsonReply } from './exchange.js';
import { type Acceptable, HEADER, isJsonContentType, parseAccept } from './headers.js';
import type { BodyBudget, HttpRequest, Reply, Route } from './request.js';
import type { SessionLookup } from './sessions/lookup.js';
import type { SessionRoutes } from './sessions/routes.js';
import type { Session } from './sessions/store.js';
import type { StatelessRoute } from './stateless-route.js';

/** A body that is not UTF-8 is a parse error, not text with replacement characters. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What the endpoint needs from the handler. */
export interface Endpoint {
  readonly path: string;
  /** Largest body, and the budget all bodies share (request.ts `BodyBudget`). */
  readonly maxBody: number;
  readonly bodies: BodyBudget;
  /** The server's `limits.maxJsonDepth`. */
  readonly maxDepth: number;
  readonly sessionsEnabled: boolean;
  /** The `Allow` header's methods. */
  readonly methods: string;
  readonly lookup: SessionLookup;
  readonly sessions: SessionRoutes;
  readonly stateless: StatelessRoute;
  /** Whether the server has observers (`Server.observed`): only then is `traceparent` read. */
  readonly observed: () => boolean;
}

/** The endpoint's route. */
export function mcpEndpoint(endpoint: Endpoint): Route {
  return { path: endpoint.path, access: 'authorized', answer: (request, principal) => dispatch(endpoint, request, principal) };
}

// Each step returns a reply, or a promise of one only where it must wait:
// every async step is a few microtask turns, and this runs per request.

/**
 * The W3C Trace Context headers (`traceparent`, `tracestate`) of the HTTP
 * request, for observers: an HTTP request carries one JSON-RPC message here,
 * so its trace context is that message's too. Checked by whoever uses it.
 */
function traceContext(request: HttpRequest): { traceparent: string; tracestate?: string } | undefined {
  const traceparent = request.headers.get('traceparent');
  if (traceparent === null) return undefined;
  const tracestate = request.headers.get('tracestate');
  return tracestate === null ? { traceparent } : { traceparent, tracestate };
}

/** Routes an authenticated request by its method. */
function dispatch(endpoint: Endpoint, request: HttpRequest, principal: Principal | undefined): Reply {
  const { lookup, sessions } = endpoint;
  switch (request.method) {
    case 'POST':
      return post(endpoint, request, principal);
    case 'GET':
      return lookup.named(request, principal, (session) => sessions.get(request, session));
    case 'DELETE':
      return lookup.named(request, principal, lookup.end);
    default:
      return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: endpoint.methods });
  }
}

function post(endpoint: Endpoint, request: HttpRequest, principal: Principal | undefined): Reply {
  if (!isJsonContentType(request.headers.get(HEADER.contentType))) return reject(Rejections.UnsupportedMediaType);
  const accept = parseAccept(request.headers.get(HEADER.accept));
  if (!accept.json && !accept.sse) return reject(Rejections.NotAcceptable);
  const { bodies } = endpoint;
  return request.readBody(endpoint.maxBody, bodies).then((bytes) => {
    if (bytes === undefined) return reject(Rejections.PayloadTooLarge);
    if (bytes === 'busy') return reject(Rejections.BodiesBusy, null, RETRY_AFTER);
    try {
      return postBody(endpoint, request, accept, bytes, principal);
    } finally {
      // Parsed (or refused): its bytes are no longer held for it.
      bodies.give(bytes.byteLength);
    }
  });
}

function postBody(endpoint: Endpoint, request: HttpRequest, accept: Acceptable, bytes: Uint8Array, principal: Principal | undefined): Reply {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return jsonReply(parseErrorResponse(), 400);
  }
  // Depth is checked on the text before parsing, as on stdio (the server's `limits.maxJsonDepth`).
  const parsed = parseMessage(text, endpoint.maxDepth);
  if (!parsed.ok) return jsonReply(parsed.response, 400);
  // Sessions turned off: a session header names nothing (and is ignored).
  const sessionId = endpoint.sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
  const routeIn = (session: Session | undefined): Reply => {
    let resolved = resolve(parsed.value, {
      session: session?.connection.session,
      http: { headers: request.headers, unknownSession: sessionId !== null && !session },
    });
    if (resolved.kind === 'answer') return jsonReply(resolved.response, resolved.status);
    // Who the token names goes with the request to its handlers (ctx.principal).
    if (principal && resolved.kind === 'request') resolved = { ...resolved, facts: { ...resolved.facts, principal } };
    if (resolved.kind === 'request' && endpoint.observed()) {
      const trace = traceContext(request);
      if (trace !== undefined) resolved = { ...resolved, facts: { ...resolved.facts, ...trace } };
    }
    if (resolved.scope === 'stateless') return endpoint.stateless.post(request, resolved, accept);
    return endpoint.sessions.post(request, resolved, accept, session);
  };
  // The resolver is synchronous: a shared session is looked up (and rebuilt) before it.
  return sessionId === null ? routeIn(undefined) : endpoint.lookup.find(sessionId.trim(), principal, routeIn);
}
