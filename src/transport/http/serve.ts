/**
 * serveHttp(): the Streamable HTTP handler on a node:http server, with safe
 * defaults: bound to 127.0.0.1, header and request timeouts, and a graceful
 * close.
 */
import { createServer as createNodeServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Logger, type Server, silentLogger } from '../../server/index.js';
import { dependencyStatus } from '../../telemetry/dependencies.js';
import { type MetricsOptions, serveMetrics } from '../../telemetry/listener.js';
import { MetricsRegistry } from '../../telemetry/registry.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, type Drainable, drain } from '../lifecycle.js';
import { type ChangeBus, createChangeBus, type SharedState } from '../shared-state.js';
import { createHttpHandler } from './handler.js';
import { toNodeHandler } from './node.js';
import type { HttpHandler, HttpOptions } from './options.js';
import { splitHost } from './origin.js';

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends Omit<HttpOptions, 'metrics'> {
  /**
   * Metrics (`skillport/telemetry`): where to serve `GET /metrics` (its own
   * listener: `{ port, host? }`, host default 127.0.0.1), with the server's
   * MCP metrics and this transport's; or a registry to record the
   * transport's own into, served by whoever made it. Default none.
   */
  metrics?: MetricsOptions | MetricsRegistry;
  /** Interface to bind. Default `127.0.0.1` (2025-06-18 basic/transports §Security Warning: SHOULD bind localhost). */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Time allowed to receive the request headers. Default 10000 ms. */
  headersTimeoutMs?: number;
  /** Time allowed to receive a whole request (not to answer it). Default 30000 ms. */
  requestTimeoutMs?: number;
  /** A keep-alive connection idle this long after its last response is closed. Default 5000 ms. */
  idleTimeoutMs?: number;
  /** Largest request head (request line and headers); larger ones get 431. Default 16384 bytes. */
  maxHeaderBytes?: number;
  /**
   * Most connections open at once; one more is closed as soon as it is
   * accepted (node's `server.maxConnections`), since even refusing it with a
   * status would mean reading its request. Default 2048.
   */
  maxConnections?: number;
  /**
   * Most answer bytes written but not yet taken by their clients; while more
   * wait, new requests get 503 with `Retry-After` (as in `toNodeHandler`). Default 64 MiB.
   */
  maxBufferedResponseBytes?: number;
  /**
   * A Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for
   * TLS) shared by the replicas of this server: legacy sessions live there
   * (any replica serves any session), `/readyz` fails while it is out of
   * reach, {@link HttpServer.changes} tells replicas of catalogue changes, and
   * the server's tasks live there (`server.tasks.useStore`): any replica
   * polls, answers or cancels a task another runs, and a replica that dies
   * leaves its running tasks to be marked failed once their lease runs out.
   * The `redis` package is loaded only when this is set.
   */
  redis?: string;
  /**
   * With `redis`: how long a Redis command may wait for its answer before the
   * request that needs it gets 503 with `Retry-After` (`connectRedis`'s
   * `commandTimeoutMs`). Default 1000 ms.
   */
  redisCommandTimeoutMs?: number;
}

/** A running HTTP server. */
export interface HttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  /**
   * Graceful stop: refuses new connections, ends listen requests and GET
   * streams with their final messages, lets in-flight requests finish, then
   * closes every connection.
   */
  close(): Promise<void>;
  /**
   * With `redis`: catalogue changes between replicas. Publish when this
   * replica's source changed; subscribe to sync it when another's did.
   */
  readonly changes?: ChangeBus;
  /** With `metrics` listen options: where `GET /metrics` is served. */
  readonly metricsUrl?: URL;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Serves `server` over Streamable HTTP.
 *
 * @example
 * const http = await serveHttp(server, { port: 3000 });
 * console.error(`MCP endpoint: ${http.url}`);
 * process.on('SIGTERM', () => void http.close());
 */
export async function serveHttp(server: Server, options: ServeHttpOptions = {}): Promise<HttpServer> {
  const logger = options.logger ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(splitHost(host).hostname) && !LOOPBACK.has(host) && options.allowedHosts === undefined) {
    logger.warn(`Listening on ${host}, but only localhost Host headers are allowed; set allowedHosts to the names clients use`);
  }
  const metricsServer = options.metrics === undefined || options.metrics instanceof MetricsRegistry ? undefined : await serveMetrics(server, options.metrics);
  const metrics = metricsServer?.registry ?? (options.metrics instanceof MetricsRegistry ? options.metrics : undefined);
  const { shared, ready } = await connectShared(options, logger, metrics);
  const { metrics: _listen, ...handlerOptions } = options;
  const handler = createHttpHandler(server, { ...handlerOptions, ...(metrics ? { metrics } : {}), ...(shared ? { shared } : {}), ...(ready ? { ready } : {}) });
  const handle = toNodeHandler(handler, {
    logger,
    ...(options.maxBufferedResponseBytes !== undefined ? { maxBufferedResponseBytes: options.maxBufferedResponseBytes } : {}),
  });
  const { nodeServer, open } = createListener(options, logger, handle);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => {
      // Not listening (the port is taken): the Redis connections must not keep the process alive.
      void shared?.close();
      void metricsServer?.close();
      reject(error);
    };
    nodeServer.once('error', failed);
    nodeServer.listen(options.port ?? 0, host, () => {
      nodeServer.off('error', failed);
      resolve();
    });
  });
  const address = nodeServer.address() as AddressInfo;
  const hostname = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = new URL(options.path ?? '/mcp', `http://${hostname}:${address.port}`);
  logger.info(`Streamable HTTP endpoint at ${url.href}`);
  const lifecycle = createLifecycle(async () => {
    await stop({ nodeServer, open }, handler, shared && { shared, tasks: server.tasks }, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
    await metricsServer?.close();
  });
  return {
    url,
    close: () => lifecycle.close(),
    ...(shared ? { changes: createChangeBus(shared) } : {}),
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
  };
}

