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
import type { ProtocolError } from '../jsonrpc/errors.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcResponse } from '../jsonrpc/messages.js';
import { type LegacySession, type Resolved, resolve, type ServerDescription } from '../protocol/index.js';
import { LazySignal } from './in-flight.js';
import { InFlightTable } from './in-flight-table.js';
import type { Observers, SessionEnd } from './observer.js';
import { Outgoing, type QuestionLimits } from './outgoing.js';
import type { Peer } from './peer.js';
import { type Running, run } from './run-request.js';
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

/** Everything a connection holds: what its requests share, its session, and what is in flight. */
interface State extends Running, SessionSlot {
  readonly server: Encoded<ServerDescription>;
  /** Called when the session this connection opened ends, if an observer asked. */
  sessionEnd: SessionEnd | undefined;
}

/**
 * A connection as its transport holds it: methods on a prototype, so making
 * one (a 2026-07-28 HTTP request makes one each time) is one object rather
 * than a closure per method. `session` is a data property kept in step with
 * the state's (session.ts sets it through `view`) rather than a getter.
 */
class ConnectionView implements Connection {
  session: LegacySession | undefined = undefined;
  readonly #state: State;

  constructor(build: (view: ConnectionView) => State) {
    this.#state = build(this);
  }

  receive(message: unknown): Promise<JsonRpcResponse | undefined> {
    const state = this.#state;
    return handle(state, resolve(message, { session: state.session }));
  }

  handle(resolved: Resolved): Promise<JsonRpcResponse | undefined> {
    return handle(this.#state, resolved);
  }

  resolve(message: unknown): Resolved {
    return resolve(message, { session: this.#state.session });
  }

  refuse(resolved: Resolved, error: ProtocolError): JsonRpcResponse | undefined {
    return refuse(this.#state, resolved, error);
  }

  snapshot(): SessionSnapshot | undefined {
    return snapshotSession(this.#state);
  }

  update(snapshot: unknown): boolean {
    return updateSession(this.#state, snapshot);
  }

  close(reason: CloseReason): void {
    close(this.#state, reason);
  }
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
  let state!: State;
  const connection = new ConnectionView((view) => {
    state = {
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
      view,
      inFlight: new InFlightTable(),
      outgoing: peer.carriesRequests ? new Outgoing(peer, questions) : undefined,
      observers,
      sessionEnd: undefined,
    };
    return state;
  });
  if (restore !== undefined) restoreSession(state, restore);
  return connection;
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
