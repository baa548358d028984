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
 * (`{ ...ctx, logger: mine }`): a copy has the request's own signal.
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
  /**
   * Sends a log message about this request to the client (`notifications/message`)
   * when the server has logging on (`createServer({ logging: true })`) and the
   * client asked for this level or a more severe one; otherwise does nothing.
   * Absent from contexts made outside a server.
   */
  readonly log?: (level: LogLevel, data: unknown, logger?: string) => void;
  /**
   * Reports how far this request has come (`notifications/progress`) when the
   * client asked for progress with a token; otherwise does nothing. `progress`
   * should grow with every call. Absent from contexts made outside a server.
   */
  readonly progress?: (progress: number, total?: number, message?: string) => void;
  /**
   * Asks the client for input this request needs (the user, its model, its
   * roots) and resolves with the answer. `key` names the question; ask each
   * question under one key. On 2026-07-28 the request ends with an
   * InputRequiredResult and the handler runs again from the start when the
   * client retries with the answers: code before `input` runs once per round,
   * so keep it free of side effects. Rejects with a missing-capability error
   * when the client cannot answer that kind of question; check
   * `client.capabilities` first to fall back to another. Absent from contexts
   * made outside a server.
   */
  readonly input?: <R extends InputRequest>(key: string, request: R) => Promise<InputResponse<R>>;
  /** What the client declared for this request (2026-07-28) or its session. Absent outside a server. */
  readonly client?: { readonly capabilities: Readonly<Record<string, unknown>> };
  /**
   * Who sent the request, when the transport authenticated it (an OAuth
   * access token over HTTP). Absent when nothing was checked: stdio, a
   * static token, no authorization.
   */
  readonly principal?: Principal | undefined;
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
