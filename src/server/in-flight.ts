/**
 * One request in flight on a connection, which is also the context its
 * handler gets: its cancellation signal, the connection's shutdown signal,
 * the output limits, and a way to send notifications that belong to it.
 */
import { type Can, type HandlerContext, LOG_LEVELS, type Logger, type LogLevel, type OutputLimits, type Principal } from '../core/context.js';
import { askWith } from '../core/elicitation.js';
import type { Engine } from '../core/engine.js';
import { CAPABILITY_OF, type InputRequest, type InputResponse, InputUnavailableError } from '../core/input.js';
import type { Tasks } from '../core/tasks.js';
import type { Encoded } from '../jsonrpc/encoded.js';
import { isPlainObject, type JsonRpcNotification, type RequestId } from '../jsonrpc/messages.js';
import type { InputBroker, LegacySession, MethodContext, RequestFacts, Revision, ServerDescription } from '../protocol/index.js';
import type { Peer } from './peer.js';

/**
 * An abort signal created on first read of `signal`: most readers never come,
 * and an AbortController is costly to create. Read after {@link abort}, it is
 * created already aborted with the same reason. The first abort wins.
 */
export class LazySignal {
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (!this.#signal) {
      if (this.#aborted) {
        this.#signal = AbortSignal.abort(this.#reason);
      } else {
        this.#controller = new AbortController();
        this.#signal = this.#controller.signal;
      }
    }
    return this.#signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** What the requests of one connection share. */
export interface Shared {
  readonly engine: Engine;
  readonly server: Encoded<ServerDescription>;
  readonly logger: Logger;
  readonly peer: Peer;
  /** Set on disconnect: nothing more is sent. */
  closed: boolean;
  /** Aborted on shutdown: long-lived requests (listen) end gracefully, others finish. */
  readonly shutdown: LazySignal;
  readonly tasks: Tasks;
}

/**
 * One in-flight request, which is also the context its handler gets; its
 * `signal` is a {@link LazySignal}'s. `signal` and `cancelled` are own,
 * enumerable accessors, so a copy made with `{ ...ctx }` has both, like any
 * plain context: the copy's `signal` is the request's own.
 */
export class InFlight implements MethodContext, HandlerContext {
  readonly engine: Engine;
  readonly server: Encoded<ServerDescription>;
  readonly logger: Logger;
  readonly limits: OutputLimits;
  readonly client: { readonly capabilities: Readonly<Record<string, unknown>> };
  readonly principal: Principal | undefined;
  readonly tasks: Tasks;
  readonly identified: boolean;
  readonly id: RequestId;
  readonly session: LegacySession | undefined;
  declare readonly signal: AbortSignal;
  declare readonly cancelled: boolean;
  readonly #shared: Shared;
  readonly #abort = new LazySignal();
  /** Set once the request is answered (or withdrawn): nothing more is sent for it. */
  #ended = false;
  readonly #revision: Revision;
  readonly facts: RequestFacts;

