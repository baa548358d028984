/**
 * What a provider receives with every call besides its own arguments.
 */
import type { InputRequest, InputResponse } from './input.js';

/**
 * Where library code writes diagnostics. Silent unless the application passes one.
 * Messages and details carry text from the skills folder (file names), from
 * clients (method names) and from far ends (git's and servers' errors) as it
 * is: a logger that writes lines escapes them (`escapeControls`), as the CLI's does.
 */
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

/** A logger that drops everything: the library's default. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * The server's caps on what one request may produce (`createServer({ limits })`).
 * A provider that builds its output piece by piece, or knows a size before
 * reading, can stop as soon as it would pass one and throw
 * {@link OutputLimitError} (core/errors.ts), instead of building what the
 * server would refuse anyway.
 */
export interface OutputLimits {
  /** Largest prompt result, in UTF-8 bytes of its content. */
  readonly maxPromptBytes: number;
  /** Largest resource read, in bytes of its raw content (text as UTF-8, blobs decoded). */
  readonly maxResourceBytes: number;
}

/**
 * Per-request context handed to providers. Pass it on as it is, or copy it
 * (`{ ...ctx, logger: mine }`): a copy has the request's own signal and every
 * member below. A server always gives all of them; a context made by hand
 * (a test, code calling a provider directly) may give only `signal` and
 * `logger`, and `definePrompt`, `defineTool` and the resource definitions
 * fill in the rest before the handler runs ({@link HandlerContext}).
 */
export interface RequestContext {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /**
   * Whether the request was cancelled: the same as `signal.aborted`, without
   * making the signal. Absent from contexts made outside a server.
   */
  readonly cancelled?: boolean;
  logger: Logger;
  /** The server's output caps; absent when a provider is called outside a server. */
  readonly limits?: OutputLimits;
  /** See {@link HandlerContext.log}. Absent from contexts made by hand. */
  readonly log?: (level: LogLevel, data: unknown, logger?: string) => void;
  /** See {@link HandlerContext.progress}. Absent from contexts made by hand. */
  readonly progress?: (progress: number, total?: number, message?: string) => void;
  /** See {@link HandlerContext.input}. Absent from contexts made by hand. */
  readonly input?: <R extends InputRequest>(key: string, request: R) => Promise<InputResponse<R>>;
  /** See {@link HandlerContext.client}. Absent from contexts made by hand. */
  readonly client?: { readonly capabilities: Readonly<Record<string, unknown>> };
  /** See {@link HandlerContext.can}. Absent from contexts made by hand. */
  readonly can?: Can;
  /**
   * Who sent the request, when the transport authenticated it (an OAuth
   * access token over HTTP). Absent when nothing was checked: stdio, a
   * static token, no authorization.
   */
  readonly principal?: Principal | undefined;
}

/**
 * The context a handler of `definePrompt`, `defineTool`, `defineResource` or
 * `defineResourceTemplate` gets: every member is there, so handler code calls
 * `ctx.log(...)`, `ctx.progress(...)` and `ctx.input(...)` without checks.
 * Where the client or the transport cannot carry one, it does nothing (log,
 * progress) or rejects (input); `can` tells which, for a handler that would
 * rather not do the work at all.
 */
