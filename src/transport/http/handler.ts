/**
 * The Streamable HTTP transport as a web-standard handler:
 * `(Request) => Promise<Response>`. Mount it in any framework that speaks
 * the Fetch API (Hono, Bun, Deno, workers), or on node:http through
 * {@link toNodeHandler}.
 *
 * One endpoint serves every revision at once. A POST's body is parsed and
 * handed to the resolver (protocol/resolve.ts) once, with the headers and the
 * session it names (held here, or with shared state rebuilt from it first:
 * sessions/shared.ts); its decision picks the route: the stateless route for a
 * 2026-07-28 request (stateless-route.ts), the session routes for the
 * revisions that start with initialize (sessions/routes.ts: sessions, their
 * GET stream, DELETE), or the answer the resolver already wrote. GET and
 * DELETE without a session are 405.
 *
 * Before any of that: the `Host` and `Origin` allow-lists (DNS rebinding),
 * CORS for pages on allowed origins, the optional bearer token, the body
 * cap, and the media types. Even before those, the health paths (health.ts).
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse, parseErrorResponse, parseMessage } from '../../jsonrpc/messages.js';
import { resolve } from '../../protocol/index.js';
import { type Principal, type Server, silentLogger } from '../../server/index.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, type Drainable, drain } from '../lifecycle.js';
import { createOAuthGate } from './auth/oauth.js';
import { challenge, createTokenCheck, METADATA_PATH, NO_AUTHORIZATION_SERVER, protectedResourceMetadata } from './auth.js';
import { preflight, withCors } from './cors.js';
import { RETRY_AFTER, Rejections, reject } from './errors.js';
import { jsonReply } from './exchange.js';
import { createExtraRoutes } from './extra-routes.js';
import { type Acceptable, HEADER, isJsonContentType, parseAccept } from './headers.js';
import { healthReply } from './health.js';
import type { HttpHandler, HttpOptions } from './options.js';
import { createHostCheck, createOriginCheck } from './origin.js';
import { createBodyBudget, type HttpReply, type HttpRequest, withDirectReply } from './request.js';
import { createSessionLookup } from './session-lookup.js';
import { createSessionRoutes } from './sessions/routes.js';
import { createSharedSessions } from './sessions/shared.js';
import { createSessionStore, type Session } from './sessions/store.js';
import { createStatelessRoute } from './stateless-route.js';
import { createStreamCaps } from './stream-caps.js';
import { fromWebRequest, toWebResponse } from './web.js';

const METHODS_ALLOWED = 'GET, POST, DELETE';
/** A body that is not UTF-8 is a parse error, not text with replacement characters. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Creates the Streamable HTTP handler for a server.
 *
 * @example
 * const handler = createHttpHandler(server);
 * // Fetch-API runtimes and frameworks:
 * export default { fetch: (request: Request) => handler.fetch(request) };
 * // node:http:
 * createNodeServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 */
