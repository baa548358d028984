/**
 * The Streamable HTTP transport as a handler with one public entry,
 * `reply(HttpRequest): Promise<HttpReply>`, which both adapters call: the
 * web one (`fetch`, web.ts: `(Request) => Promise<Response>`, for any
 * framework that speaks the Fetch API: Hono, Bun, Deno, workers) and the
 * node:http one ({@link toNodeHandler}, node.ts).
 *
 * `reply` runs a request through stages, each a module of its own:
 *
 * 1. the route table (routes.ts) picks the route by path; an `open` route
 *    (health.ts) answers at once;
 * 2. the guards (guards.ts): shutdown, `Host`, `Origin` (DNS rebinding),
 *    CORS; a path without a route is 404 here;
 * 3. a `guarded` route (webhooks, the metadata document) answers; an
 *    `authorized` one passes the AuthGate first (auth/gate.ts: the static
 *    token or OAuth), whose principal it gets;
 * 4. the MCP endpoint (mcp-endpoint.ts): media types, body cap, JSON, the
 *    resolver, then the stateless route or the sessions, which this module
 *    creates and drains but does not run.
 *
 * One endpoint serves every revision at once.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../../jsonrpc/messages.js';
import { type Logger, type Server, silentLogger } from '../../server/index.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, type Drainable, drain } from '../lifecycle.js';
import { memoryLists } from '../shared-state.js';
import { sharedTaskStore } from '../task-store.js';
import { type AuthGate, createAuthGate } from './auth/gate.js';
import { Rejections, reject } from './errors.js';
import { createUserRoutes } from './extra-routes.js';
import { createGuards, type Guards, guard, type Pass } from './guards.js';
import { mcpEndpoint } from './mcp-endpoint.js';
import { httpMetrics } from './metrics.js';
import type { HttpHandler, HttpOptions } from './options.js';
import { createBodyBudget, type HttpReply, type HttpRequest, type Reply, type Route } from './request.js';
import { type RouteTable, routeTable } from './routes.js';
import { createSessionLookup, type SessionLookup } from './sessions/lookup.js';
import { createResumption, resumptionSettings } from './sessions/resume.js';
import { createSessionRoutes, type RouteContext, type SessionRoutes } from './sessions/routes.js';
import { createSharedSessions, type SharedSessions } from './sessions/shared.js';
import { createSessionStore, type Session, type SessionStore } from './sessions/store.js';
import { createStatelessRoute } from './stateless-route.js';
import { createStreamCaps } from './stream-caps.js';
import { webFetch } from './web.js';

const METHODS_ALLOWED = 'GET, POST, DELETE';

/** What the stages of one handler share. */
interface Stages {
  readonly routes: RouteTable;
  readonly guards: Guards;
  readonly gate: AuthGate;
  /** Stage 3, made once: a request that passed the guards, to its route. */
  readonly pass: Pass;
  readonly failed: (error: unknown) => HttpReply;
  /** With `metrics`: every reply passes here, so its refusal is counted (metrics.ts). */
  readonly counted: ((reply: HttpReply) => HttpReply) | undefined;
}

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
  const maxBufferedBody = options.maxBufferedBodyBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBufferedBody) || maxBufferedBody < 1) throw new TypeError('maxBufferedBodyBytes must be a positive integer');
  // The routes and the gate the options configure, checked before anything is opened.
  const userRoutes = createUserRoutes(options, path);
  const gate = createAuthGate(options, path, server.info.name, logger);
  const sessionsEnabled = options.sessions ?? true;
  const methods = sessionsEnabled ? METHODS_ALLOWED : 'POST';
  const answers = countAnswers();
  // Made before the sessions it counts: the gauge reads them only when scraped.
  let openNow = (): number => 0;
  const metrics = options.metrics && httpMetrics(options.metrics, () => openNow());
  const context: RouteContext = {
    keepAliveMs: options.keepAliveMs ?? 15_000,
    track: answers.track,
    internalError: (id, error) => internalError(logger, id, error),
    // Long-lived streams (listen requests, GET streams), overall and per client (stream-caps.ts).
    takeStream: createStreamCaps(options.maxStreams ?? 1000, options.maxStreamsPerClient ?? 32, options.trustProxy === true, metrics?.streams),
  };
  // The server's tasks live in the shared state too: any replica reads, cancels and answers any task.
  if (options.shared) server.tasks.useStore(sharedTaskStore(options.shared));
  const sessions = openSessions(server, options, logger, methods, context);
  openNow = sessions.count;
  const stateless = createStatelessRoute(server, context);
  const lifecycle = createLifecycle(async () => {
    sessions.stop();
    await drain({
      // The one-request connections of the stateless route, then the sessions.
      connections: () => [...stateless.inFlight, ...sessions.drainable()],
      settled: answers.settled,
      timeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
    });
  });
  const serving = (): boolean => lifecycle.state === 'serving';
  const endpoint = mcpEndpoint({
    path,
    maxBody: options.maxBodyBytes ?? server.limits.maxMessageBytes,
    bodies: createBodyBudget(maxBufferedBody),
    maxDepth: server.limits.maxJsonDepth,
    sessionsEnabled,
    methods,
    lookup: sessions.lookup,
    sessions: sessions.routes,
    stateless,
    observed: () => server.observed,
  });
  const routes = routeTable({ server, options, path, endpoint, userRoutes, authRoutes: gate.routes, serving });
  const failed = (error: unknown): HttpReply => {
    logger.error('Unexpected failure in the HTTP handler', error);
    return reject(Rejections.Internal);
  };
  const stages: Stages = {
    routes,
    guards: createGuards(options, methods, serving),
    gate,
    pass: (request, route) => enter(stages, request, route),
    failed,
    counted: metrics?.counted,
  };
  const reply = (request: HttpRequest): Promise<HttpReply> => replyTo(stages, request);
  return { fetch: webFetch(reply, failed), reply, close: () => lifecycle.close() };
}

