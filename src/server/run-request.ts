/**
 * One request of a connection run through its revision's handler: its
 * `InFlight` context, tracked by id for cancellation, the observers told,
 * and its response once the handler settles (server/connection.ts decides
 * which requests run, in which session).
 */
import { ErrorCode } from '../jsonrpc/errors.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse, resultResponse } from '../jsonrpc/messages.js';
import type { LegacySession, RequestFacts, Revision } from '../protocol/index.js';
import { InFlight, type Shared } from './in-flight.js';
import type { InFlightTable } from './in-flight-table.js';
import { type Observers, type RequestEnd, tellEnd } from './observer.js';
import { type Outgoing, sessionBroker } from './outgoing.js';

/** What a connection gives the requests it runs. */
export interface Running extends Shared {
  readonly inFlight: InFlightTable<InFlight>;
  readonly outgoing: Outgoing | undefined;
  /** The server's observers, read as each request starts (server/observer.ts). */
  readonly observers: Observers;
}

/** Handlers get these when a request has none (never mutated: frozen). */
const NO_PARAMS: Record<string, unknown> = Object.freeze({});

/**
 * Starts a request's handler. Not an async function, and the wait is in
 * {@link settle}, which is not given the request: V8 keeps an async
 * function's parameters, and a closure what it names, until they are done,
 * and a listen request (2026-07-28) stays open as long as the client likes;
 * it must not keep its message.
 */
export function run(
  state: Running,
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
 * promise turn less per observed request). A `then`, not an async function:
 * that would cost a promise and a turn more per request.
 */
function settle(
  state: Running,
  entry: InFlight,
  revision: Revision,
  pending: Promise<Record<string, unknown>>,
  end: RequestEnd | undefined,
): Promise<JsonRpcResponse | undefined> {
  return pending.then(
    (result) => {
      release(state, entry);
      return told(end, entry.cancelled ? undefined : resultResponse(entry.id, result));
    },
    (error: unknown) => {
      let response: JsonRpcResponse | undefined;
      try {
        if (!entry.cancelled) {
          const wire = revision.encodeError(error, state.logger);
          response = errorResponse(entry.id, wire.code, wire.message, wire.data);
        }
      } finally {
        release(state, entry);
      }
      return told(end, response);
    },
  );
}

/** What every request does once answered (or withdrawn), whatever its handler made. */
function release(state: Running, entry: InFlight): void {
  entry.end();
  state.inFlight.delete(entry.id);
  // Questions the handler left unanswered are of no use any more.
  state.outgoing?.abandon(entry.id, 'The request ended', true);
}

function told(end: RequestEnd | undefined, response: JsonRpcResponse | undefined): JsonRpcResponse | undefined {
  if (end !== undefined) tellEnd(end, response);
  return response;
}
