/**
 * The caps on long-lived streams (2026-07-28 listen requests, legacy GET
 * streams), overall and per client: a place is taken when a stream opens and
 * given back when it ends; one over a cap is answered 429 by the caller.
 *
 * A client is its remote address, or with `trustProxy` the address the
 * nearest proxy saw: the last entry of `X-Forwarded-For` (each proxy appends
 * the address it received the request from; RFC 7239 §5.2 says the same of
 * `Forwarded`). Behind a proxy every request otherwise has the proxy's
 * address and all clients share one cap. Only for servers that every request
 * reaches through that proxy: a client that connects directly could name
 * any address it likes.
 */
import type { HttpRequest } from './request.js';

/** Takes a stream place for a request's client: its release function, or undefined when a cap is reached. */
export type TakeStream = (request: HttpRequest) => (() => void) | undefined;

/** The address the stream caps count a request under. */
function clientOf(request: HttpRequest, trustProxy: boolean): string | undefined {
  if (!trustProxy) return request.client;
  const forwarded = request.headers.get('x-forwarded-for');
  const last = forwarded?.slice(forwarded.lastIndexOf(',') + 1).trim();
  return last ? last : request.client;
}

/** Creates the stream caps of one handler. */
export function createStreamCaps(maxStreams: number, maxStreamsPerClient: number, trustProxy: boolean, counted?: (delta: number) => void): TakeStream {
  let openStreams = 0;
  const streamsByClient = new Map<string, number>();
  return (request) => {
    const client = clientOf(request, trustProxy);
    const mine = client === undefined ? 0 : (streamsByClient.get(client) ?? 0);
    if (openStreams >= maxStreams || mine >= maxStreamsPerClient) return undefined;
    openStreams++;
    counted?.(1);
    if (client !== undefined) streamsByClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      openStreams--;
      counted?.(-1);
      if (client === undefined) return;
      const left = (streamsByClient.get(client) ?? 1) - 1;
      if (left > 0) streamsByClient.set(client, left);
      else streamsByClient.delete(client);
    };
  };
}
