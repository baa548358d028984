/**
 * The server's own requests to a client in a session (2025-06-18
 * client/elicitation, client/sampling, client/roots): how a handler's
 * `ctx.input` is carried on the session revisions. Each question is a
 * request with an id of the server's, sent on the stream of the request that
 * asks (over HTTP, its SSE answer); the client's response settles it. A
 * question outlives neither the request that asked it nor the connection.
 *
 * A client that never answers must not hold the server: each question has a
 * timeout (2025-06-18 basic/lifecycle §Timeouts: the sender SHOULD cancel a
 * request unanswered in time with `notifications/cancelled` and stop
 * waiting), after which the request that asked is answered with an error;
 * and the questions waiting on one client are capped per connection (a
 * session), and by the transport's own caps for that client (`Peer.hold`).
 */
import { CAPABILITY_OF, type InputRequest, isAnswerTo, MissingClientCapabilityError } from '../core/input.js';
import { ErrorCode, ProtocolError } from '../jsonrpc/errors.js';
import type { JsonRpcErrorObject, JsonRpcNotification, RequestId } from '../jsonrpc/messages.js';
import type { InputBroker, LegacySession, Revision } from '../protocol/index.js';
import type { Peer } from './peer.js';

interface Question {
  readonly request: InputRequest;
  /** The client request that asked it. */
  readonly owner: RequestId;
  readonly timer: ReturnType<typeof setTimeout>;
  resolve(answer: Record<string, unknown>): void;
  reject(error: unknown): void;
}

/** How long a question waits, and how many may wait at once on one connection (`limits.inputTimeoutMs`, `limits.maxPendingInputs`). */
export interface QuestionLimits {
  readonly timeoutMs: number;
  readonly maxPending: number;
}

/** The questions of one connection. */
export class Outgoing {
  readonly #peer: Peer;
  readonly #limits: QuestionLimits;
  readonly #pending = new Map<RequestId, Question>();
  #next = 1;

  constructor(peer: Peer, limits: QuestionLimits) {
    this.#peer = peer;
    this.#limits = limits;
  }

  /**
   * Asks the client on behalf of request `owner`; resolves with its validated
   * answer. Rejects at once, with the reason, when the connection's cap or
   * the transport's caps on requests waiting for this client are reached.
   */
  ask(owner: RequestId, request: InputRequest, wire: { method: string; params: Record<string, unknown> }): Promise<Record<string, unknown>> {
    const { maxPending, timeoutMs } = this.#limits;
    if (this.#pending.size >= maxPending) {
      return Promise.reject(
        new ProtocolError(ErrorCode.InternalError, `Too many questions wait for this client's answers (${maxPending}); answer or cancel one first`),
      );
    }
    const refused = this.#peer.hold?.(owner);
    if (refused !== undefined) return Promise.reject(new ProtocolError(ErrorCode.InternalError, refused));
    // Ids of the server's own space; a client's ids are another one (JSON-RPC: each side numbers its requests).
    const id = `skillport-${this.#next++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#expire(id), timeoutMs);
      // The timer alone does not keep a process alive (a stdio server whose stdin ended drains on its own terms).
      (timer as { unref?: () => void }).unref?.();
      this.#pending.set(id, { request, owner, timer, resolve, reject });
      this.#peer.send({ jsonrpc: '2.0', id, method: wire.method, params: wire.params }, owner);
    });
  }

  /** A question unanswered in time: withdrawn, and its request answered with the reason (2025-06-18 basic/lifecycle §Timeouts). */
  #expire(id: RequestId): void {
    const question = this.#pending.get(id);
    if (!question) return;
    this.#pending.delete(id);
    const { timeoutMs } = this.#limits;
    // Sent before the request's answer, on the same stream.
    this.#peer.send(cancelled(id, `No answer within ${timeoutMs} ms`), question.owner);
    question.reject(new ProtocolError(ErrorCode.InternalError, `The client did not answer ${question.request.method} within ${timeoutMs} ms`));
  }

  /** Settles the question a response answers. False when it answers none (unknown or already settled id). */
  answer(response: { id: RequestId | null; result?: Record<string, unknown>; error?: JsonRpcErrorObject }): boolean {
    const question = response.id === null ? undefined : this.#pending.get(response.id);
    if (!question || response.id === null) return false;
    this.#pending.delete(response.id);
    clearTimeout(question.timer);
    if (response.result !== undefined && isAnswerTo(question.request, response.result)) question.resolve(response.result);
    else {
      const why = response.error
        ? `answered ${question.request.method} with error ${response.error.code}: ${response.error.message}`
        : `sent no valid answer to ${question.request.method}`;
      question.reject(new ProtocolError(ErrorCode.InternalError, `The client ${why}`));
    }
    return true;
  }

  /**
   * Drops the questions of request `owner` (it was cancelled or ended), or
   * every question (`owner` undefined: the connection closed), telling the
   * client that they no longer need an answer (2025-06-18 utilities/cancellation).
   */
  abandon(owner: RequestId | undefined, why: string, tell: boolean): void {
    // Every request ends here: the error (a stack trace) is made only for a question left open.
    if (this.#pending.size === 0) return;
    for (const [id, question] of this.#pending) {
      if (owner !== undefined && question.owner !== owner) continue;
      this.#pending.delete(id);
      clearTimeout(question.timer);
      question.reject(new Error(why));
      if (tell) this.#peer.send(cancelled(id, 'The request that asked was cancelled'), question.owner);
    }
  }
}

/** The notification that withdraws question `id` (2025-06-18 basic/utilities/cancellation). */
function cancelled(id: RequestId, reason: string): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } };
}

/** A session request's `ctx.input`: only what the client declared, sent in the session revision's words. */
export function sessionBroker(outgoing: Outgoing, session: LegacySession, revision: Revision, owner: RequestId): InputBroker | undefined {
  const encode = revision.encodeInputRequest;
  if (!encode) return undefined;
  return {
    ask(_key, request) {
      const capability = CAPABILITY_OF[request.method];
      const declared = session.clientCapabilities[capability];
      if (typeof declared !== 'object' || declared === null) return Promise.reject(new MissingClientCapabilityError([capability]));
      let encoded: ReturnType<typeof encode>;
      try {
        // A revision may refuse a question it cannot carry (a 2025-06-18 form with a multi-select).
        encoded = encode(request);
      } catch (error) {
        return Promise.reject(error);
      }
      return outgoing.ask(owner, request, encoded);
    },
  };
}