export function createHttpHandler(server: Server, options: HttpOptions = {}): HttpHandler {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/')) throw new TypeError('path must start with "/"');
  const logger = options.logger ?? silentLogger;
  const maxBody = options.maxBodyBytes ?? server.limits.maxMessageBytes;
  const maxBufferedBody = options.maxBufferedBodyBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBufferedBody) || maxBufferedBody < 1) throw new TypeError('maxBufferedBodyBytes must be a positive integer');
  const bodies = createBodyBudget(maxBufferedBody);
  const maxDepth = server.limits.maxJsonDepth;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const sessionsEnabled = options.sessions ?? true;
  // Webhooks and the like, unauthenticated, with a body budget of their own (extra-routes.ts).
  const extraRoute = createExtraRoutes(options, path);
  const hostAllowed = createHostCheck(options.allowedHosts);
  const originAllowed = createOriginCheck(options.allowedOrigins);
  const tokenValid = options.authToken !== undefined ? createTokenCheck(options.authToken) : undefined;
  if (tokenValid && options.oauth) throw new TypeError('authToken and oauth exclude each other: a static token is for local use');
  // OAuth 2.1 resource server (auth/oauth.ts): tokens checked against the authorization server.
  const oauth = options.oauth ? createOAuthGate(options.oauth, logger) : undefined;
  // Protected Resource Metadata only where it can name an authorization server (see auth.ts).
  const authorizationServers = tokenValid && options.authorizationServers?.length ? options.authorizationServers : undefined;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  // With shared state a message for a session without a GET stream is not kept: the stream may reopen elsewhere.
  const store = createSessionStore({ idleMs, maxSessions: options.maxSessions ?? 1000, backlog: !options.shared });
  const shared = options.shared && sessionsEnabled ? createSharedSessions(options.shared, store, server, idleMs, logger) : undefined;
  const lookup = createSessionLookup(store, shared, sessionsEnabled, sessionsEnabled ? METHODS_ALLOWED : 'POST', logger);
  const sweepMs = options.sessionSweepMs ?? Math.max(1000, Math.min(idleMs / 2, 60_000));
  if (options.sessionSweepMs !== undefined && (!Number.isSafeInteger(sweepMs) || sweepMs < 1)) throw new TypeError('sessionSweepMs must be a positive integer');
  const sweeper = setInterval(() => {
    store.sweep();
    shared?.refresh();
  }, sweepMs);
  (sweeper as { unref?: () => void }).unref?.();

  /** Answers in flight, so close() can wait for them. */
  let answering = 0;
  let allAnswered: (() => void) | undefined;

  // Long-lived streams (listen requests, GET streams), overall and per client (stream-caps.ts).
  const takeStream = createStreamCaps(options.maxStreams ?? 1000, options.maxStreamsPerClient ?? 32, options.trustProxy === true);

  /** Counts an answer in flight until the returned function is called (once). */
  function track(): () => void {
    answering++;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      if (--answering === 0) allAnswered?.();
    };
  }

  function internalError(id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse {
    logger.error('Unexpected failure while handling a request', error);
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  const routeContext = { keepAliveMs, track, internalError, takeStream, ...(shared ? { saved: shared.saved } : {}) };
  const sessions = createSessionRoutes(server, store, sessionsEnabled, logger, routeContext);
  const stateless = createStatelessRoute(server, routeContext);

  // ---- Lifecycle (the drain of transport/lifecycle.ts) ----

  /**
   * A session as the drain ends it: on shutdown its connection finishes what
   * it has and its GET stream ends at once, cleanly (it carries nothing a
   * client waits for); on disconnect the session ends.
   */
  function drainable(session: Session): Drainable {
    return {
      close(reason) {
        if (reason === 'disconnect') {
          store.end(session.id);
          return;
        }
        session.connection.close('shutdown');
        session.stream?.close();
      },
    };
  }

  const lifecycle = createLifecycle(async () => {
    clearInterval(sweeper);
    shared?.close();
    await drain({
      // The one-request connections of the stateless route, then the sessions.
      connections: () => [...stateless.inFlight, ...store.all().map(drainable)],
      settled: () =>
        new Promise<void>((resolve) => {
          allAnswered = resolve;
          if (answering === 0) resolve();
        }),
      timeoutMs: drainTimeoutMs,
    });
  });

  // ---- Routing ----

  // Routing functions return a reply, or a promise of one only where they must
  // wait: every async step is a few microtask turns, and this runs per request.

  function post(request: HttpRequest, principal: Principal | undefined): HttpReply | Promise<HttpReply> {
    if (!isJsonContentType(request.headers.get(HEADER.contentType))) return reject(Rejections.UnsupportedMediaType);
    const accept = parseAccept(request.headers.get(HEADER.accept));
    if (!accept.json && !accept.sse) return reject(Rejections.NotAcceptable);
    return request.readBody(maxBody, bodies).then((bytes) => {
      if (bytes === undefined) return reject(Rejections.PayloadTooLarge);
      if (bytes === 'busy') return reject(Rejections.BodiesBusy, null, RETRY_AFTER);
      try {
        return postBody(request, accept, bytes, principal);
      } finally {
        // Parsed (or refused): its bytes are no longer held for it.
        bodies.give(bytes.byteLength);
      }
    });
  }

  function postBody(request: HttpRequest, accept: Acceptable, bytes: Uint8Array, principal: Principal | undefined): HttpReply | Promise<HttpReply> {
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return jsonReply(parseErrorResponse(), 400);
    }
    // Depth is checked on the text before parsing, as on stdio (the server's `limits.maxJsonDepth`).
    const parsed = parseMessage(text, maxDepth);
    if (!parsed.ok) return jsonReply(parsed.response, 400);
    // Sessions turned off: a session header names nothing (and is ignored).
    const sessionId = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
    const routeIn = (session: Session | undefined): HttpReply | Promise<HttpReply> => {
      let resolved = resolve(parsed.value, {
        session: session?.connection.session,
        http: { headers: request.headers, unknownSession: sessionId !== null && !session },
      });
      if (resolved.kind === 'answer') return jsonReply(resolved.response, resolved.status);
      // Who the token names goes with the request to its handlers (ctx.principal).
      if (principal && resolved.kind === 'request') resolved = { ...resolved, facts: { ...resolved.facts, principal } };
      if (resolved.scope === 'stateless') return stateless.post(request, resolved, accept);
      return sessions.post(request, resolved, accept, session);
    };
    // The resolver is synchronous: a shared session is looked up (and rebuilt) before it.
    return sessionId === null ? routeIn(undefined) : lookup.find(sessionId.trim(), principal, routeIn);
  }

  function route(request: HttpRequest): HttpReply | Promise<HttpReply> {
    // Health checks first: they pass no Host, Origin or token check and reveal nothing (health.ts).
    // (Unless the MCP endpoint itself was put at one of their paths.)
    const health = request.pathname === path ? undefined : healthReply(request, lifecycle.state === 'serving', options.ready);
    if (health) return health;
    if (lifecycle.state !== 'serving') return reject(Rejections.ShuttingDown);
    // DNS-rebinding defence first, before anything else is revealed.
    if (!hostAllowed(request.host)) return reject(Rejections.HostNotAllowed);
    const origin = request.headers.get(HEADER.origin);
    if (origin === null) return routeAllowed(request);
    if (!originAllowed(origin)) return reject(Rejections.OriginNotAllowed);
    // A browser page on an allowed origin: answer its preflight, and let it read the answers.
    if (request.method === 'OPTIONS') return preflight(request, origin, sessionsEnabled ? METHODS_ALLOWED : 'POST');
    const answer = routeAllowed(request);
    return answer instanceof Promise ? answer.then((reply) => withCors(reply, origin)) : withCors(answer, origin);
  }

  /** Routes a request that passed the DNS-rebinding checks. */
  function routeAllowed(request: HttpRequest): HttpReply | Promise<HttpReply> {
    const { pathname } = request;
    const own = extraRoute(request);
    if (own) return own;
    if ((oauth || authorizationServers) && (pathname === METADATA_PATH || pathname === `${METADATA_PATH}${path}`)) {
      const endpoint = new URL(path, request.origin);
      if (request.method !== 'GET' && request.method !== 'HEAD') return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: 'GET' });
      const document = oauth ? oauth.metadata(endpoint, server.info.name) : protectedResourceMetadata(endpoint, authorizationServers ?? [], server.info.name);
      return jsonReply(document, 200, {
        'Cache-Control': 'max-age=3600',
      });
    }
    if (pathname !== path) return reject(Rejections.NotFound, null, undefined, tokenValid && !authorizationServers ? NO_AUTHORIZATION_SERVER : undefined);
    if (tokenValid) {
      const authorization = request.headers.get(HEADER.authorization);
      if (!tokenValid(authorization)) {
        const metadataFor = authorizationServers ? new URL(path, request.origin) : undefined;
        return reject(Rejections.Unauthorized, null, {
          [HEADER.wwwAuthenticate]: challenge(metadataFor, authorization !== null ? 'invalid_token' : undefined),
        });
      }
    }
    // Authentication before everything the protocol checks (the resolver's 2026 header rules among them).
    if (oauth)
      return oauth
        .admit(request, new URL(path, request.origin))
        .then((admitted) => ('reply' in admitted ? admitted.reply : dispatch(request, admitted.principal)));
    return dispatch(request, undefined);
  }

  /** Routes an authenticated request to the MCP endpoint by its method. */
  function dispatch(request: HttpRequest, principal: Principal | undefined): HttpReply | Promise<HttpReply> {
    switch (request.method) {
      case 'POST':
        return post(request, principal);
      case 'GET':
        return lookup.named(request, principal, (session) => sessions.get(request, session));
      case 'DELETE':
        return lookup.named(request, principal, lookup.end);
      default:
        return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: sessionsEnabled ? METHODS_ALLOWED : 'POST' });
    }
  }

  function failed(error: unknown): HttpReply {
    logger.error('Unexpected failure in the HTTP handler', error);
    return reject(Rejections.Internal);
  }

  function reply(request: HttpRequest): Promise<HttpReply> {
    let answer: HttpReply | Promise<HttpReply>;
    try {
      answer = route(request);
    } catch (error) {
      answer = failed(error);
    }
    return answer instanceof Promise ? answer.then(undefined, failed) : Promise.resolve(answer);
  }

  const handler: HttpHandler = {
    async fetch(request) {
      let adapted: HttpRequest;
      try {
        adapted = fromWebRequest(request);
      } catch (error) {
        return toWebResponse(failed(error));
      }
      return toWebResponse(await reply(adapted));
    },
    close: () => lifecycle.close(),
  };
  return withDirectReply(handler, reply);
}