/** The handler's `reply`: the stages, and any failure among them as a 500. Never rejects. */
function replyTo(stages: Stages, request: HttpRequest): Promise<HttpReply> {
  let answer: Reply;
  try {
    // Stage 1: the route by path; an open one (health) before every guard.
    const route = stages.routes.get(request.pathname);
    answer = route !== undefined && route.access === 'open' ? route.answer(request, undefined) : guard(stages.guards, request, route, stages.pass);
  } catch (error) {
    answer = stages.failed(error);
  }
  const { counted } = stages;
  // One turn, whether or not metrics count the reply: the count rides on the same `then`.
  if (answer instanceof Promise)
    return counted === undefined ? answer.then(undefined, stages.failed) : answer.then(counted, (error) => counted(stages.failed(error)));
  return Promise.resolve(counted === undefined ? answer : counted(answer));
}

/** Stage 3: a request that passed the guards, to its route, through the AuthGate when the route asks. */
function enter(stages: Stages, request: HttpRequest, route: Route | undefined): Reply {
  if (route === undefined) return reject(Rejections.NotFound, null, undefined, stages.gate.notFoundDetail);
  if (route.access !== 'authorized') return route.answer(request, undefined);
  const admission = stages.gate.admit(request);
  if (admission instanceof Promise) return admission.then((admitted) => ('reply' in admitted ? admitted.reply : route.answer(request, admitted.principal)));
  return 'reply' in admission ? admission.reply : route.answer(request, admission.principal);
}

function internalError(logger: Logger, id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse {
  logger.error('Unexpected failure while handling a request', error);
  return errorResponse(id, ErrorCode.InternalError, 'Internal error');
}

/** Answers in flight, so close() can wait for them. */
function countAnswers(): { track: () => () => void; settled: () => Promise<void> } {
  let answering = 0;
  let allAnswered: (() => void) | undefined;
  return {
    /** Counts an answer in flight until the returned function is called (once). */
    track() {
      answering++;
      let counted = true;
      return () => {
        if (!counted) return;
        counted = false;
        if (--answering === 0) allAnswered?.();
      };
    },
    settled: () =>
      new Promise<void>((resolve) => {
        allAnswered = resolve;
        if (answering === 0) resolve();
      }),
  };
}

/** The legacy sessions of a handler: their store, shared state, lookup and routes, called by the MCP endpoint. */
interface Sessions {
  readonly lookup: SessionLookup;
  readonly routes: SessionRoutes;
  /** Stops the sweeper and the shared state's subscriptions. */
  stop(): void;
  /** Each session as the drain ends it. */
  drainable(): Drainable[];
  /** How many this handler holds now. */
  count(): number;
}

function openSessions(server: Server, options: HttpOptions, logger: Logger, methods: string, context: RouteContext): Sessions {
  const sessionsEnabled = options.sessions ?? true;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  // With shared state a message for a session without a GET stream is not kept: the stream may reopen elsewhere.
  const store = createSessionStore({ idleMs, maxSessions: options.maxSessions ?? 1000, backlog: !options.shared });
  const shared: SharedSessions | undefined =
    options.shared && sessionsEnabled ? createSharedSessions(options.shared, store, server, idleMs, logger) : undefined;
  const lookup = createSessionLookup(store, shared, sessionsEnabled, methods, logger);
  const sweepMs = options.sessionSweepMs ?? Math.max(1000, Math.min(idleMs / 2, 60_000));
  if (options.sessionSweepMs !== undefined && (!Number.isSafeInteger(sweepMs) || sweepMs < 1)) throw new TypeError('sessionSweepMs must be a positive integer');
  const sweeper = setInterval(() => {
    store.sweep();
    shared?.refresh();
  }, sweepMs);
  (sweeper as { unref?: () => void }).unref?.();
  const settings = resumptionSettings(options.resumption);
  // Event ids and replay (resume.ts): the events in Redis with shared state, else in memory.
  const resumption = settings && sessionsEnabled ? createResumption(settings, options.shared ?? memoryLists(), options.shared, store, logger) : undefined;
  const routes = createSessionRoutes(server, store, sessionsEnabled, logger, {
    ...context,
    ...(shared ? { saved: shared.saved } : {}),
    ...(resumption ? { resumption } : {}),
  });
  return {
    lookup,
    routes,
    stop() {
      clearInterval(sweeper);
      shared?.close();
      resumption?.close();
    },
    drainable: () => store.all().map((session) => drainable(store, session)),
    count: () => store.size,
  };
}

/**
 * A session as the drain ends it: on shutdown its connection finishes what
 * it has and its GET stream ends at once, cleanly (it carries nothing a
 * client waits for); on disconnect the session ends.
 */
function drainable(store: SessionStore, session: Session): Drainable {
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
