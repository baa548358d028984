/**
 * The stateless route: a 2026-07-28 request (basic/index §Statelessness),
 * answered by a connection made for it alone, with nothing kept after. The
 * resolver has already checked its headers and chosen its revision; here the
 * transport adds what is its own: a request in the `stream` lane (listen)
 * needs an SSE answer and a stream place, a closed answer cancels the request (streamable-http
 * §Cancellation), and the answer's status comes from the revision's binding.
 */
import type { JsonRpcResponse } from '../../jsonrpc/messages.js';
import type { Resolved } from '../../protocol/index.js';
import type { Server } from '../../server/index.js';
import { Rejections, reject } from './errors.js';
import { createExchange } from './exchange.js';
import type { Acceptable } from './headers.js';
import type { HttpReply, HttpRequest } from './request.js';
import type { RouteContext } from './sessions/routes.js';

/** The stateless route, and the connections it has in flight (so close() can end listen requests). */
export interface StatelessRoute {
  post(request: HttpRequest, resolved: Extract<Resolved, { kind: 'request' | 'notification' }>, accept: Acceptable): HttpReply | Promise<HttpReply>;
  readonly inFlight: ReadonlySet<{ close(reason: 'disconnect' | 'shutdown'): void }>;
}

const ALWAYS_OK = (): number => 200;

/** Creates the stateless route over a server. */
export function createStatelessRoute(server: Server, context: RouteContext): StatelessRoute {
  const { keepAliveMs, track, internalError, takeStream } = context;
  const inFlight = new Set<{ close(reason: 'disconnect' | 'shutdown'): void }>();

  function post(request: HttpRequest, resolved: Extract<Resolved, { kind: 'request' | 'notification' }>, accept: Acceptable): HttpReply | Promise<HttpReply> {
    if (resolved.kind === 'notification') return { status: 202, headers: {} };
    const { request: message, revision } = resolved;
    // A long-lived request (listen) as the resolver decided it: an SSE answer and a stream place of its own.
    const listen = resolved.lane === 'stream';
    if (listen && !accept.sse) return reject(Rejections.StreamNotAcceptable, message.id);
    const release = listen ? takeStream(request) : undefined;
    if (listen && !release) return reject(Rejections.TooManyStreams, message.id);

    let connection: ReturnType<Server['connect']> | undefined;
    const disconnect = (): void => connection?.close('disconnect');
    const answered = track();
    const exchange = createExchange({
      accept,
      keepAliveMs,
      statusFor: revision.http?.statusOf ?? ALWAYS_OK,
      onClientGone: disconnect,
      onDone: release
        ? () => {
            answered();
            release();
          }
        : answered,
    });
    connection = server.connect({
      send(outgoing) {
        if ('method' in outgoing) exchange.notify(outgoing);
      },
      network: 'tcp',
    });
    const handle = connection;
    inFlight.add(handle);
    const stopWatching = request.onAbort(disconnect);
    const settle = (response: JsonRpcResponse | undefined): void => {
      exchange.finish(response);
      stopWatching();
      // Nothing is left in flight on a one-request connection: no close needed.
      inFlight.delete(handle);
    };
    // The callbacks name the id, not the message: a listen request stays open as
    // long as the client likes and must not keep its body meanwhile.
    const id = message.id;
    handle.handle(resolved).then(settle, (error: unknown) => settle(internalError(id, error)));
    return exchange.response;
  }

  return { post, inFlight };
}
