/**
 * One peer's conversation with the server: a stdio process, a legacy HTTP
 * session, or a single 2026-07-28 HTTP request. It acts on what the resolver
 * (protocol/resolve.ts) decided about each message: runs requests through
 * their revision, tracks them for cancellation, and keeps the session that
 * `initialize` opens or a snapshot restores (session.ts). Its state is one
 * object, which the module's functions take: one connection per 2026-07-28
 * HTTP request makes few closures.
 *
 * One connection may carry both eras (2026-07-28 basic/versioning §Backward
 * Compatibility): a request with the per-request `_meta` is served without
 * the session; the others belong to it.
 */
import type { Logger } from '../core/context.js';
import type { Engine } from '../core/engine.js';
import type { Tasks } from '../core/tasks.js';
import type { Encoded } from '../jsonrpc/encoded.js';
import { ErrorCode, type ProtocolError } from '../jsonrpc/errors.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId, resultResponse } from '../jsonrpc/messages.js';
import { type LegacySession, type RequestFacts, type Resolved, type Revision, resolve, type ServerDescription } from '../protocol/index.js';
import { InFlight, LazySignal, type Shared } from './in-flight.js';
import { type Observers, type RequestEnd, type SessionEnd, tellEnd } from './observer.js';
import { Outgoing, type QuestionLimits, sessionBroker } from './outgoing.js';
import type { Peer } from './peer.js';
import { openSession, restoreSession, type SessionSlot, snapshotSession, updateSession } from './session.js';
import type { SessionSnapshot } from './snapshot.js';

/** Why a connection closes: the peer went away, or the server is shutting down. */
export type CloseReason = 'disconnect' | 'shutdown';

/** A peer's connection, as a transport drives it. */
export interface Connection {
  /**
   * Handles one parsed JSON value: resolves it (in this connection's session,
   * if it has one) and acts on it. Resolves to the response to write, or
   * undefined for notifications, responses and cancelled requests.
   */
  receive(message: unknown): Promise<JsonRpcResponse | undefined>;
  /**
   * Acts on a message the transport already resolved (see protocol/resolve.ts),
   * so nothing about it is decided twice.
   */
  handle(resolved: Resolved): Promise<JsonRpcResponse | undefined>;
  /**
   * Resolves one parsed JSON value in this connection's session without
   * acting on it. A transport with a cap of its own (stdio's listen cap)
   * decides on this reading of a message, its id and its era, then passes it
   * to `handle` or `refuse`: what it reads of the raw value itself may be an
   * id the protocol does not accept, or a request of another era.
   */
  resolve(message: unknown): Resolved;
  /**
   * The answer to a resolved message the transport will not run, because of
   * `error` (a cap of its own): the error as the request's revision encodes
   * it. The resolver's own answer where it has one (an invalid message:
   * -32600 with id null, JSON-RPC 2.0 §5); undefined for what is never
   * answered (notifications, responses).
   */
  refuse(resolved: Resolved, error: ProtocolError): JsonRpcResponse | undefined;
  /** The legacy session, once initialize has been answered (or restored). */
  readonly session: LegacySession | undefined;
  /**
   * The legacy session as plain data (server/snapshot.ts), from which
   * `connect(peer, { restore })` makes a connection that carries it on;
   * undefined without a session.
   */
  snapshot(): SessionSnapshot | undefined;
  /**
   * Brings the session's settings (initialized, log level, subscriptions) to
   * those of a snapshot of the same session taken elsewhere (a replica);
   * the snapshot is checked as untrusted. False, changing nothing, when it is
   * refused or there is no session.
   */
  update(snapshot: unknown): boolean;
  /**
   * On `shutdown`, long-lived requests (listen) end with their normal result
   * (2026-07-28 subscriptions: the server SHOULD answer the listen request when
   * it ends the stream) and other in-flight requests finish. On `disconnect`
   * every in-flight request is cancelled and nothing more is sent.
   */
  close(reason: CloseReason): void;
}

/** Handlers get these when a request has none (never mutated: frozen). */
const NO_PARAMS: Record<string, unknown> = Object.freeze({});

/** Everything a connection holds: what its requests share, its session, and what is in flight. */
interface State extends Shared, SessionSlot {
  readonly server: Encoded<ServerDescription>;
  readonly inFlight: Map<RequestId, InFlight>;
  readonly outgoing: Outgoing | undefined;
  /** The server's observers, read as each request starts (server/observer.ts). */
  readonly observers: Observers;
  /** Called when the session this connection opened ends, if an observer asked. */
  sessionEnd: SessionEnd | undefined;
}

/**
 * Creates a connection bound to an engine and a peer; `questions` bounds what
 * it asks the client (server/outgoing.ts). With `restore`, it carries on the
 * session of that snapshot (throws a TypeError when the snapshot is refused).
 */
export function createConnection(
  engine: Engine,
  server: Encoded<ServerDescription>,
  peer: Peer,
  logger: Logger,
  questions: QuestionLimits,
  observers: Observers,
  tasks: Tasks,
  restore?: unknown,
): Connection {
  // A data property kept in step with the session rather than a getter: an object
  // literal with an accessor is slow to create, and a 2026-07-28 HTTP request
  // creates a connection each time.
  const connection: Connection & { session: LegacySession | undefined } = {
    session: undefined,
    receive: (message) => handle(state, resolve(message, { session: state.session })),
    handle: (resolved) => handle(state, resolved),
    resolve: (message) => resolve(message, { session: state.session }),
    refuse: (resolved, error) => refuse(state, resolved, error),
    snapshot: () => snapshotSession(state),
    update: (snapshot) => updateSession(state, snapshot),
    close: (reason) => close(state, reason),
  };
  const state: State = {
    engine,
    server,
    logger,
    peer,
    closed: false,
    shutdown: new LazySignal(),
    tasks,
    session: undefined,
    principal: undefined,
    stopEvents: undefined,
    view: connection,
    inFlight: new Map(),
    outgoing: peer.carriesRequests ? new Outgoing(peer, questions) : undefined,
    observers,
    sessionEnd: undefined,
  };
  if (restore !== undefined) restoreSession(state, restore);
  return connection;
}

