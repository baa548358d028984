/**
 * The answer to one POSTed request, chosen as late as possible: a single
 * JSON body when the response is all there is, or an SSE stream as soon as
 * a notification must go out before it (2025-06-18 basic/transports
 * §Sending Messages to the Server: the server returns either
 * `application/json` or `text/event-stream`, and the client must handle
 * both). Waiting lets a JSON answer carry the status code the response
 * calls for (2026-07-28: 404 for -32601, 400 for -32022...).
 */
import { type JsonRpcNotification, type JsonRpcResponse, serializeMessage, splitEncodedMessage } from '../../jsonrpc/messages.js';
import { type Acceptable, MEDIA } from './headers.js';
import type { HttpReply } from './request.js';
import { createSseStream, type SseStream, sseHeaders } from './sse.js';

/** How an exchange answers: what the client accepts and which status a response gets. */
export interface ExchangeOptions {
  accept: Acceptable;
  keepAliveMs?: number;
  /** The HTTP status for a response sent as the whole body. */
  statusFor(response: JsonRpcResponse): number;
  /** Called when the client closes an SSE answer before it ends. */
  onClientGone?: () => void;
  /** Called once when the answer is complete (JSON sent, or SSE stream ended). */
  onDone?: () => void;
  /** Extra response headers (such as `Mcp-Session-Id`). */
  headers?: Record<string, string>;
  /**
   * Takes one of the client's long-lived stream places for this answer, while
   * its request waits on the client (stream-caps.ts); undefined when the
   * caps are reached. Without it, an answer cannot hold a question.
   */
  takeStream?: () => (() => void) | undefined;
}

/** One request's pending HTTP answer. */
export interface Exchange {
  /** Resolves once the answer can start: at the response, or at the first notification. */
  readonly response: Promise<HttpReply>;
  /** Sends a notification that belongs to the request; it switches the answer to SSE. */
  notify(notification: JsonRpcNotification): void;
  /** Sends the final response (or nothing, for a cancelled request) and ends the answer. */
  finish(response: JsonRpcResponse | undefined): void;
  /**
   * Before a question of the server's goes out on this answer (its request
   * then waits on the client): undefined when it may, else why not. The
   * answer must be able to carry it (SSE), and it holds a stream place of
   * the client's until it ends, so requests left waiting by one client count
   * against that client's caps, not against the connections all share.
   */
  hold(): string | undefined;
}

function jsonText(body: NonNullable<HttpReply['body']>, status: number, headers: Record<string, string> | undefined): HttpReply {
  return { status, headers: headers ? { 'Content-Type': MEDIA.json, ...headers } : { 'Content-Type': MEDIA.json }, body };
}

/** A JSON answer. */
export function jsonReply(body: unknown, status: number, headers?: Record<string, string>): HttpReply {
  return jsonText(JSON.stringify(body), status, headers);
}

/**
 * A JSON-RPC response as the whole answer. A result built once per
 * catalogue (a list page) is serialized and encoded once too: the answer
 * carries its shared bytes between the response's head and tail.
 */
export function messageReply(message: JsonRpcResponse, status: number, headers?: Record<string, string>): HttpReply {
  const parts = splitEncodedMessage(message);
  return jsonText(parts ? [parts.head, parts.result, parts.tail] : serializeMessage(message), status, headers);
}

/** Starts an exchange in the pending state. */
export function createExchange(options: ExchangeOptions): Exchange {
  let resolveResponse!: (reply: HttpReply) => void;
  const response = new Promise<HttpReply>((resolve) => {
    resolveResponse = resolve;
  });
  let stream: SseStream | undefined;
  let finished = false;
  let done = false;
  let release: (() => void) | undefined;
  // A callback, not a promise: most answers are one JSON body, and this is per request.
  function markDone(): void {
    if (done) return;
    done = true;
    release?.();
    options.onDone?.();
  }

  function startStream(status: number): SseStream {
    const opened = createSseStream({
      ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
      onCancel: () => {
        if (!finished) options.onClientGone?.();
        finished = true;
        markDone();
      },
    });
    resolveResponse({ status, headers: { ...sseHeaders(), ...options.headers }, body: opened.body });
    return opened;
  }

  return {
    response,
    notify(notification) {
      if (finished) return;
      if (!stream) {
        // A client that refuses SSE cannot receive notifications; they are dropped.
        if (!options.accept.sse) return;
        stream = startStream(200);
      }
      stream.send(notification);
    },
    finish(message) {
      if (finished) return;
      finished = true;
      if (stream) {
        if (message) stream.send(message);
        stream.close();
      } else if (!message) {
        // Cancelled before anything was sent.
        resolveResponse({ status: 204, headers: options.headers ?? {} });
      } else if (options.accept.json) {
        resolveResponse(messageReply(message, options.statusFor(message), options.headers));
      } else {
        const sse = startStream(options.statusFor(message));
        sse.send(message);
        sse.close();
      }
      markDone();
    },
    hold() {
      if (finished) return 'The request that asks has ended';
      if (release) return undefined;
      if (!options.accept.sse) return "The client does not accept text/event-stream, so this request's answer cannot carry a question";
      const taken = options.takeStream?.();
      if (!taken) return "Too many requests wait for this client's answers or hold its streams; answer or cancel one first";
      release = taken;
      return undefined;
    },
  };
}
