/**
 * The answer to one POSTed request, chosen as late as possible: a single
 * JSON body when the response is all there is, or an SSE stream as soon as
 * a notification must go out before it (2025-06-18 basic/transports
 * §Sending Messages to the Server: the server returns either
 * `application/json` or `text/event-stream`, and the client must handle
 * both). Waiting lets a JSON answer carry the status code the response
 * calls for (2026-07-28: 404 for -32601, 400 for -32022...).
 */
import type { JsonRpcNotification, JsonRpcResponse } from '../../jsonrpc/messages.js';
import { type Acceptable, MEDIA } from './headers.js';
import { createSseStream, type SseStream, sseHeaders } from './sse.js';

/** How an exchange answers: what the client accepts and which status a response gets. */
export interface ExchangeOptions {
  accept: Acceptable;
  keepAliveMs?: number;
  /** The HTTP status for a response sent as the whole body. */
  statusFor(response: JsonRpcResponse): number;
  /** Called when the client closes an SSE answer before it ends. */
  onClientGone?: () => void;
  /** Extra response headers (such as `Mcp-Session-Id`). */
  headers?: Record<string, string>;
}

/** One request's pending HTTP answer. */
export interface Exchange {
  /** Resolves once the answer can start: at the response, or at the first notification. */
  readonly response: Promise<Response>;
  /** Resolves when the answer is complete (JSON sent, or SSE stream ended). */
  readonly done: Promise<void>;
  /** Sends a notification that belongs to the request; it switches the answer to SSE. */
  notify(notification: JsonRpcNotification): void;
  /** Sends the final response (or nothing, for a cancelled request) and ends the answer. */
  finish(response: JsonRpcResponse | undefined): void;
}

/**
 * The text of JSON responses built here, so the node:http adapter can write
 * it in one go instead of streaming it back out of the Response.
 */
const bodies = new WeakMap<Response, string>();

/** Builds a JSON response. */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { 'Content-Type': MEDIA.json, ...headers } });
  bodies.set(response, text);
  return response;
}

/** The whole body of a response made by {@link jsonResponse}, if it is one. */
export function jsonBodyOf(response: Response): string | undefined {
  return bodies.get(response);
}

/** Starts an exchange in the pending state. */
export function createExchange(options: ExchangeOptions): Exchange {
  let resolveResponse!: (response: Response) => void;
  let resolveDone!: () => void;
  const response = new Promise<Response>((resolve) => {
    resolveResponse = resolve;
  });
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  let stream: SseStream | undefined;
  let finished = false;

  function startStream(status: number): SseStream {
    const opened = createSseStream({
      ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
      onCancel: () => {
        if (!finished) options.onClientGone?.();
        finished = true;
        resolveDone();
      },
    });
    const headers = sseHeaders();
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    resolveResponse(new Response(opened.body, { status, headers }));
    return opened;
  }

  return {
    response,
    done,
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
        resolveResponse(new Response(null, { status: 204, headers: options.headers ?? {} }));
      } else if (options.accept.json) {
        resolveResponse(jsonResponse(message, options.statusFor(message), options.headers));
      } else {
        const sse = startStream(options.statusFor(message));
        sse.send(message);
        sse.close();
      }
      resolveDone();
    },
  };
}
