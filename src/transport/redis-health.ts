/**
 * Whether Redis answers, as the shared state sees it (redis.ts), and the log
 * of it: one line naming the cause when an outage starts (a refused or
 * dropped connection, or a command left unanswered past the timeout: a
 * stalled server, whose socket stays open and says nothing) and one when it
 * ends, however many requests meet it meanwhile. No credential reaches the
 * log: the URL's password is replaced wherever a client message repeats it.
 *
 * Every command gets the timeout: node-redis's own `timeout` covers only the
 * wait to be written, and a stopped Redis takes writes into the kernel's
 * buffers and never answers. Once one times out, commands fail at once
 * (their requests get 503 and `Retry-After`) while a single PING probes for
 * the end of the stall: commands sent meanwhile would only pile up unanswered
 * in the client's queue.
 */
import type { Logger } from '../server/index.js';

export interface RedisHealthOptions {
  /** Where Redis is, for messages: host and port, never the URL's credentials. */
  where: string;
  /** Texts to keep out of every message (the URL's password, raw and decoded). */
  secrets: readonly string[];
  timeoutMs: number;
  logger?: Logger | undefined;
  /** Told when an outage starts (false) and ends (true), with the log lines: for metrics. */
  status?: ((up: boolean) => void) | undefined;
  /** A command that answers when Redis does (PING), to find the end of a stall. */
  probe(): Promise<unknown>;
}

export interface RedisHealth {
  /** Runs a command within the timeout; rejects at once while Redis is known to be stalled. */
  run<T>(command: () => Promise<T>): Promise<T>;
  /** A client's connection failed (node-redis `error`): an outage starts, if none has. */
  failed(client: string, error: unknown): void;
  /** A client is connected again (node-redis `ready`). */
  ready(client: string): void;
  /** Stops probing. */
  close(): void;
}

/** `text` with every secret replaced by `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join('***');
  return out;
}

/** What an error says, also when its message is empty (an AggregateError of each address tried). */
function causeOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(causeOf).join('; ');
  if (error instanceof Error) return error.message || String((error as { code?: unknown }).code ?? error.name);
  return String(error);
}

/** Creates the health of one Redis (both of its clients). */
export function createRedisHealth(options: RedisHealthOptions): RedisHealth {
  const { where, secrets, timeoutMs, logger } = options;
  /** What is down (a client's connection, or `stall`), with the first one's start. */
  const down = new Set<string>();
  let since = 0;
  let stalled = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  function start(what: string, cause: string): void {
    if (down.has(what)) return;
    if (down.size === 0) {
      since = Date.now();
      logger?.warn(`Redis at ${where} is out of reach (${redactSecrets(cause, secrets)}); requests that need it get 503 until it answers`);
      options.status?.(false);
    }
    down.add(what);
  }

  function end(what: string): void {
    if (!down.delete(what) || down.size > 0) return;
    logger?.info(`Redis at ${where} answers again, after ${Math.round((Date.now() - since) / 100) / 10} s`);
    options.status?.(true);
  }

  /** One PING at a time until one is answered; a refused one (the client reconnecting) is tried again after the timeout. */
  function probe(): void {
    options.probe().then(
      () => {
        stalled = false;
        end('stall');
      },
      () => {
        if (closed) return;
        retry = setTimeout(probe, timeoutMs);
        (retry as { unref?: () => void }).unref?.();
      },
    );
  }

  function stall(): void {
    if (stalled || closed) return;
    stalled = true;
    start('stall', `no answer within ${timeoutMs} ms`);
    probe();
  }

  return {
    run(command) {
      if (stalled) return Promise.reject(new Error(`Redis at ${where} does not answer`));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          stall();
          reject(new Error(`Redis at ${where} did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
      });
      // The callers log what failed: in Redis's words, without the secrets.
      const answered = command().catch((error: unknown) => {
        throw new Error(`Redis at ${where}: ${redactSecrets(causeOf(error), secrets)}`);
      });
      return Promise.race([answered, expired]).finally(() => clearTimeout(timer));
    },
    failed(client, error) {
      start(client, causeOf(error));
    },
    ready(client) {
      end(client);
    },
    close() {
      closed = true;
      clearTimeout(retry);
    },
  };
}
