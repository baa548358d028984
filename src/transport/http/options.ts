/**
 * The options and the interface of the Streamable HTTP handler.
 */
import type { Logger, Principal } from '../../server/index.js';
import type { MetricsRegistry } from '../../telemetry/registry.js';
import type { SharedState } from '../shared-state.js';
import type { OAuthOptions } from './auth/oauth-options.js';
import type { HeaderReader, HttpReply, HttpRequest } from './request.js';

/** A request as a route of {@link HttpOptions.routes} sees it. */
export interface RouteRequest {
  /** The method; a `HEAD` request reaches the route as `GET`, and the transport drops the body (RFC 9110 §9.3.2). */
  readonly method: string;
  /**
   * The path of the request target, as the WHATWG URL parser normalizes it:
   * dot segments (`..`, `%2e%2e`) already resolved, every other
   * percent-encoding kept (`%2f` stays `%2f`). The route decodes, if it must.
   */
  readonly path: string;
  /** The query with its `?`, or "": never decoded by the transport. */
  readonly search: string;
  readonly headers: HeaderReader;
  /**
   * Who called, for an `authorized` route behind OAuth or a static token
   * (core/context.ts): undefined on a `guarded` route, and on an
   * `authorized` one when no authorization is configured.
   */
  readonly principal?: Principal;
  /**
   * The body, up to `max` bytes: undefined when it is larger, `busy` when the
   * routes hold too many body bytes at once (`maxBufferedRouteBodyBytes`:
   * answer 503). Read once.
   */
  readBody(max: number): Promise<Uint8Array | undefined | 'busy'>;
}

/** A route's answer: a status, headers and an optional body, text or bytes. */
export interface RouteReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** An endpoint of its own beside the MCP one (a webhook, a discovery index). */
export type HttpRoute = (request: RouteRequest) => Promise<RouteReply>;

/**
 * A route with how it is reached. `access`: `guarded` (the default) passes
 * the Host and Origin checks but no bearer token, the route guarding itself
 * (a webhook's secret); `authorized` passes the AuthGate of the MCP endpoint
 * too (the static token or OAuth, its 401 and 403 answers and challenges)
 * and gets the caller's `principal`. `prefix`: the route's key ends in `/`
 * and it answers every path under it; exact keys are matched first, then
 * the longest prefix.
 */
export interface RouteSpec {
  readonly answer: HttpRoute;
  readonly access?: 'guarded' | 'authorized';
  readonly prefix?: boolean;
}

