/**
 * One peer's conversation with the server: a stdio process, a legacy HTTP
 * session, or a single 2026-07-28 HTTP request. It acts on what the resolver
 * (protocol/resolve.ts) decided about each message: runs requests through
 * their revision, tracks them for cancellation, keeps the session that
 * `initialize` opens, and forwards change events to that session.
 *
 * One connection may carry both eras (2026-07-28 basic/versioning §Backward
 * Compatibility): a request with the per-request `_meta` is served without
 * the session; the others belong to it.
 */
import type { Logger, Principal } from '../core/context.js';
import type { Engine } from '../core/engine.js';
import type { Encoded } from '../jsonrpc/encoded.js';
import { ErrorCode, type ProtocolError } from '../jsonrpc/errors.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId, resultResponse } from '../jsonrpc/messages.js';
import { type LegacySession, type RequestFacts, type Resolved, type Revision, resolve, type ServerDescription } from '../protocol/index.js';
import { keptCapabilities, keptClientInfo } from './handshake.js';
import { InFlight, LazySignal, type Shared } from './in-flight.js';
import { Outgoing, type QuestionLimits, sessionBroker } from './outgoing.js';
import type { Peer } from './peer.js';

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
  /** The legacy session, once initialize has been answered. */
  readonly session: LegacySession | undefined;
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

