/**
 * The Streamable HTTP transport as a web-standard handler:
 * `(Request) => Promise<Response>`. Mount it in any framework that speaks
 * the Fetch API (Hono, Bun, Deno, workers), or on node:http through
 * {@link toNodeHandler}.
 *
 * One endpoint serves both eras at once (routing as in the official
 * conformance fixture; see the spec digest §10.3):
 * - a known `Mcp-Session-Id`, a legacy `MCP-Protocol-Version` without the
 *   2026 `_meta`, or neither header nor `_meta` (an `initialize`) go to the
 *   legacy path: 2025-06-18 / 2025-11-25 sessions, GET stream, DELETE;
 * - everything else is a 2026-07-28 request: validated against its headers,
 *   answered by a fresh connection, no state kept (basic/index
 *   §Statelessness). GET and DELETE without a session are 405.
 *
 * Before any of that: the `Host` and `Origin` allow-lists (DNS rebinding),
 * CORS for pages on allowed origins, the optional bearer token, the body
 * cap, and the media types. The legacy half lives in legacy.ts.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import {
  type Classified,
  classify,
  errorResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseErrorResponse,
  parseMessage,
} from '../../jsonrpc/messages.js';
import { LEGACY_VERSIONS, readRequestMeta } from '../../protocol/index.js';
import { type Server, silentLogger } from '../../server/index.js';
import { challenge, createTokenCheck, METADATA_PATH, NO_AUTHORIZATION_SERVER, protectedResourceMetadata } from './auth.js';
import { requestId } from './body.js';
import { reject, Rejections, RETRY_AFTER } from './errors.js';
import { createExchange, jsonReply } from './exchange.js';
import { type Acceptable, HEADER, isJsonContentType, parseAccept } from './headers.js';
import { preflight, withCors } from './cors.js';
import { createLegacyEra } from './legacy.js';
import { checkModernRequest, modernStatus } from './modern.js';
import type { HttpHandler, HttpOptions } from './options.js';
import { createHostCheck, createOriginCheck } from './origin.js';
import { createBodyBudget, type HttpReply, type HttpRequest, replyFunctions } from './request.js';
import { createSessionStore, type Session } from './sessions.js';
import { fromWebRequest, toWebResponse } from './web.js';

const METHODS_ALLOWED = 'GET, POST, DELETE';
/** A body that is not UTF-8 is a parse error, not text with replacement characters. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Creates the Streamable HTTP handler for a server.
 *
 * @example
 * const handler = createHttpHandler(server);
 * // Fetch-API runtimes and frameworks:
 * export default { fetch: (request: Request) => handler.fetch(request) };
 * // node:http:
 * createNodeServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 */
