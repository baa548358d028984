/**
 * A Server-Sent Events body built on a web `ReadableStream`: one JSON-RPC
 * message per `message` event, comment lines as keep-alives, and a callback
 * when the client goes away (the consumer cancels the stream).
 */
import { type JsonRpcOutgoing, serializeMessage } from '../../jsonrpc/messages.js';
import { MEDIA } from './headers.js';

/** Response headers of every SSE answer. */
export function sseHeaders(): Record<string, string> {
  return {
    'Content-Type': MEDIA.sse,
    'Cache-Control': 'no-cache, no-transform',
    // Proxies such as nginx must not buffer the stream (2026-07-28 streamable-http: SHOULD).
    'X-Accel-Buffering': 'no',
  };
}

/** An open SSE body. */
export interface SseStream {
  readonly body: ReadableStream<Uint8Array>;
  /** False once the stream is closed by either side. */
  readonly open: boolean;
  /** Writes one message as a `message` event; ignored once closed. */
  send(message: JsonRpcOutgoing): void;
  /**
   * Writes a serialized message as a `message` event with an `id`, after a
   * `retry` field (ms) when given; empty data is an event that only sets
   * the id and the retry (a priming event). Ignored once closed.
   */
  sendEvent(data: string, id?: string, retryMs?: number): void;
  /** Ends the stream from the server side. */
  close(): void;
}

/** Options of {@link createSseStream}. */
export interface SseOptions {
  /** Interval of `: keep-alive` comment lines; 0 or undefined sends none. */
  keepAliveMs?: number;
  /** Called once when the client cancels the stream (it disconnected) or stops reading it. */
  onCancel?: () => void;
  /** Called once when the stream ends, for any reason. */
  onEnd?: () => void;
}

const encoder = new TextEncoder();
/**
 * Events a client may leave unread before the stream is ended: a consumer
 * that stopped reading must not make the server buffer without bound.
 */
const MAX_QUEUED_EVENTS = 1000;

/** Opens an SSE body. Nothing is written until `send` is called. */
export function createSseStream(options: SseOptions = {}): SseStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let timer: ReturnType<typeof setInterval> | undefined;

  let ended = false;
  function stop(): void {
    open = false;
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    if (ended) return;
    ended = true;
    options.onEnd?.();
  }

  function write(text: string): void {
    if (!open) return;
    try {
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) {
        stop();
        controller.error(new Error('SSE consumer is not reading'));
        // Treated like a client that left: the request behind the stream is cancelled.
        options.onCancel?.();
        return;
      }
      controller.enqueue(encoder.encode(text));
    } catch {
      // The consumer already went away; cancel() reports it.
      stop();
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      if (!open) return;
      stop();
      options.onCancel?.();
    },
  });

  if (options.keepAliveMs && options.keepAliveMs > 0) {
    // Comment lines are ignored by SSE parsers (WHATWG HTML §9.2.6) and keep idle proxies from timing out.
    timer = setInterval(() => write(': keep-alive\n\n'), options.keepAliveMs);
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    body,
    get open() {
      return open;
    },
    send(message) {
      // JSON text never holds a raw newline, so one data line holds the whole message.
      write(`event: message\ndata: ${serializeMessage(message)}\n\n`);
    },
    sendEvent(data, id, retryMs) {
      // Ids are this server's own (event-store.ts: letters, digits, `_`), never a line break.
      const head = `${retryMs === undefined ? '' : `retry: ${retryMs}\n`}${id === undefined ? '' : `id: ${id}\n`}`;
      write(data === '' ? `${head}data: \n\n` : `${head}event: message\ndata: ${data}\n\n`);
    },
    close() {
      if (!open) return;
      stop();
      try {
        controller.close();
      } catch {
        // Already closed or errored by the consumer.
      }
    },
  };
}