export interface HandlerContext extends RequestContext {
  /**
   * Sends a log message about this request to the client
   * (`notifications/message`) when the client wants messages at this level:
   * on 2025 revisions every level until it sets one with `logging/setLevel`,
   * on 2026-07-28 only at or above the request's `_meta` log level (none
   * without it). Does nothing otherwise, or when the server was made with
   * `logging: false`.
   */
  readonly log: (level: LogLevel, data: unknown, logger?: string) => void;
  /**
   * Reports how far this request has come (`notifications/progress`) when the
   * client asked for progress with a token; otherwise does nothing. `progress`
   * should grow with every call.
   */
  readonly progress: (progress: number, total?: number, message?: string) => void;
  /**
   * Asks the client for input this request needs (the user, its model, its
   * roots) and resolves with the answer. `key` names the question; ask each
   * question under one key. On 2026-07-28 the request ends with an
   * InputRequiredResult and the handler runs again from the start when the
   * client retries with the answers: code before `input` runs once per round,
   * so keep it free of side effects. An elicitation's `requestedSchema` may be
   * a Standard Schema (zod 4...): the client gets its JSON Schema, and an
   * accepted answer's `content` is validated with it and typed as its output.
   * Rejects with an InputUnavailableError where no question can reach the
   * client (outside a server; a 2025 revision over HTTP without sessions),
   * and with a MissingClientCapabilityError when the client did not declare
   * the capability; `can.input(method)` tells both beforehand.
   */
  readonly input: <R extends InputRequest>(key: string, request: R) => Promise<InputResponse<R>>;
  /** What the client declared for this request (2026-07-28) or its session; `{}` outside a server. */
  readonly client: { readonly capabilities: Readonly<Record<string, unknown>> };
  /** What would reach the client from this request: see {@link Can}. */
  readonly can: Can;
}

/**
 * What a request's context can carry to its client. `log`, `progress` and
 * `input` never fail for want of a client that listens; these say whether
 * they would do anything, so a handler can skip work whose only use is a
 * message nobody gets (formatting a large log entry, counting for progress)
 * or choose another way before asking (a default instead of a question).
 */
export interface Can {
  /**
   * Whether `progress` sends anything: the client gave the request a
   * `progressToken` (basic/utilities/progress). Without one, progress
   * notifications have nothing to name and are not sent.
   */
  readonly progress: boolean;
  /**
   * Whether `log(level, ...)` sends the message: the server declares the
   * `logging` capability (server/utilities/logging §Capabilities: a server
   * that emits log messages MUST) and the client wants this level (the
   * session's `logging/setLevel`, or the 2026-07-28 request's `_meta` level).
   */
  log(level: LogLevel): boolean;
  /**
   * Whether `input` with a question of this kind reaches the client: the
   * transport carries questions (a 2025 session or stdio, a 2026-07-28
   * prompts/get, resources/read or tools/call, a task on 2026-07-28) and the
   * client declared the capability the question needs (`elicitation`,
   * `sampling`, `roots`), which a server MUST NOT assume otherwise.
   */
  input(method: InputRequest['method']): boolean;
}

/** The caller an access token names, as the transport that checked it says. */
export interface Principal {
  /** The token's subject (`sub`), when it names one. */
  readonly subject?: string;
  /**
   * The client the token was issued to (`client_id`, RFC 9068 §2.2 and
   * RFC 7662 §2.2, or OpenID's `azp`), when it names one. A token of a
   * client acting for itself (client credentials) may name no subject.
   */
  readonly client?: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /**
   * The audiences the caller belongs to (core/audience.ts): what it may see of
   * what is restricted. Absent: only what is restricted to no one.
   */
  readonly audiences?: readonly string[];
}

/**
 * Who `principal` is, for binding what it opens (a 2025 session, a
 * 2026-07-28 `requestState`) to it: its client and subject together, so
 * that two clients acting for no user, or one user's two clients, are not
 * one caller. Undefined without a principal (nothing was authenticated).
 * The OAuth gate admits no token that names neither.
 */
export function principalId(principal: Principal | undefined): string | undefined {
  return principal === undefined ? undefined : JSON.stringify([principal.client ?? null, principal.subject ?? null]);
}

/** Severity of a log message sent to the client (RFC 5424 §6.2.1, as MCP's logging names them). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every {@link LogLevel}, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * Throws the request's abort reason if it was cancelled, reading `cancelled`
 * where the context has it so that no signal is made for the check.
 */
export function throwIfCancelled(ctx: RequestContext): void {
  if (ctx.cancelled ?? ctx.signal.aborted) ctx.signal.throwIfAborted();
}

/** A value or a promise of it: providers may answer synchronously. */
export type Awaitable<T> = T | Promise<T>;

/** Whether an Awaitable is a promise (or any thenable, which `await` would also wait for). */
export function isThenable<T>(value: Awaitable<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