export function createHttpHandler(server: Server, options: HttpOptions = {}): HttpHandler {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/')) throw new TypeError('path must start with "/"');
  const logger = options.logger ?? silentLogger;
  const maxBody = options.maxBodyBytes ?? server.limits.maxMessageBytes;
  const maxBufferedBody = options.maxBufferedBodyBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBufferedBody) || maxBufferedBody < 1) throw new TypeError('maxBufferedBodyBytes must be a positive integer');
  const bodies = createBodyBudget(maxBufferedBody);
  const maxDepth = server.limits.maxJsonDepth;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? 5000;
  const sessionsEnabled = options.sessions ?? true;
  const hostAllowed = createHostCheck(options.allowedHosts);
  const originAllowed = createOriginCheck(options.allowedOrigins);
  const tokenValid = options.authToken !== undefined ? createTokenCheck(options.authToken) : undefined;
  // Protected Resource Metadata only where it can name an authorization server (see auth.ts).
  const authorizationServers = tokenValid && options.authorizationServers?.length ? options.authorizationServers : undefined;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const store = createSessionStore({ idleMs, maxSessions: options.maxSessions ?? 1000 });
  const sweeper = setInterval(() => store.sweep(), Math.max(1000, Math.min(idleMs / 2, 60_000)));
  (sweeper as { unref?: () => void }).unref?.();

  /** Answers in flight, so close() can wait for them. */
  let answering = 0;
  let allAnswered: (() => void) | undefined;
  /** Connections of 2026 requests in flight, so close() can end listen requests. */
  const modern = new Set<{ close(reason: 'disconnect' | 'shutdown'): void }>();
  let closing = false;

  // Long-lived streams (listen requests, GET streams), overall and per client address.
  const maxStreams = options.maxStreams ?? 1000;
  const maxStreamsPerClient = options.maxStreamsPerClient ?? 32;
  let openStreams = 0;
  const streamsByClient = new Map<string, number>();

  /** Takes a stream place for the request's client: its release function, or undefined when full (429). */
  function takeStream(request: HttpRequest): (() => void) | undefined {
    const client = request.client;
    const mine = client === undefined ? 0 : (streamsByClient.get(client) ?? 0);
    if (openStreams >= maxStreams || mine >= maxStreamsPerClient) return undefined;
    openStreams++;
    if (client !== undefined) streamsByClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      openStreams--;
      if (client === undefined) return;
      const left = (streamsByClient.get(client) ?? 1) - 1;
      if (left > 0) streamsByClient.set(client, left);
      else streamsByClient.delete(client);
    };
  }

  /** Counts an answer in flight until the returned function is called (once). */
  function track(): () => void {
    answering++;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      if (--answering === 0) allAnswered?.();
    };
  }

  function internalError(id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse {
    logger.error('Unexpected failure while handling a request', error);
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  const legacy = createLegacyEra({ server, store, logger, keepAliveMs, sessionsEnabled, track, internalError, takeStream });

  // ---- 2026-07-28 ----

  function modernPost(request: HttpRequest, classified: Classified, accept: Acceptable): HttpReply | Promise<HttpReply> {
    if (classified.kind === 'response') return reject(Rejections.ResponseNotAllowed, classified.id);
    if (classified.kind === 'notification') {
      // Core 2026-07-28 defines no client notification over HTTP (closing the stream
      // cancels), and header rules for notification POSTs are left open: accept it.
      return { status: 202, headers: {} };
    }
    // Invalid messages were answered before routing; this narrows the type.
    if (classified.kind !== 'request') return reject(Rejections.Internal);
    const message = classified.message;
    const rejection = checkModernRequest(request.headers, message);
    if (rejection) return jsonReply(rejection.body, rejection.status);
    if (message.method === 'subscriptions/listen' && !accept.sse) return reject(Rejections.StreamNotAcceptable, message.id);
    const release = message.method === 'subscriptions/listen' ? takeStream(request) : undefined;
    if (message.method === 'subscriptions/listen' && !release) return reject(Rejections.TooManyStreams, message.id);

    let connection: ReturnType<Server['connect']> | undefined;
    const disconnect = (): void => connection?.close('disconnect');
    const answered = track();
    const exchange = createExchange({
      accept,
      keepAliveMs,
      statusFor: modernStatus,
      // A closed response stream cancels the request (2026-07-28 streamable-http §Cancellation).
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
    });
    const handle = connection;
    modern.add(handle);
    const stopWatching = request.onAbort(disconnect);
    const settle = (response: JsonRpcResponse | undefined): void => {
      exchange.finish(response);
      stopWatching();
      // Nothing is left in flight on a one-request connection: no close needed.
      modern.delete(handle);
    };
    // The callbacks name the id, not the message: a listen request stays open as
    // long as the client likes and must not keep its body meanwhile.
    const id = message.id;
    handle.receive(message).then(settle, (error: unknown) => settle(internalError(id, error)));
    return exchange.response;
  }

  // ---- Routing ----

  // Routing functions return a reply, or a promise of one only where they must
  // wait: every async step is a few microtask turns, and this runs per request.

  function post(request: HttpRequest): HttpReply | Promise<HttpReply> {
    if (!isJsonContentType(request.headers.get(HEADER.contentType))) return reject(Rejections.UnsupportedMediaType);
    const accept = parseAccept(request.headers.get(HEADER.accept));
    if (!accept.json && !accept.sse) return reject(Rejections.NotAcceptable);
    return request.readBody(maxBody, bodies).then((bytes) => {
      if (bytes === undefined) return reject(Rejections.PayloadTooLarge);
      if (bytes === 'busy') return reject(Rejections.BodiesBusy, null, RETRY_AFTER);
      try {
        return postBody(request, accept, bytes);
      } finally {
        // Parsed (or refused): its bytes are no longer held for it.
        bodies.give(bytes.byteLength);
      }
    });
  }

  function postBody(request: HttpRequest, accept: Acceptable, bytes: Uint8Array): HttpReply | Promise<HttpReply> {
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return jsonReply(parseErrorResponse(), 400);
    }
    // Depth is checked on the text before parsing, as on stdio (the server's `limits.maxJsonDepth`).
    const parsed = parseMessage(text, maxDepth);
    if (!parsed.ok) return jsonReply(parsed.response, 400);
    const classified = classify(parsed.value);
    // Batches and malformed messages (no batching since 2025-06-18, changelog item 1).
    if (classified.kind === 'invalid') return jsonReply(errorResponse(classified.id, ErrorCode.InvalidRequest, `Invalid request: ${classified.reason}`), 400);

    const params = classified.kind === 'request' || classified.kind === 'notification' ? classified.message.params : undefined;
    const modernShaped = readRequestMeta(params).kind !== 'absent';
    const sessionId = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
    if (sessionId !== null) {
      const session = store.get(sessionId.trim());
      if (session) return legacy.post(request, classified, accept, session);
      // A 2026 request ignores a stale session header (2026-07-28 streamable-http: SHOULD ignore).
      if (!modernShaped) return reject(Rejections.SessionNotFound, requestId(classified));
    }
    if (modernShaped) return modernPost(request, classified, accept);
    const version = request.headers.get(HEADER.protocolVersion)?.trim();
    if (version === undefined || LEGACY_VERSIONS.includes(version)) return legacy.post(request, classified, accept, undefined);
    return modernPost(request, classified, accept);
  }

  function sessionFor(request: HttpRequest): Session | HttpReply {
    const id = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
    // Without a session there is no GET stream and nothing to delete: 405, as a
    // 2026-07-28 server answers (streamable-http §Backward Compatibility).
    if (id === null) return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: sessionsEnabled ? METHODS_ALLOWED : 'POST' });
    return store.get(id.trim()) ?? reject(Rejections.SessionNotFound);
  }

  function route(request: HttpRequest): HttpReply | Promise<HttpReply> {
    if (closing) return reject(Rejections.ShuttingDown);
    // DNS-rebinding defence first, before anything else is revealed.
    if (!hostAllowed(request.host)) return reject(Rejections.HostNotAllowed);
    const origin = request.headers.get(HEADER.origin);
    if (origin === null) return routeAllowed(request);
    if (!originAllowed(origin)) return reject(Rejections.OriginNotAllowed);
    // A browser page on an allowed origin: answer its preflight, and let it read the answers.
    if (request.method === 'OPTIONS') return preflight(request, origin, sessionsEnabled ? METHODS_ALLOWED : 'POST');
    const answer = routeAllowed(request);
    return answer instanceof Promise ? answer.then((reply) => withCors(reply, origin)) : withCors(answer, origin);
  }

  /** Routes a request that passed the DNS-rebinding checks. */
  function routeAllowed(request: HttpRequest): HttpReply | Promise<HttpReply> {
    const { pathname } = request;
    if (authorizationServers && (pathname === METADATA_PATH || pathname === `${METADATA_PATH}${path}`)) {
      const endpoint = new URL(path, request.origin);
      if (request.method !== 'GET' && request.method !== 'HEAD') return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: 'GET' });
      return jsonReply(protectedResourceMetadata(endpoint, authorizationServers, server.info.name), 200, {
        'Cache-Control': 'max-age=3600',
      });
    }
    if (pathname !== path) return reject(Rejections.NotFound, null, undefined, tokenValid && !authorizationServers ? NO_AUTHORIZATION_SERVER : undefined);
    if (tokenValid) {
      const authorization = request.headers.get(HEADER.authorization);
      if (!tokenValid(authorization)) {
        const metadataFor = authorizationServers ? new URL(path, request.origin) : undefined;
        return reject(Rejections.Unauthorized, null, { [HEADER.wwwAuthenticate]: challenge(metadataFor, authorization !== null) });
      }
    }

    switch (request.method) {
      case 'POST':
        return post(request);
      case 'GET': {
        const session = sessionFor(request);
        return 'connection' in session ? legacy.get(request, session) : session;
      }
      case 'DELETE': {
        const session = sessionFor(request);
        if (!('connection' in session)) return session;
        store.end(session.id);
        logger.debug(`Ended session ${session.id} on DELETE`);
        return { status: 204, headers: {} };
      }
      default:
        return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: sessionsEnabled ? METHODS_ALLOWED : 'POST' });
    }
  }

  let closed: Promise<void> | undefined;

  function failed(error: unknown): HttpReply {
    logger.error('Unexpected failure in the HTTP handler', error);
    return reject(Rejections.Internal);
  }

  function reply(request: HttpRequest): Promise<HttpReply> {
    let answer: HttpReply | Promise<HttpReply>;
    try {
      answer = route(request);
    } catch (error) {
      answer = failed(error);
    }
    return answer instanceof Promise ? answer.then(undefined, failed) : Promise.resolve(answer);
  }

  const handler: HttpHandler = {
    async fetch(request) {
      let adapted: HttpRequest;
      try {
        adapted = fromWebRequest(request);
      } catch (error) {
        return toWebResponse(failed(error));
      }
      return toWebResponse(await reply(adapted));
    },
    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(sweeper);
        // Listen requests end with their result; other requests run on.
        for (const connection of modern) connection.close('shutdown');
        for (const session of store.all()) {
          session.connection.close('shutdown');
          // The GET stream carries nothing a client waits for: end it now, cleanly.
          session.stream?.close();
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            allAnswered = resolve;
            if (answering === 0) resolve();
          }),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, drainTimeoutMs);
            (timer as { unref?: () => void }).unref?.();
          }),
        ]);
        clearTimeout(timer);
        for (const connection of modern) connection.close('disconnect');
        for (const session of store.all()) store.end(session.id);
      })();
      return closed;
    },
  };
  replyFunctions.set(handler, reply);
  return handler;
}
