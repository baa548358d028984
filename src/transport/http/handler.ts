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
 * the optional bearer token, the body cap, and the media types.
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
import { type Logger, type Server, silentLogger } from '../../server/index.js';
import { challenge, createTokenCheck, METADATA_PATH, protectedResourceMetadata } from './auth.js';
import { reject, Rejections } from './errors.js';
import { createExchange, type Exchange, jsonResponse } from './exchange.js';
import { type Acceptable, HEADER, isJsonContentType, parseAccept } from './headers.js';
import { checkModernRequest, modernStatus } from './modern.js';
import { createHostCheck, createOriginCheck } from './origin.js';
import { attachStream, createSessionStore, type Session } from './sessions.js';
import { createSseStream, sseHeaders } from './sse.js';

/** Options of {@link createHttpHandler} and {@link serveHttp}. */
export interface HttpOptions {
  /** The MCP endpoint's path. Default `/mcp`. */
  path?: string;
  /**
   * Origins a browser may call from, e.g. `https://app.example.com`; `*`
   * allows any. Default: http and https on localhost, 127.0.0.1 and [::1],
   * any port. A present Origin outside the list gets 403.
   */
  allowedOrigins?: string[];
  /**
   * Values the `Host` header may take: hostnames (any port) or `host:port`;
   * `*` allows any. Default: localhost, 127.0.0.1 and [::1], any port. Add
   * your public name when serving beyond this machine.
   */
  allowedHosts?: string[];
  /** Largest request body accepted, in bytes; larger ones get 413. Default: the server's `limits.maxMessageBytes` (4 MiB). */
  maxBodyBytes?: number;
  /**
   * A bearer token every MCP request must carry (`Authorization: Bearer …`);
   * others get 401 with `WWW-Authenticate`. It also turns on the Protected
   * Resource Metadata document (RFC 9728) at the well-known paths.
   */
  authToken?: string;
  /**
   * Authorization servers named in the Protected Resource Metadata. Default:
   * the server's own origin (skillport runs no authorization server; with a
   * static token, configure clients with the header directly).
   */
  authorizationServers?: string[];
  /**
   * Legacy (2025-06-18, 2025-11-25) sessions with `Mcp-Session-Id`. Default
   * true. False is stateless legacy mode: no session ids, no GET stream, and
   * every request is served as if just initialized.
   */
  sessions?: boolean;
  /** Interval of keep-alive comments on long-lived SSE streams. Default 15000 ms. */
  keepAliveMs?: number;
  /** A legacy session idle this long, without a GET stream, ends. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Most legacy sessions kept; the least recently used idle one makes room. Default 1000. */
  maxSessions?: number;
  /** How long {@link HttpHandler.close} lets in-flight requests finish. Default 5000 ms. */
  drainTimeoutMs?: number;
  logger?: Logger;
}

/** A Streamable HTTP endpoint. */
export interface HttpHandler {
  /** Answers one HTTP request. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /**
   * Stops accepting requests (503), ends listen requests and GET streams
   * cleanly, lets in-flight requests finish (up to `drainTimeoutMs`), then
   * ends every session.
   */
  close(): Promise<void>;
}

const METHODS_ALLOWED = 'GET, POST, DELETE';

