/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout, nothing
 * but protocol messages on stdout, logs left to the logger (stderr in the
 * CLI). One process serves both eras: a legacy `initialize` session and
 * modern per-request `_meta` requests (2026-07-28 transports/stdio).
 *
 * Backpressure: a client that stops reading stdout must not make the server
 * hold every answer (100,000 requests with stdout unread grew RSS to 715 MiB).
 * Messages wait in line while stdout holds more than `maxBufferedOutputBytes`
 * or `maxConcurrentRequests` are running (listen requests have a cap of their
 * own, as they hold next to nothing). stdin is not read while stdout is
 * that full, nor while more than one message's worth (`maxMessageBytes`) waits,
 * so the pipe pushes back on the client; below that it is read on, so that a
 * cancellation, which skips the line, is seen while every place is taken.
 */
import type { Readable, Writable } from 'node:stream';
import { ErrorCode, ProtocolError } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcOutgoing, parseMessage, serializeMessage, splitEncodedMessage } from '../../jsonrpc/messages.js';
import type { Resolved } from '../../protocol/index.js';
import type { Server } from '../../server/index.js';
import { type Logger, silentLogger } from '../../server/index.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, drain } from '../lifecycle.js';
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
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
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
    const parts = splitEncodedMessage(message);
    if (!parts) {
      output.write(`${serializeMessage(message)}\n`);
      return;
    }
    // A shared result (a list page) goes out as the bytes encoded once for it.
    output.write(parts.head);
    output.write(parts.result);
    output.write(`${parts.tail}\n`);
  }

  const connection = server.connect({ send: write, carriesRequests: true });
  // Stopped by stdin's end or error, or by shutdown(): the drain of transport/lifecycle.ts.
  const lifecycle = createLifecycle(async () => {
    // Nothing more is read: what arrives from now on is not taken on (stdin is simply not read).
    input.off('data', onData);
    await drain({
      connections: () => [connection],
      // What was received is answered, waiting ones included, within the drain time.
      settled: () => {
        const finished = new Promise<void>((resolve) => {
          idle = resolve;
        });
        pump();
        return finished;
      },
      timeoutMs: drainTimeoutMs,
    });
    // Whatever this turn wrote goes out before anyone learns the server stopped.
    flush();
    resolveDone();
  });

  output.on('error', (error) => {
    writable = false;
    logger.warn('stdout closed; no further messages will be written', error);
    // No 'drain' comes after an error: what waited for one goes on (its answers are dropped).
    pump();
  });

  // What was read and waits its turn: a parsed message, or an answer to a line
  // that could not be read (those wait too, or a flood of bad lines would not).
  type Item = { message: unknown; bytes: number } | { reply: JsonRpcOutgoing; bytes: number };
  let waiting: Item[] = [];
  let next = 0;
  /** Bytes of the lines waiting (their length in UTF-16 units, near enough for JSON text). */
  let waitingBytes = 0;
  let running = 0;
  let listening = 0;
  let reading = true;
  let awaitingDrain = false;
  let idle: (() => void) | undefined;

  /** stdout holds more than allowed; `writableNeedDrain` too, so that a 'drain' is sure to come. */
  function outputFull(): boolean {
    return writable && output.writableNeedDrain && output.writableLength > maxBufferedOutput;
  }

  /**
   * Whether the resolver read a message as a 2026-07-28 `subscriptions/listen`
   * request. A listen stays open as long as the client likes, holding next to
   * nothing: it has its own cap instead of a place among the requests that
   * build answers. Decided on the resolver's reading, never the raw value: a
   * value with the method but an id MCP refuses (1.5) is an invalid request,
   * answered -32600 with id null (JSON-RPC 2.0 §5), and one without the
   * envelope belongs to a session's era; neither is a listen to cap.
   */
  function isListen(resolved: Resolved | undefined): boolean {
    return resolved?.kind === 'request' && resolved.scope === 'stateless' && resolved.request.method === 'subscriptions/listen';
  }

  /** The id and method of a waiting message, when it is an object: any JSON value may have been sent. */
  function fields(item: Item): { id?: unknown; method?: unknown } | undefined {
    return 'message' in item && typeof item.message === 'object' && item.message !== null ? (item.message as { id?: unknown; method?: unknown }) : undefined;
  }

  function start(item: Item, resolved: Resolved | undefined): void {
    waitingBytes -= item.bytes;
    // A line that could not be read was answered when it was (-32700, or -32600 with id null).
    if ('reply' in item) {
      write(item.reply);
      return;
    }
    if (resolved === undefined) return;
    const listen = isListen(resolved);
    if (listen && listening >= maxListens) {
      // A limit of this server, as HTTP answers 429: refused as the request's revision encodes errors.
      const refusal = connection.refuse(
        resolved,
        new ProtocolError(ErrorCode.InternalError, `Too many open listen requests (${maxListens}); cancel one first`),
      );
      if (refusal) write(refusal);
      return;
    }
    if (listen) listening++;
    else running++;
    connection
      .handle(resolved)
      .then((response) => {
        if (response) write(response);
      })
      .catch((error: unknown) => logger.error('Unexpected failure while handling a message', error))
      .finally(() => {
        if (listen) listening--;
        else running--;
        pump();
      });
  }

  /** Starts what may start, and reads stdin unless stdout is full or too much waits. */
  function pump(): void {
    while (next < waiting.length && !outputFull()) {
      const item = waiting[next] as Item;
      // Resolved when its turn comes, not when read: an initialize ahead of it may open the
      // session it belongs to. Resolving is pure, so a message that must wait is read again later.
      const resolved = 'message' in item ? connection.resolve(item.message) : undefined;
      if (resolved !== undefined && !isListen(resolved) && running >= maxConcurrent) break;
      next++;
      start(item, resolved);
    }
    // Drop what has started: at once when the line is empty, now and then under a steady flow.
    if (next === waiting.length && next > 0) {
      waiting = [];
      next = 0;
    } else if (next > 1024 && next * 2 > waiting.length) {
      waiting = waiting.slice(next);
      next = 0;
    }
    if (outputFull() && !awaitingDrain) {
      awaitingDrain = true;
      output.once('drain', () => {
        awaitingDrain = false;
        pump();
      });
    }
    const blocked = outputFull() || waitingBytes > maxBytes;
    if (blocked && reading) {
      reading = false;
      input.pause();
    } else if (!blocked && !reading && lifecycle.state === 'serving') {
      reading = true;
      input.resume();
    }
    if (running === 0 && listening === 0 && next === waiting.length) idle?.();
  }

  /**
   * A cancellation skips the line (2025-06-18 utilities/cancellation): the
   * request it names may be running, which must hear of it now, or waiting,
   * which then never starts (a cancelled request gets no response).
   */
  function cancelNow(message: unknown): boolean {
    if (typeof message !== 'object' || message === null || 'id' in message) return false;
    const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
    if (method !== 'notifications/cancelled') return false;
    const id = params?.requestId;
    const at = waiting.findIndex((item, index) => index >= next && fields(item)?.id === id && fields(item)?.method !== undefined);
    if (at !== -1) waitingBytes -= (waiting.splice(at, 1)[0] as Item).bytes;
    void connection.receive(message).catch((error: unknown) => logger.error('Unexpected failure while handling a message', error));
    return true;
  }

  function enqueue(item: Item): void {
    waiting.push(item);
    waitingBytes += item.bytes;
    pump();
  }

  /**
   * A response skips the line too: it answers a question of the server's
   * (elicitation, sampling, roots) that a running request waits for, and with
   * every slot taken by such requests it would otherwise wait for ever.
   */
  function answerNow(message: unknown): boolean {
    if (typeof message !== 'object' || message === null || 'method' in message || !('id' in message)) return false;
    if (!('result' in message) && !('error' in message)) return false;
    void connection.receive(message).catch((error: unknown) => logger.error('Unexpected failure while handling a message', error));
    return true;
  }

  function onLine(text: string): void {
    const parsed = parseMessage(text, server.limits.maxJsonDepth);
    if (parsed.ok && (cancelNow(parsed.value) || answerNow(parsed.value))) return;
    enqueue(parsed.ok ? { message: parsed.value, bytes: text.length } : { reply: parsed.response, bytes: text.length });
  }

  const reader = createLineReader(maxBytes, {
    line: onLine,
    // Its line is dropped; the answer waiting for its turn is what is counted.
    overflow: () => enqueue({ reply: errorResponse(null, ErrorCode.InvalidRequest, `Message larger than ${maxBytes} bytes`), bytes: 128 }),
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