export type { OAuthOptions } from './auth/oauth-options.js';

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
   * Most request-body bytes held at once, over all requests: a body that
   * would pass it while others are being received gets 503 with
   * `Retry-After`. Bodies stalled short of their end cannot then pin memory
   * by the connection. Default 64 MiB.
   */
  maxBufferedBodyBytes?: number;
  /**
   * Most body bytes held at once by the {@link routes} (webhooks), a budget
   * apart from `maxBufferedBodyBytes`: a route is reached without the
   * bearer token, so its bodies must never leave an authorized MCP request
   * without room. Past it a route's body gets 503 with `Retry-After`.
   * Default 4 MiB.
   */
  maxBufferedRouteBodyBytes?: number;
  /**
   * A bearer token every MCP request must carry (`Authorization: Bearer …`);
   * others get 401 with `WWW-Authenticate: Bearer realm="mcp"`. Clients are
   * configured with the header directly.
   */
  authToken?: string;
  /**
   * With `authToken`: the authorization servers that issue its tokens. They
   * turn on the Protected Resource Metadata document (RFC 9728) at the
   * well-known paths, which names them, and the 401 challenge points to it.
   * Default: none, no document (skillport runs no authorization server).
   */
  authorizationServers?: string[];
  /**
   * Makes the endpoint an OAuth 2.1 resource server (MCP authorization):
   * every request needs an access token from `oauth.issuer` issued for this
   * server; the Protected Resource Metadata document names that issuer.
   * Excludes `authToken`.
   */
  oauth?: OAuthOptions;
  /**
   * Legacy (2025-06-18, 2025-11-25) sessions with `Mcp-Session-Id`. Default
   * true. False is stateless legacy mode: no session ids, no GET stream, and
   * every request is served as if just initialized.
   */
  sessions?: boolean;
  /** Interval of keep-alive comments on long-lived SSE streams. Default 15000 ms. */
  keepAliveMs?: number;
  /**
   * Resumable SSE streams of 2025 sessions (2025-06-18 and 2025-11-25
   * basic/transports §Resumability and Redelivery): event ids on SSE answers
   * and GET streams, and a GET with `Last-Event-ID` replays what one stream
   * missed, from this process's memory or, with {@link shared}, from Redis on
   * any replica. Each stream keeps its last `maxEvents` events (default
   * 1000), `maxBytes` bytes (default 1 MiB) and `maxAgeMs` of age (default
   * 5 minutes); a resume from before that is refused (400), never replayed
   * with a gap. On 2025-11-25 each stream opens with a priming event and
   * `retry: retryMs` (default 1000); with `pollAfterMs`, a request still
   * running that long gets an SSE answer whose connection then closes, and
   * the client polls with GET. False: no event ids, `Last-Event-ID` ignored.
   */
  resumption?: false | { maxEvents?: number; maxBytes?: number; maxAgeMs?: number; retryMs?: number; pollAfterMs?: number };
  /** A legacy session idle this long, without a GET stream, ends. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Most legacy sessions kept; the least recently used idle one makes room. Default 1000. */
  maxSessions?: number;
  /**
   * How often idle legacy sessions are ended and, with shared state, the
   * records of sessions busy here are extended (a copy whose record is gone,
   * ended on another replica whose broadcast this one missed, ends too).
   * Keep it well under `sessionIdleMs`. Default half of `sessionIdleMs`,
   * between 1 and 60 seconds.
   */
  sessionSweepMs?: number;
  /**
   * Most long-lived SSE streams open at once: 2026-07-28 `subscriptions/listen`
   * requests and legacy GET streams. More get 429. Default 1000.
   */
  maxStreams?: number;
  /**
   * Most of those streams per client, by remote address (known when served
   * through {@link serveHttp} or {@link toNodeHandler}; requests without one
   * count only towards `maxStreams`). More get 429. Default 32.
   */
  maxStreamsPerClient?: number;
  /**
   * Endpoints besides the MCP one, e.g. `{ '/hooks/git': createGitHook(...) }`.
   * A bare function is `guarded` and answers its exact path; a
   * {@link RouteSpec} may be `authorized` (behind the MCP endpoint's bearer
   * token or OAuth) and, with `prefix` and a key ending in `/`, answer every
   * path under its key (exact keys first, then the longest prefix). All pass
   * the `Host` and `Origin` checks; `HEAD` is answered as `GET` without the
   * body. Their bodies are held against `maxBufferedRouteBodyBytes`.
   */
  routes?: Readonly<Record<string, HttpRoute | RouteSpec>>;
  /**
   * Count `maxStreamsPerClient` by the last `X-Forwarded-For` address (the
   * one the nearest proxy saw) instead of the remote address. Only when
   * every request comes through that proxy. Default false.
   */
  trustProxy?: boolean;
  /** How long {@link HttpHandler.close} lets in-flight requests finish. Default 5000 ms. */
  drainTimeoutMs?: number;
  /**
   * State shared with other replicas of this server (see `connectRedis`):
   * legacy sessions, resumable stream events and the server's tasks live
   * there, so any replica serves any session and any task. Default: none,
   * everything stays in this process.
   */
  shared?: SharedState;
  /**
   * Readiness for `GET /readyz` (e.g. shared state reachable); false, a
   * throw or no answer within 2 s is 503. Default: ready while serving.
   * `GET /healthz` is 200 while the process is up.
   */
  ready?: () => boolean | Promise<boolean>;
  /**
   * A metrics registry (`skillport/telemetry`) for what only the transport
   * sees: refusals by reason, open sessions and streams. The MCP requests
   * are counted by `serveMetrics`, which observes the server itself.
   */
  metrics?: MetricsRegistry;
  logger?: Logger;
}

/** A Streamable HTTP endpoint. */
export interface HttpHandler {
  /** Answers one HTTP request, through {@link reply}. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /**
   * Answers one request read by an adapter (the entry `fetch` and
   * {@link toNodeHandler} both call): for another server's request and
   * response objects, without web `Request` and `Response`. Never rejects.
   * An adapter that has the choice calls `reply` only while `fetch` is still
   * the handler's own: once `fetch` is replaced, it goes through `fetch`.
   */
  reply(request: HttpRequest): Promise<HttpReply>;
  /**
   * Stops accepting requests (503), ends listen requests and GET streams
   * cleanly, lets in-flight requests finish (up to `drainTimeoutMs`), then
   * ends every session.
   */
  close(): Promise<void>;
}