  // Arrow functions in fields: own properties bound to this request, so a
  // spread copy of the context can still log and report progress.
  readonly log = (level: LogLevel, data: unknown, logger?: string): void => {
    if (this.wants(level)) this.notify(this.#revision.encodeRequestEvent({ type: 'log', level, data, logger }));
  };

  /** One small object per request, bound to it, so a spread copy of the context keeps it. */
  readonly can: Can = new Abilities(this);

  /** Set by a revision that carries input (2026-07-28); elsewhere `input` is refused. */
  inputs: InputBroker | undefined = undefined;

  readonly input = <R extends InputRequest>(key: string, request: R): Promise<InputResponse<R>> => {
    if (!this.inputs) return Promise.reject(new InputUnavailableError(`Input from the client is not available on ${this.#revision.version}`));
    return askWith(this.inputs.ask.bind(this.inputs), key, request) as Promise<InputResponse<R>>;
  };

  readonly progress = (progress: number, total?: number, message?: string): void => {
    const token = this.facts.progressToken;
    if (token !== undefined) this.notify(this.#revision.encodeRequestEvent({ type: 'progress', progressToken: token, progress, total, message }));
  };

  static #own: { signal: PropertyDescriptor; cancelled: PropertyDescriptor };
  static {
    // Defined per instance (an own accessor), not on the prototype, which a
    // spread does not copy; one descriptor object shared by all instances
    // keeps this cheap (about 100 ns each, against 3 µs for a signal created
    // eagerly and kept: PERFORMANCE.md).
    InFlight.#own = {
      signal: {
        get(this: InFlight) {
          return this.#abort.signal;
        },
        enumerable: true,
      },
      cancelled: {
        get(this: InFlight) {
          return this.#abort.aborted;
        },
        enumerable: true,
      },
    };
  }

  constructor(shared: Shared, id: RequestId, session: LegacySession | undefined, revision: Revision, facts: RequestFacts) {
    this.engine = shared.engine;
    this.server = shared.server;
    this.logger = shared.logger;
    this.limits = shared.engine.limits;
    this.tasks = shared.tasks;
    this.id = id;
    this.session = session;
    this.#shared = shared;
    this.#revision = revision;
    this.facts = facts;
    this.principal = facts.principal;
    this.identified = facts.principal !== undefined || shared.peer.soleCaller === true;
    this.client = { capabilities: session ? session.clientCapabilities : (facts.clientCapabilities ?? NO_CAPABILITIES) };
    Object.defineProperty(this, 'signal', InFlight.#own.signal);
    Object.defineProperty(this, 'cancelled', InFlight.#own.cancelled);
  }

  /**
   * Whether a log message at `level` goes to the client: the server declares
   * `logging` (server/utilities/logging §Capabilities) and the level is at or
   * above the client's. On 2025 sessions, before any `logging/setLevel`, every
   * level: 2025-06-18 and 2025-11-25 server/utilities/logging make setting a
   * level the client's option (MAY) and name no default. On 2026-07-28 the
   * request's `_meta` level, and none without it (MUST NOT).
   */
  wants(level: LogLevel): boolean {
    return this.engine.features.logging === true && wanted(level, this.session ? (this.session.logLevel ?? 'debug') : this.facts.logLevel);
  }

  cancel(reason: unknown): void {
    this.#abort.abort(reason);
  }

  /** The request has its response: a context kept past it sends nothing more. */
  end(): void {
    this.#ended = true;
  }

  get closing(): AbortSignal {
    return this.#shared.shutdown.signal;
  }

  notify(notification: JsonRpcNotification): void {
    // After cancellation nothing more is sent for the request (2026-07-28 stdio §Cancellation), nor
    // after its response: its progress ends there (2025-06-18 basic/utilities/progress
    // §Implementation Notes: they MUST stop after completion), and HTTP has closed its answer.
    if (!this.#ended && !this.#abort.aborted && !this.#shared.closed) this.#shared.peer.send(notification, this.id);
  }
}

const NO_CAPABILITIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** A request's `ctx.can`: read when asked, from the request's own state (core/context.ts `Can`). */
class Abilities implements Can {
  readonly #request: InFlight;

  constructor(request: InFlight) {
    this.#request = request;
  }

  get progress(): boolean {
    return this.#request.facts.progressToken !== undefined;
  }

  log(level: LogLevel): boolean {
    return this.#request.wants(level);
  }

  input(method: InputRequest['method']): boolean {
    // `inputs` is set where the revision carries questions (a 2025 session's broker, a 2026-07-28 round).
    return this.#request.inputs !== undefined && isPlainObject(this.#request.client.capabilities[CAPABILITY_OF[method]]);
  }
}

/**
 * Whether a message at `level` goes to a client that asked for `threshold`
 * and above (server/utilities/logging). No threshold: the client asked for
 * none (2026-07-28: a request without a log level gets no log messages).
 */
function wanted(level: LogLevel, threshold: LogLevel | undefined): boolean {
  return threshold !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