/** Reads the body up to `max` bytes; undefined when it is larger. */
async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function requestId(classified: Classified): JsonRpcRequest['id'] | null {
  return classified.kind === 'request' ? classified.message.id : classified.kind === 'notification' ? null : classified.id;
}

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
  const maxDepth = server.limits.maxJsonDepth;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? 5000;
  const sessionsEnabled = options.sessions ?? true;
  const hostAllowed = createHostCheck(options.allowedHosts);
  const originAllowed = createOriginCheck(options.allowedOrigins);
  const tokenValid = options.authToken !== undefined ? createTokenCheck(options.authToken) : undefined;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const store = createSessionStore({ idleMs, maxSessions: options.maxSessions ?? 1000 });
  const sweeper = setInterval(() => store.sweep(), Math.max(1000, Math.min(idleMs / 2, 60_000)));
  (sweeper as { unref?: () => void }).unref?.();

  /** Answers in flight, so close() can wait for them. */
  const pending = new Set<Promise<void>>();
  /** Connections of 2026 requests in flight, so close() can end listen requests. */
  const modern = new Set<{ close(reason: 'disconnect' | 'shutdown'): void }>();
  let closing = false;

  function track(exchange: Exchange): void {
    pending.add(exchange.done);
    void exchange.done.finally(() => pending.delete(exchange.done));
  }

  function internalError(id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse {
    logger.error('Unexpected failure while handling a request', error);
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  // ---- Legacy era (2025-06-18, 2025-11-25) ----

  /** A legacy version header must name a legacy revision we serve (2025-06-18 basic/transports §Protocol Version Header). */
  function legacyHeaderRejected(headers: Headers, id: JsonRpcRequest['id'] | null): Response | undefined {
    const version = headers.get(HEADER.protocolVersion)?.trim();
    if (version === undefined || LEGACY_VERSIONS.includes(version)) return undefined;
    return reject(Rejections.UnsupportedVersionHeader, id, {}, version);
  }

  function answerLegacy(session: Session | undefined, run: () => Promise<JsonRpcResponse | undefined>, id: JsonRpcRequest['id'], accept: Acceptable, headers?: Record<string, string>): Promise<Response> {
    // Legacy JSON-RPC errors are ordinary answers: 200 (the revisions name no other status).
    const exchange = createExchange({ accept, keepAliveMs, statusFor: () => 200, ...(headers ? { headers } : {}) });
    track(exchange);
    if (session) session.inFlight++;
    run()
      .then((response) => exchange.finish(response))
      .catch((error: unknown) => exchange.finish(internalError(id, error)))
      .finally(() => {
        if (!session) return;
        session.inFlight--;
        session.lastActive = Date.now();
      });
    return exchange.response;
  }

  async function legacyPost(request: Request, classified: Classified, accept: Acceptable, session: Session | undefined): Promise<Response> {
    const id = requestId(classified);
    const badVersion = legacyHeaderRejected(request.headers, id);
    if (badVersion) return badVersion;

    if (classified.kind === 'request' && classified.message.method === 'initialize' && !session) {
      return initialize(classified.message, accept);
    }
    if (session) {
      session.lastActive = Date.now();
      if (classified.kind !== 'request') {
        // Notifications and responses: 202 with no body (2025-06-18 basic/transports §Sending Messages).
        // This server sends no requests, so a response has nothing to answer.
        if (classified.kind === 'notification') await session.connection.receive(classified.message);
        return new Response(null, { status: 202 });
      }
      const message = classified.message;
      return answerLegacy(session, () => session.connection.receive(message), message.id, accept);
    }
    if (sessionsEnabled) return reject(Rejections.SessionRequired, id);
    if (classified.kind !== 'request') return new Response(null, { status: 202 });
    return statelessLegacy(request.headers, classified.message, accept);
  }

  function initialize(message: JsonRpcRequest, accept: Acceptable): Promise<Response> {
    if (!sessionsEnabled) {
      const connection = server.connect({ send() {} });
      return answerLegacy(undefined, () => connection.receive(message).finally(() => connection.close('disconnect')), message.id, accept);
    }
    const session = store.open(server);
    return (async () => {
      let response: JsonRpcResponse | undefined;
      try {
        response = await session.connection.receive(message);
      } catch (error) {
        response = internalError(message.id, error);
      }
      if (!response || !('result' in response)) {
        session.connection.close('disconnect');
        return answerLegacy(undefined, async () => response, message.id, accept);
      }
      if (!store.register(session)) {
        session.connection.close('disconnect');
        return reject(Rejections.TooManySessions, message.id);
      }
      logger.debug(`Opened session ${session.id}`);
      return answerLegacy(undefined, async () => response, message.id, accept, { [HEADER.sessionId]: session.id });
    })();
  }

  /**
   * Stateless legacy mode: a fresh connection per request, initialized on
   * the spot at the version the header names. Without the header the spec
   * says to assume 2025-03-26 (2025-06-18 basic/transports §Protocol Version
   * Header); the oldest served revision is its closest match.
   */
  function statelessLegacy(headers: Headers, message: JsonRpcRequest, accept: Acceptable): Promise<Response> {
    const version = headers.get(HEADER.protocolVersion)?.trim() ?? LEGACY_VERSIONS[LEGACY_VERSIONS.length - 1];
    const connection = server.connect({ send() {} });
    return answerLegacy(
      undefined,
      async () => {
        try {
          await connection.receive({
            jsonrpc: '2.0',
            id: `stateless-initialize-${String(message.id)}`,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'stateless-http-client', version: '0.0.0' } },
          });
          await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
          return await connection.receive(message);
        } finally {
          connection.close('disconnect');
        }
      },
      message.id,
      accept,
    );
  }

  function legacyGet(request: Request, session: Session): Response {
    const badVersion = legacyHeaderRejected(request.headers, null);
    if (badVersion) return badVersion;
    if (!parseAccept(request.headers.get(HEADER.accept)).sse) return reject(Rejections.StreamNotAcceptable);
    if (session.stream?.open) return reject(Rejections.StreamConflict);
    // No event ids: this server does not resume streams, so Last-Event-ID is ignored
    // and the request opens a fresh stream (resumability is optional, 2025-06-18 §Resumability).
    const stream = createSseStream({
      keepAliveMs,
      onCancel: () => {
        if (session.stream === stream) session.stream = undefined;
        session.lastActive = Date.now();
      },
    });
    attachStream(session, stream);
    session.lastActive = Date.now();
    return new Response(stream.body, { status: 200, headers: sseHeaders() });
  }

  // ---- 2026-07-28 ----

  function modernPost(request: Request, classified: Classified, accept: Acceptable): Response | Promise<Response> {
    if (classified.kind === 'response') return reject(Rejections.ResponseNotAllowed, classified.id);
    if (classified.kind === 'notification') {
      // Core 2026-07-28 defines no client notification over HTTP (closing the stream
      // cancels), and header rules for notification POSTs are left open: accept it.
      return new Response(null, { status: 202 });
    }
    if (classified.kind !== 'request') return reject(Rejections.NotFound);
    const message = classified.message;
    const rejection = checkModernRequest(request.headers, message);
    if (rejection) return jsonResponse(rejection.body, rejection.status);
    if (message.method === 'subscriptions/listen' && !accept.sse) return reject(Rejections.StreamNotAcceptable, message.id);

    let connection: ReturnType<Server['connect']> | undefined;
    const disconnect = (): void => connection?.close('disconnect');
    const exchange = createExchange({
      accept,
      keepAliveMs,
      statusFor: modernStatus,
      // A closed response stream cancels the request (2026-07-28 streamable-http §Cancellation).
      onClientGone: disconnect,
    });
    connection = server.connect({
      send(outgoing) {
        if ('method' in outgoing) exchange.notify(outgoing);
      },
    });
    const handle = connection;
    modern.add(handle);
    track(exchange);
    request.signal.addEventListener('abort', disconnect, { once: true });
    if (request.signal.aborted) disconnect();
    handle
      .receive(message)
      .then((response) => exchange.finish(response))
      .catch((error: unknown) => exchange.finish(internalError(message.id, error)))
      .finally(() => {
        request.signal.removeEventListener('abort', disconnect);
        handle.close('disconnect');
        modern.delete(handle);
      });
    return exchange.response;
  }

  // ---- Routing ----

  async function post(request: Request): Promise<Response> {
    if (!isJsonContentType(request.headers.get(HEADER.contentType))) return reject(Rejections.UnsupportedMediaType);
    const accept = parseAccept(request.headers.get(HEADER.accept));
    if (!accept.json && !accept.sse) return reject(Rejections.NotAcceptable);
    const bytes = await readBody(request, maxBody);
    if (!bytes) return reject(Rejections.PayloadTooLarge);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return jsonResponse(parseErrorResponse(), 400);
    }
    // Depth is checked on the text before parsing, as on stdio (the server's `limits.maxJsonDepth`).
    const parsed = parseMessage(text, maxDepth);
    if (!parsed.ok) return jsonResponse(parsed.response, 400);
    const classified = classify(parsed.value);
    // Batches and malformed messages (no batching since 2025-06-18, changelog item 1).
    if (classified.kind === 'invalid') return jsonResponse(errorResponse(classified.id, ErrorCode.InvalidRequest, `Invalid request: ${classified.reason}`), 400);

    const params = classified.kind === 'request' || classified.kind === 'notification' ? classified.message.params : undefined;
    const modernShaped = readRequestMeta(params).kind !== 'absent';
    const sessionId = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
    if (sessionId !== null) {
      const session = store.get(sessionId.trim());
      if (session) return legacyPost(request, classified, accept, session);
      // A 2026 request ignores a stale session header (2026-07-28 streamable-http: SHOULD ignore).
      if (!modernShaped) return reject(Rejections.SessionNotFound, requestId(classified));
    }
    if (modernShaped) return modernPost(request, classified, accept);
    const version = request.headers.get(HEADER.protocolVersion)?.trim();
    if (version === undefined || LEGACY_VERSIONS.includes(version)) return legacyPost(request, classified, accept, undefined);
    return modernPost(request, classified, accept);
  }

  function sessionFor(request: Request): Session | Response {
    const id = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
    // Without a session there is no GET stream and nothing to delete: 405, as a
    // 2026-07-28 server answers (streamable-http §Backward Compatibility).
    if (id === null) return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: sessionsEnabled ? METHODS_ALLOWED : 'POST' });
    return store.get(id.trim()) ?? reject(Rejections.SessionNotFound);
  }

  async function route(request: Request): Promise<Response> {
    if (closing) return reject(Rejections.ShuttingDown);
    const url = new URL(request.url);
    // DNS-rebinding defence first, before anything else is revealed.
    if (!hostAllowed(request.headers.get(HEADER.host) ?? url.host)) return reject(Rejections.HostNotAllowed);
    const origin = request.headers.get(HEADER.origin);
    if (origin !== null && !originAllowed(origin)) return reject(Rejections.OriginNotAllowed);

    const endpoint = new URL(path, url);
    if (tokenValid && (url.pathname === METADATA_PATH || url.pathname === `${METADATA_PATH}${path}`)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: 'GET' });
      return jsonResponse(protectedResourceMetadata(endpoint, options.authorizationServers, server.info.name), 200, {
        'Cache-Control': 'max-age=3600',
      });
    }
    if (url.pathname !== path) return reject(Rejections.NotFound);
    if (tokenValid) {
      const authorization = request.headers.get(HEADER.authorization);
      if (!tokenValid(authorization)) {
        return reject(Rejections.Unauthorized, null, { [HEADER.wwwAuthenticate]: challenge(endpoint, authorization !== null) });
      }
    }

    switch (request.method) {
      case 'POST':
        return post(request);
      case 'GET': {
        const session = sessionFor(request);
        return session instanceof Response ? session : legacyGet(request, session);
      }
      case 'DELETE': {
        const session = sessionFor(request);
        if (session instanceof Response) return session;
        store.end(session.id);
        logger.debug(`Ended session ${session.id} on DELETE`);
        return new Response(null, { status: 204 });
      }
      default:
        return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: sessionsEnabled ? METHODS_ALLOWED : 'POST' });
    }
  }

  let closed: Promise<void> | undefined;

  return {
    async fetch(request) {
      try {
        return await route(request);
      } catch (error) {
        logger.error('Unexpected failure in the HTTP handler', error);
        return reject(Rejections.Internal);
      }
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
          Promise.allSettled([...pending]),
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
}
