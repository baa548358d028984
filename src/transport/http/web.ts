/**
 * The Fetch API adapter: the handler's `fetch` reads a web `Request` as an
 * {@link HttpRequest}, calls the handler's public `reply`, and turns the
 * {@link HttpReply} into a `Response`. The node adapter (node.ts) is its
 * sibling: it calls the same `reply`, without web objects.
 */
import { concatBytes } from '../../util/bytes.js';
import type { BodyBudget, HttpReply, HttpRequest, ReplyFunction } from './request.js';

/** Reads a web body stream up to `max` bytes; undefined when it is larger, `busy` when the budget refuses. */
async function readStream(body: ReadableStream<Uint8Array>, max: number, budget: BodyBudget): Promise<Uint8Array | undefined | 'busy'> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let whole = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const refusal = total + value.byteLength > max ? undefined : budget.take(value.byteLength, total) ? null : 'busy';
      if (refusal !== null) {
        await reader.cancel().catch(() => {});
        return refusal;
      }
      total += value.byteLength;
      chunks.push(value);
    }
    whole = true;
  } finally {
    // A body read whole is the caller's to give back; any other, given back here.
    if (!whole) budget.give(total);
  }
  return concatBytes(chunks, total);
}

/** A web `Request` as the handler reads it. */
export function fromWebRequest(request: Request): HttpRequest {
  const url = new URL(request.url);
  const { signal } = request;
  return {
    method: request.method,
    headers: request.headers,
    pathname: url.pathname,
    search: url.search,
    host: request.headers.get('host') ?? url.host,
    origin: url.origin,
    client: undefined,
    async readBody(max, budget) {
      const declared = Number(request.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > max) return undefined;
      return request.body ? readStream(request.body, max, budget) : new Uint8Array();
    },
    onAbort(listener) {
      if (signal.aborted) {
        listener();
        return () => {};
      }
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

/** An answer as a web `Response`. */
export function toWebResponse(reply: HttpReply): Response {
  const { body } = reply;
  return new Response(
    Array.isArray(body) ? new Blob(body as Array<string | Uint8Array<ArrayBuffer>>) : ((body as string | ReadableStream | undefined) ?? null),
    {
      status: reply.status,
      headers: reply.headers,
    },
  );
}

/** The handler's `fetch`: it names the `reply` it calls, so adapters can tell it from a replacement. */
export type WebFetch = ((request: Request) => Promise<Response>) & { readonly reply: ReplyFunction };

/**
 * The handler's `fetch` over its `reply`. `failed` answers a request that
 * cannot even be read (the handler's `reply` answers every other failure).
 */
export function webFetch(reply: ReplyFunction, failed: (error: unknown) => HttpReply): WebFetch {
  const fetch = async (request: Request): Promise<Response> => {
    let adapted: HttpRequest;
    try {
      adapted = fromWebRequest(request);
    } catch (error) {
      return toWebResponse(failed(error));
    }
    return toWebResponse(await reply(adapted));
  };
  return Object.assign(fetch, { reply });
}

/**
 * The rule by which an adapter may call a handler's `reply` instead of its
 * `fetch`: only while its `fetch` is still the one {@link webFetch} made over
 * that same `reply` (`handler.fetch.reply === handler.reply`), so both answer
 * alike. A handler whose `fetch` was replaced (middleware wrapping it, on the
 * object or on a spread copy) is answered through the new `fetch`, as its
 * owner asked.
 */
export function replyOf(handler: { fetch: unknown; reply?: unknown }): ReplyFunction | undefined {
  const { fetch, reply } = handler;
  return typeof fetch === 'function' && typeof reply === 'function' && (fetch as Partial<WebFetch>).reply === reply ? (reply as ReplyFunction) : undefined;
}
