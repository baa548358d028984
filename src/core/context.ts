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
}

/** A value or a promise of it: providers may answer synchronously. */
export type Awaitable<T> = T | Promise<T>;
