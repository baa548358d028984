/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout, nothing
 * but protocol messages on stdout, logs left to the logger (stderr in the
 * CLI). One process serves both eras: a legacy `initialize` session and
 * modern per-request `_meta` requests (2026-07-28 transports/stdio).
 */
import type { Readable, Writable } from 'node:stream';
import { type Logger, silentLogger } from '../../server/index.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcOutgoing, parseMessage, serializeMessage, splitStableMessage } from '../../jsonrpc/messages.js';
import type { Server } from '../../server/index.js';
import { createLineReader } from './line-reader.js';

export interface StdioOptions {
  /** Defaults to process.stdin. */
  input?: Readable;
  /** Defaults to process.stdout. */
  output?: Writable;
  logger?: Logger;
  /** Largest message accepted, in bytes. Default: the server's `limits.maxMessageBytes`. */
  maxMessageBytes?: number;
  /** How long in-flight requests may finish after stdin ends or shutdown starts. Default 5000 ms. */
  drainTimeoutMs?: number;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves when the server has stopped (stdin ended or shutdown finished). */
  readonly done: Promise<void>;
  /** Ends listen requests with their result, lets in-flight requests finish, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Serves `server` over stdio until stdin ends.
 *
 * @example
 * const running = serveStdio(createServer({ name: 'demo', version: '1.0.0', prompts }));
 * await running.done;
 */
export function serveStdio(server: Server, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const logger = options.logger ?? silentLogger;
  const maxBytes = options.maxMessageBytes ?? server.limits.maxMessageBytes;
  const drainTimeoutMs = options.drainTimeoutMs ?? 5000;
  const pending = new Set<Promise<void>>();
  let writable = true;

  // Messages written in one turn of the event loop leave together: stdout is
  // corked at the first and uncorked once the turn's work is done, so a client
  // that pipelines requests gets its answers in a few writes instead of one
  // system call each. A lone answer waits only for the end of the turn.
  let corked = false;
  function flush(): void {
    if (!corked) return;
    corked = false;
    output.uncork();
  }

  function write(message: JsonRpcOutgoing): void {
    if (!writable) return;
    if (!corked) {
      corked = true;
      output.cork();
      setImmediate(flush);
    }
    // JSON text escapes control characters, so a message never holds a raw newline.
    const parts = splitStableMessage(message);
    if (!parts) {
      output.write(`${serializeMessage(message)}\n`);
      return;
    }
    // A shared result (a list page) goes out as the bytes encoded once for it.
    output.write(parts.head);
    output.write(parts.result);
    output.write(`${parts.tail}\n`);
  }

  output.on('error', (error) => {
    writable = false;
    logger.warn('stdout closed; no further messages will be written', error);
  });

  const connection = server.connect({ send: write });

  function onLine(text: string): void {
    const parsed = parseMessage(text, server.limits.maxJsonDepth);
    if (!parsed.ok) return write(parsed.response);
    const task = connection
      .receive(parsed.value)
      .then((response) => {
        if (response) write(response);
      })
      .catch((error: unknown) => logger.error('Unexpected failure while handling a message', error));
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }

  const reader = createLineReader(maxBytes, {
    line: onLine,
    overflow: () => write(errorResponse(null, ErrorCode.InvalidRequest, `Message larger than ${maxBytes} bytes`)),
  });

  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  function stop(): Promise<void> {
    stopping ??= (async () => {
      input.off('data', onData);
      connection.close('shutdown');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, drainTimeoutMs);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([...pending]), timeout]);
      clearTimeout(timer);
      connection.close('disconnect');
      // Whatever this turn wrote goes out before anyone learns the server stopped.
      flush();
      resolveDone();
    })();
    return stopping;
  }

  function onData(chunk: Buffer | string): void {
    reader.push(chunk);
  }
  input.on('data', onData);
  input.once('end', () => {
    reader.end();
    void stop();
  });
  input.once('error', (error) => {
    logger.warn('stdin failed', error);
    void stop();
  });

  return { done, shutdown: stop };
}
