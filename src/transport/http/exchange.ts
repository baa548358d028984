/**
 * The answer to one POSTed request, chosen as late as possible: a single
 * JSON body when the response is all there is, or an SSE stream as soon as
 * a notification must go out before it (2025-06-18 basic/transports
 * §Sending Messages to the Server: the server returns either
 * `application/json` or `text/event-stream`, and the client must handle
 * both). Waiting lets a JSON answer carry the status code the response
 * calls for (2026-07-28: 404 for -32601, 400 for -32022...).
 */
import { type JsonRpcNotification, type JsonRpcOutgoing, type JsonRpcResponse, serializeMessage, splitEncodedMessage } from '../../jsonrpc/messages.js';
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
  /**
   * Where an SSE answer's messages go when its stream is resumable
   * (sessions/event-stream.ts): numbered, stored, and still taken when the
   * client has left, for a GET with `Last-Event-ID` to resume. Called once,
   * when the answer turns to SSE.
   */
  resumable?: () => StreamOutput;
  /**
   * With `resumable` on a revision that polls: a request still running this
   * long after it came gets an SSE answer (primed, with `retry`) whose
   * connection then closes; the client polls with GET (2025-11-25
   * basic/transports §Sending Messages to the Server, 6). Default: never.
   */
  pollAfterMs?: number;
}

/** A resumable SSE answer's stream, as the exchange uses it (sessions/event-stream.ts `EventStream`). */
export interface StreamOutput {
  open(sse: SseStream): void;
  send(message: JsonRpcOutgoing): void;
  end(message: JsonRpcOutgoing | undefined): void;
  detach(sse: SseStream, close?: boolean): void;
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

/** The headers of a JSON answer with none of its own: one object for all (a reply's headers are read, never changed). */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': MEDIA.json });

function jsonText(body: NonNullable<HttpReply['body']>, status: number, headers: Record<string, string> | undefined): HttpReply {
  return { status, headers: headers ? { 'Content-Type': MEDIA.json, ...headers } : JSON_HEADERS, body };
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

/** What one exchange holds while it answers. */
interface State {
  readonly options: ExchangeOptions;
  readonly resolveResponse: (reply: HttpReply) => void;
  stream: SseStream | undefined;
  /** The resumable stream the SSE answer writes to, once it started (with `resumable`). */
  output: StreamOutput | undefined;
  finished: boolean;
  done: boolean;
  release: (() => void) | undefined;
  polling: ReturnType<typeof setTimeout> | undefined;
}

// A callback, not a promise: most answers are one JSON body, and this is per request.
function markDone(state: State): void {
  if (state.done) return;
  state.done = true;
  state.release?.();
  state.options.onDone?.();
}

function startStream(state: State, status: number): SseStream {
  const { options } = state;
  const opened = createSseStream({
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    onCancel: () => {
      // A resumable stream goes on without its connection (disconnection is not cancellation).
      if (state.output) state.output.detach(opened);
      else {
        if (!state.finished) options.onClientGone?.();
        state.finished = true;
      }
      markDone(state);
    },
  });
  state.stream = opened;
  state.resolveResponse({ status, headers: { ...sseHeaders(), ...options.headers }, body: opened.body });
  state.output = options.resumable?.();
  state.output?.open(opened);
  return opened;
}

/** A request still running after `pollAfterMs`: an SSE answer whose connection closes, the stream going on. */
function startPolling(state: State, pollAfterMs: number): void {
  state.polling = setTimeout(() => {
    if (state.finished) return;
    const stream = state.stream ?? startStream(state, 200);
    // The client comes back with Last-Event-ID after the `retry` the priming event gave.
    state.output?.detach(stream, true);
    markDone(state);
  }, pollAfterMs);
  (state.polling as { unref?: () => void }).unref?.();
}

function finish(state: State, message: JsonRpcResponse | undefined): void {
  const { options } = state;
  if (state.output) state.output.end(message);
  else if (state.stream) {
    if (message) state.stream.send(message);
    state.stream.close();
  } else if (!message) {
    // Cancelled before anything was sent.
    state.resolveResponse({ status: 204, headers: options.headers ?? {} });
  } else if (options.accept.json) {
    state.resolveResponse(messageReply(message, options.statusFor(message), options.headers));
  } else {
    const sse = startStream(state, options.statusFor(message));
    // startStream set it (the narrowing above cannot know).
    const started = state.output as StreamOutput | undefined;
    if (started) started.end(message);
    else {
      sse.send(message);
      sse.close();
    }
  }
}

/**
 * An exchange in the pending state. A class, its methods on the prototype:
 * every POSTed request makes one, and an object of closures costs one per
 * method more.
 */
class PendingExchange implements Exchange {
  readonly response: Promise<HttpReply>;
  readonly #state: State;

  constructor(options: ExchangeOptions) {
    let resolveResponse!: (reply: HttpReply) => void;
    this.response = new Promise<HttpReply>((resolve) => {
      resolveResponse = resolve;
    });
    this.#state = { options, resolveResponse, stream: undefined, output: undefined, finished: false, done: false, release: undefined, polling: undefined };
    if (options.resumable && options.pollAfterMs !== undefined && options.accept.sse) startPolling(this.#state, options.pollAfterMs);
  }

  notify(notification: JsonRpcNotification): void {
    const state = this.#state;
    if (state.finished) return;
    if (!state.stream) {
      // A client that refuses SSE cannot receive notifications; they are dropped.
      if (!state.options.accept.sse) return;
      startStream(state, 200);
    }
    if (state.output) state.output.send(notification);
    else state.stream?.send(notification);
  }

  finish(message: JsonRpcResponse | undefined): void {
    const state = this.#state;
    if (state.finished) return;
    state.finished = true;
    clearTimeout(state.polling);
    finish(state, message);
    markDone(state);
  }

  hold(): string | undefined {
    const state = this.#state;
    const { options } = state;
    if (state.finished) return 'The request that asks has ended';
    if (state.release) return undefined;
    if (!options.accept.sse) return "The client does not accept text/event-stream, so this request's answer cannot carry a question";
    const taken = options.takeStream?.();
    if (!taken) return "Too many requests wait for this client's answers or hold its streams; answer or cancel one first";
    state.release = taken;
    return undefined;
  }
}

/** Starts an exchange in the pending state. */
export function createExchange(options: ExchangeOptions): Exchange {
  return new PendingExchange(options);
}
