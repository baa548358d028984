/**
 * What the handler reads of a request and what it answers, independent of
 * the server underneath. A web `Request` (web.ts) and node's
 * `IncomingMessage` (node.ts) are both adapted to {@link HttpRequest}, and
 * an {@link HttpReply} is turned into a `Response` or written straight to
 * node's `ServerResponse`. On node no `Request`, `Response`, `Headers` or
 * `AbortSignal` is built per request: those cost several times what the
 * protocol work of a small request does.
 */

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
}

/** The protocol entry point behind a handler made by createHttpHandler. */
export type ReplyFunction = (request: HttpRequest) => Promise<HttpReply>;

/**
 * Where a handler made by createHttpHandler keeps its reply function, so the
 * node adapter can answer without web Request and Response objects (what
 * they cost per request: PERFORMANCE.md). Not enumerable, so a spread copy
 * of the handler does not carry it.
 */
const DIRECT = Symbol('skillport.direct');

interface Direct {
  /** The handler's own `fetch`: a handler whose `fetch` was replaced goes through the new one. */
  readonly fetch: unknown;
  readonly reply: ReplyFunction;
}

/** Gives `handler` its direct path. */
export function withDirectReply<H extends { fetch: unknown }>(handler: H, reply: ReplyFunction): H {
  const direct: Direct = { fetch: handler.fetch, reply };
  return Object.defineProperty(handler, DIRECT, { value: direct });
}

/** The direct path of a handler made by createHttpHandler whose `fetch` is its own, or undefined. */
export function directReply(handler: { fetch: unknown }): ReplyFunction | undefined {
  const direct = (handler as { [DIRECT]?: Direct })[DIRECT];
  return direct && direct.fetch === handler.fetch ? direct.reply : undefined;
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