/** Covers a legacy subscription to `subscribed`: the URI itself or a sub-resource of it. */
function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`);
}

/** Creates a connection bound to an engine and a peer; `questions` bounds what it asks the client (server/outgoing.ts). */
export function createConnection(engine: Engine, server: Encoded<ServerDescription>, peer: Peer, logger: Logger, questions: QuestionLimits): Connection {
  const inFlight = new Map<RequestId, InFlight>();
  let session: LegacySession | undefined;
  let stopEvents: (() => void) | undefined;
  const outgoing = peer.carriesRequests ? new Outgoing(peer, questions) : undefined;
  const shared: Shared = { engine, server, logger, peer, closed: false, shutdown: new LazySignal() };

  function startSession(revision: Revision, params: Record<string, unknown>, principal: Principal | undefined): LegacySession {
    // Only what the server uses of the handshake, within a small budget (handshake.ts): the session
    // outlives the request, here and in shared state, and a client may send megabytes there.
    session = {
      revision,
      version: revision.version,
      clientCapabilities: keptCapabilities(params.capabilities),
      clientInfo: keptClientInfo(params.clientInfo),
      initialized: false,
      subscriptions: new Set(),
    };
    const current = session;
    connection.session = current;
    stopEvents = engine.watch((event) => {
      // Nothing but pings and logs before `initialized` (2025-06-18 lifecycle §Initialization).
      if (shared.closed || !current.initialized) return;
      if (event.type === 'resourceUpdated' && ![...current.subscriptions].some((s) => covers(s, event.uri))) return;
      // A subscription (to a prefix, say) tells its session nothing of what the session's caller may not use.
      if (event.type === 'resourceUpdated' && !engine.mayRead(event.uri, principal)) return;
      const notification = current.revision.encodeEvent(event);
      if (notification) peer.send(notification);
    });
    return session;
  }

  /**
   * Starts a request's handler. Not an async function, and the wait is in
   * {@link settle}, which is not given the request: V8 keeps an async
   * function's parameters until it returns, and a listen request (2026-07-28)
   * stays open as long as the client likes; it must not keep its message.
   */
  function run(request: JsonRpcRequest, revision: Revision, legacy: LegacySession | undefined, facts: RequestFacts): Promise<JsonRpcResponse | undefined> {
    const handler = revision.methods.get(request.method);
    if (!handler) {
      return Promise.resolve(errorResponse(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`, { method: request.method }));
    }
    if (inFlight.has(request.id)) {
      // 2026-07-28 basic/index: an id must not be reused while its request is pending.
      return Promise.resolve(errorResponse(request.id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(request.id)} is already in use`));
    }
    const entry = new InFlight(shared, request.id, legacy, revision, facts);
    if (legacy && outgoing) entry.inputs = sessionBroker(outgoing, legacy, revision, request.id);
    inFlight.set(request.id, entry);
    let pending: Promise<Record<string, unknown>>;
    try {
      pending = handler(request.params ?? NO_PARAMS, entry);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return settle(entry, revision, pending);
  }

  async function settle(entry: InFlight, revision: Revision, pending: Promise<Record<string, unknown>>): Promise<JsonRpcResponse | undefined> {
    try {
      const result = await pending;
      return entry.cancelled ? undefined : resultResponse(entry.id, result);
    } catch (error) {
      if (entry.cancelled) return undefined;
      const wire = revision.encodeError(error, logger);
      return errorResponse(entry.id, wire.code, wire.message, wire.data);
    } finally {
      inFlight.delete(entry.id);
      // Questions the handler left unanswered are of no use any more.
      outgoing?.abandon(entry.id, new Error('The request ended'), true);
    }
  }

  /** Acts on the resolver's decision about one message. */
  function handle(resolved: Resolved): Promise<JsonRpcResponse | undefined> {
    switch (resolved.kind) {
      case 'answer':
        return Promise.resolve(resolved.response);
      case 'response':
        // The answer to a question of the server's; anything else has nothing to match.
        if (!outgoing?.answer(resolved.response)) logger.debug('Ignored a response message');
        return Promise.resolve(undefined);
      case 'notification':
        handleNotification(resolved.notification);
        return Promise.resolve(undefined);
      case 'request': {
        const { request, revision, facts } = resolved;
        switch (resolved.scope) {
          case 'stateless':
            return run(request, revision, undefined, facts);
          case 'initialize':
            if (!session) return run(request, revision, startSession(revision, request.params ?? {}, facts.principal), facts);
            break;
          case 'session':
            if (session) return run(request, session.revision, session, facts);
            break;
          case 'sessionless':
            break;
        }
        // Decided for another connection (a transport's mistake): decided again for this one, so
        // its answer is the resolver's (already initialized, no session).
        return handle(resolve(request, { session }));
      }
    }
  }

  function handleNotification(notification: JsonRpcNotification): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/initialized':
        if (session) session.initialized = true;
        return;
      case 'notifications/cancelled': {
        const id = params.requestId;
        if (typeof id !== 'string' && typeof id !== 'number') return;
        const entry = inFlight.get(id);
        // Unknown or finished ids are ignored (2025-06-18 utilities/cancellation).
        if (!entry) return;
        entry.cancel(params.reason ?? 'cancelled');
        outgoing?.abandon(entry.id, new Error('The request was cancelled'), true);
        return;
      }
      default:
        logger.debug(`Ignored notification ${notification.method}`);
    }
  }

  // A data property kept in step with `session` rather than a getter: an object
  // literal with an accessor is slow to create, and a 2026-07-28 HTTP request
  // creates a connection each time.
  const connection: Omit<Connection, 'session'> & { session: LegacySession | undefined } = {
    session: undefined,
    receive(message) {
      return handle(resolve(message, { session }));
    },
    handle,
    resolve: (message) => resolve(message, { session }),
    refuse(resolved, error) {
      if (resolved.kind === 'answer') return resolved.response;
      if (resolved.kind !== 'request') return undefined;
      const wire = resolved.revision.encodeError(error, logger);
      return errorResponse(resolved.request.id, wire.code, wire.message, wire.data);
    },
    close(reason) {
      shared.shutdown.abort(reason);
      if (reason === 'shutdown') return;
      shared.closed = true;
      for (const entry of inFlight.values()) entry.cancel(reason);
      outgoing?.abandon(undefined, new Error('The connection closed'), false);
      stopEvents?.();
      stopEvents = undefined;
    },
  };
  return connection;
}
