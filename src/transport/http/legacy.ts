/**
 * The legacy half of the endpoint, 2025-06-18 and 2025-11-25
 * (basic/transports §Streamable HTTP): `initialize` opens a session whose id
 * every later request carries; requests are answered as JSON (or one SSE
 * event for a client that accepts only SSE); the session's GET stream
 * carries what the server sends unprompted; stateless legacy mode answers
 * each request from a connection initialized on the spot.
 */
import type { Classified, JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc/messages.js';
import { LEGACY_VERSIONS } from '../../protocol/index.js';
import type { Logger, Server } from '../../server/index.js';
import { requestId } from './body.js';
import { reject, Rejections } from './errors.js';
import { createExchange } from './exchange.js';
import { type Acceptable, HEADER, parseAccept } from './headers.js';
import type { HeaderReader, HttpReply, HttpRequest } from './request.js';
import { attachStream, type Session, type SessionStore } from './sessions.js';
import { createSseStream, sseHeaders } from './sse.js';

/** What the legacy half needs from the handler. */
export interface LegacyContext {
  server: Server;
  store: SessionStore;
  logger: Logger;
  keepAliveMs: number;
  sessionsEnabled: boolean;
  /** Counts an answer in flight, so close() can wait for it; call the returned function when it is complete. */
  track(): () => void;
  /** Logs an unexpected failure and turns it into a -32603 response. */
  internalError(id: JsonRpcRequest['id'], error: unknown): JsonRpcResponse;
  /** Takes a place for a long-lived stream; undefined when the caps are reached. */
  takeStream(request: HttpRequest): (() => void) | undefined;
}

/** The legacy routes. */
export interface LegacyEra {
  /** A POST routed to the legacy era, in `session` when it named a known one. */
  post(request: HttpRequest, classified: Classified, accept: Acceptable, session: Session | undefined): HttpReply | Promise<HttpReply>;
  /** A GET on a known session: its SSE stream. */
  get(request: HttpRequest, session: Session): HttpReply;
}

/** Creates the legacy routes over a handler's session store. */
export function createLegacyEra(context: LegacyContext): LegacyEra {
  const { server, store, logger, keepAliveMs, sessionsEnabled, track, internalError, takeStream } = context;

  /** A legacy version header must name a legacy revision we serve (2025-06-18 basic/transports §Protocol Version Header). */
  function legacyHeaderRejected(headers: HeaderReader, id: JsonRpcRequest['id'] | null): HttpReply | undefined {
    const version = headers.get(HEADER.protocolVersion)?.trim();
    if (version === undefined || LEGACY_VERSIONS.includes(version)) return undefined;
    return reject(Rejections.UnsupportedVersionHeader, id, undefined, version);
  }

  function answerLegacy(session: Session | undefined, run: () => Promise<JsonRpcResponse | undefined>, id: JsonRpcRequest['id'], accept: Acceptable, headers?: Record<string, string>): Promise<HttpReply> {
    // Legacy JSON-RPC errors are ordinary answers: 200 (the revisions name no other status).
    const exchange = createExchange({ accept, keepAliveMs, statusFor: () => 200, onDone: track(), ...(headers ? { headers } : {}) });
    if (session) session.inFlight++;
    const settle = (response: JsonRpcResponse | undefined): void => {
      exchange.finish(response);
      if (!session) return;
      session.inFlight--;
      session.lastActive = Date.now();
    };
    run().then(settle, (error: unknown) => settle(internalError(id, error)));
    return exchange.response;
  }

  function legacyPost(request: HttpRequest, classified: Classified, accept: Acceptable, session: Session | undefined): HttpReply | Promise<HttpReply> {
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
        if (classified.kind === 'notification') return session.connection.receive(classified.message).then(() => ({ status: 202, headers: {} }));
        return { status: 202, headers: {} };
      }
      const message = classified.message;
      return answerLegacy(session, () => session.connection.receive(message), message.id, accept);
    }
    if (sessionsEnabled) return reject(Rejections.SessionRequired, id);
    if (classified.kind !== 'request') return { status: 202, headers: {} };
    return statelessLegacy(request.headers, classified.message, accept);
  }

  function initialize(message: JsonRpcRequest, accept: Acceptable): Promise<HttpReply> {
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
  function statelessLegacy(headers: HeaderReader, message: JsonRpcRequest, accept: Acceptable): Promise<HttpReply> {
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

  function legacyGet(request: HttpRequest, session: Session): HttpReply {
    const badVersion = legacyHeaderRejected(request.headers, null);
    if (badVersion) return badVersion;
    if (!parseAccept(request.headers.get(HEADER.accept)).sse) return reject(Rejections.StreamNotAcceptable);
    if (session.stream?.open) return reject(Rejections.StreamConflict);
    const release = takeStream(request);
    if (!release) return reject(Rejections.TooManyStreams);
    // No event ids: this server does not resume streams, so Last-Event-ID is ignored
    // and the request opens a fresh stream (resumability is optional, 2025-06-18 §Resumability).
    const stream = createSseStream({
      keepAliveMs,
      onEnd: release,
      onCancel: () => {
        if (session.stream === stream) session.stream = undefined;
        session.lastActive = Date.now();
      },
    });
    attachStream(session, stream);
    session.lastActive = Date.now();
    return { status: 200, headers: sseHeaders(), body: stream.body };
  }

  return { post: legacyPost, get: legacyGet };
}