/** With `redis`: the shared state, and readiness that needs it to answer. */
async function connectShared(
  options: ServeHttpOptions,
  logger: Logger,
  metrics: MetricsRegistry | undefined,
): Promise<{ shared?: SharedState; ready?: HttpOptions['ready'] }> {
  if (options.redis === undefined) return options.ready ? { ready: options.ready } : {};
  const { connectRedis } = await import('../redis.js');
  const status = metrics && dependencyStatus(metrics);
  const redis = await connectRedis(options.redis, {
    logger,
    ...(status ? { status: (up: boolean) => status('redis', up) } : {}),
    ...(options.redisCommandTimeoutMs !== undefined ? { commandTimeoutMs: options.redisCommandTimeoutMs } : {}),
  });
  const own = options.ready;
  return { shared: redis, ready: async () => (await redis.ping()) && (own ? await own() : true) };
}

/** A node server and its open connections (closeIdle). */
interface Listener {
  readonly nodeServer: NodeServer;
  readonly open: ReadonlySet<Socket>;
}

/** The node:http server, its limits set, not yet listening. */
function createListener(options: ServeHttpOptions, logger: Logger, handle: ReturnType<typeof toNodeHandler>): Listener {
  const maxConnections = options.maxConnections ?? 2048;
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) throw new TypeError('maxConnections must be a positive integer');
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const nodeServer = createNodeServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.idleTimeoutMs ?? 5000,
      maxHeaderSize: options.maxHeaderBytes ?? 16_384,
      // node enforces the two timeouts only when it sweeps connections (every 30 s by default),
      // so a slow-loris client would hold on far past them; sweep at a fraction of the shorter one.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
    },
    handle,
  );
  nodeServer.maxConnections = maxConnections;
  nodeServer.on('drop', () => logger.debug(`Closed a connection over maxConnections (${maxConnections})`));
  // The open connections, for the stop to find those that never sent a byte (stop): a cost per
  // connection, none per request.
  const open = new Set<Socket>();
  nodeServer.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return { nodeServer, open };
}

/**
 * Closes the server's idle connections: keep-alive ones between requests,
 * and those that have not sent a byte yet (a client's connection opened
 * ahead of need), which node's closeIdleConnections counts as waiting for
 * headers and leaves open until its headers timeout. Either would only be
 * refused now.
 */
function closeIdle({ nodeServer, open }: Listener): void {
  nodeServer.closeIdleConnections();
  for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
}

/** What a stop closes besides the handler: the shared state, and the tasks kept in it. */
interface SharedParts {
  readonly shared: SharedState;
  readonly tasks: Server['tasks'];
}

/**
 * The graceful stop: the handler drains, then the sockets, then the shared
 * state closes. With shared state, the tasks this process runs are marked
 * failed while the handler drains (so a `tasks/result` waiting on one is
 * answered) and before Redis closes: no replica can carry their work on,
 * and none may be left "working".
 */
async function stop(listener: Listener, handler: HttpHandler, parts: SharedParts | undefined, drainTimeoutMs: number): Promise<void> {
  const { nodeServer } = listener;
  // The sockets drain by the same rule as the MCP connections behind them. On shutdown, answers
  // still being written end their connections' last requests: each connection is closed as it goes
  // idle (nothing is tracked per request for this); on disconnect, whatever is left is cut.
  let sweep: NodeJS.Timeout | undefined;
  const sockets: Drainable = {
    close(reason) {
      if (reason === 'shutdown') {
        sweep = setInterval(() => closeIdle(listener), 25);
        return;
      }
      clearInterval(sweep);
      nodeServer.closeAllConnections();
    },
  };
  // No new connection is accepted, and keep-alive connections waiting for a next request end now.
  const stopped = new Promise<void>((resolve) => nodeServer.close(() => resolve()));
  closeIdle(listener);
  // The handler drains first (its requests get the drain time), then the sockets get it again to
  // deliver the answers it let finish.
  await Promise.all([handler.close(), parts?.tasks.close()]);
  await drain({ connections: () => [sockets], settled: () => stopped, timeoutMs: drainTimeoutMs });
  await stopped;
  await parts?.shared.close();
}
