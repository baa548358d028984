/**
 * What the handler reads of a request and what it answers, independent of
 * the server underneath. A web `Request` (web.ts) and node's
 * `IncomingMessage` (node.ts) are both adapted to {@link HttpRequest}, and
 * an {@link HttpReply} is turned into a `Response` or written straight to
 * node's `ServerResponse`. On node no `Request`, `Response`, `Headers` or
 * `AbortSignal` is built per request: those cost several times what the
 * protocol work of a small request does.
 */
import type { Principal } from '../../server/index.js';

/** Reads request headers by case-insensitive name; `Headers` is one. */
export interface HeaderReader {
  /** The value, several fields of one name joined with ", ", or null when absent. */
  get(name: string): string | null;
}

/** One HTTP request, as the handler sees it. */
export interface HttpRequest {
  readonly method: string;
  readonly headers: HeaderReader;
  /** The path of the request target, as the WHATWG URL parser normalizes it. */
  readonly pathname: string;
  /** The query of the request target with its `?`, or "" (absent from adapters that do not know it). */
  readonly search?: string;
  /** The `Host` header, or the host of the request URL when the header is absent. */
  readonly host: string;
  /** The origin the request was addressed to (`http://host:port`), for absolute URLs in answers. */
  readonly origin: string;
  /** The client's address when known, for per-client limits. */
  readonly client: string | undefined;
  /**
   * Reads the body up to `max` bytes; undefined when it is larger, `busy`
   * when `budget` refuses a chunk. The bytes of a body read whole stay taken
   * from the budget until the caller gives them back.
   */
  readBody(max: number, budget: BodyBudget): Promise<Uint8Array | undefined | 'busy'>;
  /**
   * Calls `listener` once if the client goes away before the answer ends
   * (at once if it already has). Returns a function that removes it.
   */
  onAbort(listener: () => void): () => void;
}

/** The handler's answer. */
export interface HttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * A whole body: text, or text and bytes to send one after the other (a
   * large shared result kept encoded); a stream (SSE); or none.
   */
  readonly body?: string | ReadonlyArray<string | Uint8Array> | ReadableStream<Uint8Array>;
  /** Set on the transport's own refusals (errors.ts `reject`): why, for the refusals metric. */
  readonly refusal?: string;
}

/** An answer now, or a promise of one only where the handler must wait (every await is a few microtask turns per request). */
export type Reply = HttpReply | Promise<HttpReply>;

/**
 * The handler's one entry point: {@link HttpHandler.reply}. The web adapter
 * (web.ts, the handler's `fetch`) and the node adapter (node.ts) both call
 * it; neither reaches further in.
 */
export type ReplyFunction = (request: HttpRequest) => Promise<HttpReply>;

/**
 * What a request must pass before a route answers it (handler.ts runs the
 * stages in this order): `open` routes answer first, before the shutdown,
 * Host and Origin checks (health.ts says why that is safe); `guarded` ones
 * after those checks and CORS, without a token (each guards itself: a webhook
 * has its own secret, the metadata document is public); `authorized` ones
 * after the AuthGate too (auth/gate.ts), with the principal it admitted.
 */
export type Access = 'open' | 'guarded' | 'authorized';

/** One entry of the route table (routes.ts): a path and its answer. */
export interface Route {
  /** The exact path, or with `prefix` a path ending in `/` under which every path is this route's. */
  readonly path: string;
  readonly prefix?: boolean;
  readonly access: Access;
  /** The answer; `principal` is the AuthGate's for an `authorized` route, undefined otherwise. */
  answer(request: HttpRequest, principal: Principal | undefined): Reply;
}

/**
 * Request-body bytes held at once, over all requests. A body stalled one byte
 * short of its end holds what it sent for as long as the client likes (300
 * connections one byte short of 4 MiB held 1.2 GiB): each chunk is taken from
 * the budget as it arrives, and a body that would pass it is refused (503).
 */
export interface BodyBudget {
  /**
   * Takes `bytes` for a body that holds `held` already. Refused when the
   * budget would be passed, unless that body is the only one holding any: a
   * lone body may always grow to the per-request cap.
   */
  take(bytes: number, held: number): boolean;
  give(bytes: number): void;
}

/** A {@link BodyBudget} of `max` bytes. */
export function createBodyBudget(max: number): BodyBudget {
  let used = 0;
  return {
    take(bytes, held) {
      if (used + bytes > max && used !== held) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used -= bytes;
    },
  };
}