/**
 * Starts a request's handler. Not an async function, and the wait is in
 * {@link settle}, which is not given the request: V8 keeps an async
 * function's parameters until it returns, and a listen request (2026-07-28)
 * stays open as long as the client likes; it must not keep its message.
 */
function run(
  state: State,
  request: JsonRpcRequest,
  revision: Revision,
  legacy: LegacySession | undefined,
  facts: RequestFacts,
): Promise<JsonRpcResponse | undefined> {
  const handler = revision.methods.get(request.method);
  if (!handler) {
    return Promise.resolve(errorResponse(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`, { method: request.method }));
  }
  if (state.inFlight.has(request.id)) {
    // 2026-07-28 basic/index: an id must not be reused while its request is pending.
    return Promise.resolve(errorResponse(request.id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(request.id)} is already in use`));
  }
  const entry = new InFlight(state, request.id, legacy, revision, facts);
  if (legacy && state.outgoing) entry.inputs = sessionBroker(state.outgoing, legacy, revision, request.id);
  state.inFlight.set(request.id, entry);
  const params = request.params ?? NO_PARAMS;
  // Told before the handler runs, so what it measures includes the handler.
  const end = state.observers.current?.request?.({
    method: request.method,
    id: request.id,
    params,
    protocolVersion: revision.version,
    facts,
    peer: state.peer,
  });
  let pending: Promise<Record<string, unknown>>;
  try {
    pending = handler(params, entry);
  } catch (error) {
    pending = Promise.reject(error);
  }
  return settle(state, entry, revision, pending, end);
}

/**
 * The response to a request whose handler ran, once its result or failure
 * is in; the observers' end is told here, not in a `then` of its own (one
 * promise turn less per observed request).
 */
async function settle(
  state: State,
  entry: InFlight,
  revision: Revision,
  pending: Promise<Record<string, unknown>>,
  end: RequestEnd | undefined,
): Promise<JsonRpcResponse | undefined> {
  let response: JsonRpcResponse | undefined;
  try {
    const result = await pending;
    response = entry.cancelled ? undefined : resultResponse(entry.id, result);
  } catch (error) {
    if (!entry.cancelled) {
      const wire = revision.encodeError(error, state.logger);
      response = errorResponse(entry.id, wire.code, wire.message, wire.data);
    }
  } finally {
    entry.end();
    state.inFlight.delete(entry.id);
    // Questions the handler left unanswered are of no use any more.
    state.outgoing?.abandon(entry.id, 'The request ended', true);
  }
  if (end !== undefined) tellEnd(end, response);
  return response;
}

/** Acts on the resolver's decision about one message. */
function handle(state: State, resolved: Resolved): Promise<JsonRpcResponse | undefined> {
  switch (resolved.kind) {
    case 'answer':
      return Promise.resolve(resolved.response);
    case 'response':
      // The answer to a question of the server's; anything else has nothing to match.
      if (!state.outgoing?.answer(resolved.response)) state.logger.debug('Ignored a response message');
      return Promise.resolve(undefined);
    case 'notification':
      handleNotification(state, resolved.notification);
      return Promise.resolve(undefined);
    case 'request': {
      const { request, revision, facts } = resolved;
      const session = state.session;
      switch (resolved.scope) {
        case 'stateless':
          return run(state, request, revision, undefined, facts);
        case 'opening':
          if (!session) {
            const opened = openSession(state, revision, request.params ?? {}, facts.principal);
            state.sessionEnd = state.observers.current?.session?.(revision.version, state.peer);
            return run(state, request, revision, opened, facts);
          }
          break;
        case 'session':
          if (session) return run(state, request, session.revision, session, facts);
          break;
        case 'sessionless':
          break;
      }
      // Decided for another connection (a transport's mistake): decided again for this one, so
      // its answer is the resolver's (already initialized, no session).
      return handle(state, resolve(request, { session }));
    }
  }
}

function handleNotification(state: State, notification: JsonRpcNotification): void {
  const params = notification.params ?? {};
  switch (notification.method) {
    case 'notifications/initialized':
      if (state.session) state.session.initialized = true;
      return;
    case 'notifications/cancelled': {
      const id = params.requestId;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      const entry = state.inFlight.get(id);
      // Unknown or finished ids are ignored (2025-06-18 utilities/cancellation).
      if (!entry) return;
      entry.cancel(params.reason ?? 'cancelled');
      state.outgoing?.abandon(entry.id, 'The request was cancelled', true);
      return;
    }
    default:
      state.logger.debug(`Ignored notification ${notification.method}`);
  }
}

function refuse(state: State, resolved: Resolved, error: ProtocolError): JsonRpcResponse | undefined {
  if (resolved.kind === 'answer') return resolved.response;
  if (resolved.kind !== 'request') return undefined;
  const wire = resolved.revision.encodeError(error, state.logger);
  return errorResponse(resolved.request.id, wire.code, wire.message, wire.data);
}

function close(state: State, reason: CloseReason): void {
  state.shutdown.abort(reason);
  if (reason === 'shutdown') return;
  state.closed = true;
  for (const entry of state.inFlight.values()) entry.cancel(reason);
  state.outgoing?.abandon(undefined, 'The connection closed', false);
  state.stopEvents?.();
  state.stopEvents = undefined;
  state.sessionEnd?.();
  state.sessionEnd = undefined;
}
