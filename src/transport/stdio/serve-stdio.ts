/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout, nothing
 * but protocol messages on stdout, logs left to the logger (stderr in the
 * CLI). One process serves both eras: a legacy `initialize` session and
 * modern per-request `_meta` requests (2026-07-28 transports/stdio).
 *
 * Backpressure: a client that stops reading stdout must not make the server
 * hold every answer (100,000 requests with stdout unread grew RSS to 715 MiB).
 * Messages wait in line (scheduler.ts, by the lane the resolver gave each)
 * while stdout holds more than `maxBufferedOutputBytes` or
 * `maxConcurrentRequests` are running (listen requests have a cap of their
 * own, as they hold next to nothing). stdin is not read while stdout is
 * that full, nor while more than one message's worth (`maxMessageBytes`) waits,
 * so the pipe pushes back on the client; below that it is read on, so that a
 * cancellation, which skips the line, is seen while every place is taken.
 */
import type { Readable, Writable } from 'node:stream';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, parseMessage } from '../../jsonrpc/messages.js';
import type { Server } from '../../server/index.js';
import { type Logger, silentLogger } from '../../server/index.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, drain } from '../lifecycle.js';
import { createLineReader } from './line-reader.js';
import { createScheduler } from './scheduler.js';
import { stdioOutput } from './stdout.js';

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
  /**
   * While stdout holds more than this many bytes the client has not taken
   * (and more than the stream's own high-water mark), no request starts and
   * stdin is not read; both resume once stdout drains. Default 4 MiB.
   */
  maxBufferedOutputBytes?: number;
  /**
   * Most requests handled at once; later ones wait in line. Each running
   * request may hold an answer as large as the server's limits allow (a
   * 16 MiB file is about 22 MB of base64), so this bounds those too.
   * `subscriptions/listen` requests do not count (see `maxListenRequests`);
   * a `notifications/cancelled` never waits. Default 4.
   */
  maxConcurrentRequests?: number;
  /**
   * Most open 2026-07-28 `subscriptions/listen` requests; one more is
   * answered at once with -32603, encoded by its revision (a limit of this
   * server, as HTTP answers 429). Default 32, as `maxStreamsPerClient` over
   * HTTP.
   */
  maxListenRequests?: number;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves when the server has stopped (stdin ended or shutdown finished). */
  readonly done: Promise<void>;
  /** Ends listen requests with their result, lets in-flight requests finish, then stops. */
  shutdown(): Promise<void>;
}

/** The options with their defaults, checked. */
function settings(server: Server, options: StdioOptions) {
  const maxBufferedOutput = options.maxBufferedOutputBytes ?? 4 * 1024 * 1024;
  const maxConcurrent = options.maxConcurrentRequests ?? 4;
  const maxListens = options.maxListenRequests ?? 32;
  for (const [name, value] of [
    ['maxBufferedOutputBytes', maxBufferedOutput],
    ['maxConcurrentRequests', maxConcurrent],
    ['maxListenRequests', maxListens],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  }
  return {
    input: options.input ?? process.stdin,
    output: options.output ?? process.stdout,
    logger: options.logger ?? silentLogger,
    maxBytes: options.maxMessageBytes ?? server.limits.maxMessageBytes,
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
    maxBufferedOutput,
    maxConcurrent,
    maxListens,
  };
}

/**
 * Serves `server` over stdio until stdin ends.
 *
 * @example
 * const running = serveStdio(createServer({ name: 'demo', version: '1.0.0', prompts }));
 * await running.done;
 */
export function serveStdio(server: Server, options: StdioOptions = {}): StdioServer {
  const { input, output, logger, maxBytes, drainTimeoutMs, maxBufferedOutput, maxConcurrent, maxListens } = settings(server, options);
  const out = stdioOutput(output, maxBufferedOutput);
  const connection = server.connect({ send: out.send, carriesRequests: true, soleCaller: true, network: 'pipe' });
  const scheduler = createScheduler(
    connection,
    {
      write: out.write,
      outputFull: out.full,
      onDrain: (drained) => output.once('drain', drained),
      reading: (on) => (on ? input.resume() : input.pause()),
      serving: () => lifecycle.state === 'serving',
    },
    { maxConcurrent, maxStreams: maxListens, maxWaitingBytes: maxBytes },
    logger,
  );
  // Stopped by stdin's end or error, or by shutdown(): the drain of transport/lifecycle.ts.
  const lifecycle = createLifecycle(async () => {
    // Nothing more is read: what arrives from now on is not taken on (stdin is simply not read).
    input.off('data', onData);
    // What was received is answered, waiting ones included, within the drain time.
    await drain({ connections: () => [connection], settled: scheduler.settled, timeoutMs: drainTimeoutMs });
    // Responses held behind their requests' notifications (stdout.ts) are written, and
    // whatever this turn wrote goes out, before anyone learns the server stopped.
    await out.settled();
    out.flush();
    resolveDone();
  });

  output.on('error', (error) => {
    out.fail();
    logger.warn('stdout closed; no further messages will be written', error);
    // No 'drain' comes after an error: what waited for one goes on (its answers are dropped).
    scheduler.pump();
  });

  const reader = createLineReader(maxBytes, {
    line(text) {
      const parsed = parseMessage(text, server.limits.maxJsonDepth);
      if (parsed.ok) scheduler.message(parsed.value, text.length);
      else scheduler.reply(parsed.response, text.length);
    },
    // Its line is dropped; the answer waiting for its turn is what is counted.
    overflow: () => scheduler.reply(errorResponse(null, ErrorCode.InvalidRequest, `Message larger than ${maxBytes} bytes`), 128),
  });

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  function onData(chunk: Buffer | string): void {
    reader.push(chunk);
  }
  input.on('data', onData);
  input.once('end', () => {
    reader.end();
    void lifecycle.close();
  });
  input.once('error', (error) => {
    logger.warn('stdin failed', error);
    void lifecycle.close();
  });

  return { done, shutdown: () => lifecycle.close() };
}
