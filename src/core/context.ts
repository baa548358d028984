/**
 * What a provider receives with every call besides its own arguments.
 */

/** Where library code writes diagnostics. Silent unless the application passes one. */
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
 * Per-request context handed to providers. The server's contexts create
 * `signal` on first read (an accessor), so pass a context on as it is: a copy
 * made with `{ ...ctx }` has no `signal`; name it, `{ ...ctx, signal: ctx.signal }`.
 */
export interface RequestContext {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /**
   * When present, the same as `signal.aborted`. The server creates each
   * request's signal on first read, so checking this instead saves creating
   * a signal nobody listens to.
   */
  readonly cancelled?: boolean;
  logger: Logger;
  /** The server's output caps; absent when a provider is called outside a server. */
  readonly limits?: OutputLimits;
}

/** A value or a promise of it: providers may answer synchronously. */
export type Awaitable<T> = T | Promise<T>;
