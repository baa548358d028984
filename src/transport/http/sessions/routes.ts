/**
 * The session routes, for the revisions that start with initialize
 * (2025-06-18 and 2025-11-25 basic/transports §Streamable HTTP): initialize
 * opens a session whose id every later request carries; requests are
 * answered as JSON (or one SSE event for a client that accepts only SSE); the
 * session's GET stream carries what the server sends unprompted. With
 * sessions turned off, each request is answered from a session restored for
 * it alone. The resolver has already decided what each message is; nothing
 * here names a method.
 */
import type { JsonRpcRequest, JsonRpcResponse } from '../../../jsonrpc/messages.js';
import { type Resolved, sessionVersionRefused, versionHeader } from '../../../protocol/index.js';
import { type Logger, principalId, type Server } from '../../../server/index.js';
import { RETRY_AFTER, Rejections, reject } from '../errors.js';
import { createExchange, type Exchange, jsonReply } from '../exchange.js';
import { type Acceptable, HEADER, parseAccept } from '../headers.js';
import type { HttpReply, HttpRequest } from '../request.js';
import { createSseStream, sseHeaders } from '../sse.js';
import type { Resumption } from './resume.js';
import { attachStream, type Session, type SessionStore } from './store.js';

/** What the routes need from the handler. */
export interface RouteContext {
  keepAliveMs: number;
  /** Counts an answer in flight, so close() can wait for it; call the returned function when it is complete. */
  track(): () => void;
  /** Logs an unexpected failure and turns it into a -32603 response. */
  internalError(id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse;
  /** Takes a place for a long-lived stream; undefined when the caps are reached. */
  takeStream(request: HttpRequest): (() => void) | undefined;
  /**
   * Told after each message a session handled, so shared state can record it
   * (shared.ts); a promise when it writes, which the answer waits
   * for (the client's next request may land on another replica), false when
   * the write failed.
   */
  saved?(session: Session): Promise<boolean> | undefined;
  /** Resumable streams for the sessions whose revision resumes them (resume.ts); none when turned off. */
  resumption?: Resumption;
}

/** The session routes. */
export interface SessionRoutes {
  /** A POST the resolver gave to a session revision, in `session` when it named a known one. */
  post(request: HttpRequest, resolved: Exclude<Resolved, { kind: 'answer' }>, accept: Acceptable, session: Session | undefined): HttpReply | Promise<HttpReply>;
  /** A GET on a known session: its SSE stream. */
  get(request: HttpRequest, session: Session): HttpReply | Promise<HttpReply>;
}

/** 202 with no body; a new reply each time, since CORS adds its headers to it. */
const accepted = (): HttpReply => ({ status: 202, headers: {} });

/** What the routes work with: the handler's server, store and context. */
interface Routes {
  readonly server: Server;
  readonly store: SessionStore;
  readonly sessionsEnabled: boolean;
  readonly logger: Logger;
  readonly context: RouteContext;
  readonly saved: (session: Session) => Promise<boolean> | undefined;
}

/** Creates the session routes over a handler's session store. */
export function createSessionRoutes(server: Server, store: SessionStore, sessionsEnabled: boolean, logger: Logger, context: RouteContext): SessionRoutes {
  const routes: Routes = { server, store, sessionsEnabled, logger, context, saved: context.saved ?? (() => undefined) };
  return {
    post: (request, resolved, accept, session) => post(routes, request, resolved, accept, session),
    get: (request, session) => openStream(routes, request, session),
  };
}

function post(
  routes: Routes,
  request: HttpRequest,
  resolved: Exclude<Resolved, { kind: 'answer' }>,
  accept: Acceptable,
  session: Session | undefined,
): HttpReply | Promise<HttpReply> {
  if (session) {
    session.lastActive = Date.now();
    // Notifications and responses (the answers to the server's own questions) go to the
    // session, and get 202 with no body (2025-06-18 basic/transports §Sending Messages).
    if (resolved.kind !== 'request')
      return session.connection
        .handle(resolved)
        .then(() => routes.saved(session))
        .then(accepted);
    return answer(routes, session, () => session.connection.handle(resolved), resolved.request.id, accept, undefined, request);
  }
  if (resolved.kind === 'request' && resolved.scope === 'opening') return initialize(routes, resolved, accept);
  if (routes.sessionsEnabled) return reject(Rejections.SessionRequired, resolved.kind === 'request' ? resolved.request.id : null);
  if (resolved.kind !== 'request') return accepted();
  return alone(routes, resolved, accept);
}

/** Answers one request of `session` (or of no session) through an exchange; the answer waits for the session's record to be written. */
function answer(
  routes: Routes,
  session: Session | undefined,
  run: (exchange: Exchange) => Promise<JsonRpcResponse | undefined>,
  id: JsonRpcRequest['id'],
  accept: Acceptable,
  headers?: Record<string, string>,
  request?: HttpRequest,
): Promise<HttpReply> {
  const { keepAliveMs, track, takeStream, internalError } = routes.context;
  // Session revisions' JSON-RPC errors are ordinary answers: 200 (they name no other status).
  // A session request may ask its client something: it then holds one of the client's stream places.
  const exchange = createExchange({
    accept,
    keepAliveMs,
    statusFor: () => 200,
    onDone: track(),
    ...(headers ? { headers } : {}),
    ...(request ? { takeStream: () => takeStream(request) } : {}),
    ...(session ? routes.context.resumption?.forPost(session) : {}),
  });
  if (session) {
    session.inFlight++;
    session.exchanges.set(id, exchange);
  }
  const settle = (response: JsonRpcResponse | undefined): void => {
    const finish = (): void => {
      exchange.finish(response);
      if (!session) return;
      session.exchanges.delete(id);
      session.inFlight--;
      session.lastActive = Date.now();
    };
    const writing = session ? routes.saved(session) : undefined;
    if (writing) writing.then(finish);
    else finish();
  };
  run(exchange).then(settle, (error: unknown) => settle(internalError(id, error)));
  return exchange.response;
}

/** `initialize`: opens a session (not reachable until it is answered, registered and, with shared state, recorded). */
function initialize(routes: Routes, resolved: Extract<Resolved, { kind: 'request' }>, accept: Acceptable): Promise<HttpReply> {
  const { server, store, sessionsEnabled } = routes;
  const id = resolved.request.id;
  if (!sessionsEnabled) {
    const connection = server.connect({ send() {}, network: 'tcp' });
    return answer(routes, undefined, () => connection.handle(resolved).finally(() => connection.close('disconnect')), id, accept);
  }
  const session = store.open(server);
  session.owner = principalId(resolved.facts.principal);
  return (async () => {
    let response: JsonRpcResponse | undefined;
    try {
      response = await session.connection.handle(resolved);
    } catch (error) {
      response = routes.context.internalError(id, error);
    }
    if (!response || !('result' in response)) {
      session.connection.close('disconnect');
      return answer(routes, undefined, async () => response, id, accept);
    }
    if (!store.register(session)) {
      session.connection.close('disconnect');
      return reject(Rejections.TooManySessions, id);
    }
    // A session other replicas cannot find would answer 404 there: with shared state out of reach it is not opened.
    if ((await routes.saved(session)) === false) {
      store.end(session.id);
      return reject(Rejections.SharedStateUnavailable, id, RETRY_AFTER);
    }
    routes.logger.debug(`Opened session ${session.id}`);
    return answer(routes, undefined, async () => response, id, accept, { [HEADER.sessionId]: session.id });
  })();
}

/**
 * Sessions turned off: a request is answered from a connection made for it
 * alone, carrying a session restored from data (no handshake replayed) at
 * the revision the resolver chose for it (the version header's, else the
 * oldest served): initialized, with no client capabilities and no settings.
 */
function alone(routes: Routes, resolved: Extract<Resolved, { kind: 'request' }>, accept: Acceptable): Promise<HttpReply> {
  const { request, revision } = resolved;
  let answering: Exchange | undefined;
  const restore = { version: revision.version, clientCapabilities: {}, initialized: true, subscriptions: [] };
  const connection = routes.server.connect(
    {
      // The request's own notifications (progress, log messages) go on its answer.
      send(message, relatedTo) {
        if (relatedTo === request.id && 'method' in message) answering?.notify(message);
      },
      network: 'tcp',
    },
    { restore },
  );
  const run = async (exchange: Exchange): Promise<JsonRpcResponse | undefined> => {
    answering = exchange;
    try {
      return await connection.handle({ ...resolved, scope: 'session' });
    } finally {
      connection.close('disconnect');
    }
  };
  return answer(routes, undefined, run, request.id, accept);
}

/** A GET on a known session: its SSE stream, or with `Last-Event-ID` the stream it resumes (resume.ts). */
function openStream(routes: Routes, request: HttpRequest, session: Session): HttpReply | Promise<HttpReply> {
  const { keepAliveMs, takeStream, resumption } = routes.context;
  const refused = sessionVersionRefused(versionHeader(request.headers), null);
  if (refused) return jsonReply(refused, 400);
  if (!parseAccept(request.headers.get(HEADER.accept)).sse) return reject(Rejections.StreamNotAcceptable);
  // Where streams do not resume, Last-Event-ID is ignored and the request opens a fresh stream.
  const resumes = resumption?.resumes(session) === true;
  const lastEventId = resumes ? request.headers.get(HEADER.lastEventId) : null;
  // A resume replaces a connection the server may still think open (the client saw it break).
  if (lastEventId === null && session.stream?.open) return reject(Rejections.StreamConflict);
  const release = takeStream(request);
  if (!release) return reject(Rejections.TooManyStreams);
  if (lastEventId !== null && resumption) return resumption.resume(session, lastEventId, keepAliveMs, release);
  const stream = createSseStream({
    keepAliveMs,
    onEnd: release,
    onCancel: () => {
      if (session.stream === stream) session.stream = undefined;
      session.events?.detach(stream);
      session.lastActive = Date.now();
    },
  });
  if (resumes && resumption) resumption.openGet(session, stream);
  else attachStream(session, stream);
  session.lastActive = Date.now();
  return { status: 200, headers: sseHeaders(), body: stream.body };
}
