/**
 * The metrics endpoint: `GET /metrics` in the Prometheus text format on a
 * listener of its own (`serve --metrics [HOST:]PORT`), so that scraping
 * needs no MCP token and the MCP port exposes nothing more. Bound to
 * 127.0.0.1 unless told otherwise; while it is, only loopback `Host` names
 * are answered, so a web page cannot read the metrics (which name the
 * skills) through DNS rebinding, as for the MCP endpoint (2025-06-18
 * basic/transports §Security Warning).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '../server/index.js';
import { operationMetrics } from './operations.js';
import { MetricsRegistry } from './registry.js';

/** Where {@link serveMetrics} listens, and what it serves. */
export interface MetricsOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** The registry to serve; default a new one. Give the same one to `serveHttp`'s `metrics` for the transport's own. */
  registry?: MetricsRegistry;
}

export interface MetricsServer {
  /** `http://HOST:PORT/metrics`. */
  readonly url: URL;
  readonly registry: MetricsRegistry;
  close(): Promise<void>;
}

export const METRICS_PATH = '/metrics';
/** The Prometheus text format's media type. */
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const LOOPBACK = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/i;

function isLoopbackBind(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

/**
 * Serves `registry`'s metrics, and the server's MCP metrics in it
 * (operations.ts); `close` stops both.
 *
 * @example
 * const metrics = await serveMetrics(server, { port: 9464 });
 * const http = await serveHttp(server, { port: 3000, metrics: metrics.registry });
 */
export async function serveMetrics(server: Server, options: MetricsOptions): Promise<MetricsServer> {
  const registry = options.registry ?? new MetricsRegistry();
  const stopObserving = server.observe(operationMetrics(registry));
  return listen(registry, options, stopObserving);
}

async function listen(registry: MetricsRegistry, options: MetricsOptions, stopObserving: () => void): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1';
  const loopbackOnly = isLoopbackBind(host);
  const listener = createServer({ requestTimeout: 10_000, headersTimeout: 5_000 }, (request, response) => {
    request.resume();
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'Content-Type': status === 200 ? CONTENT_TYPE : 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (loopbackOnly && !LOOPBACK.test(request.headers.host ?? '')) return send(403, 'Forbidden: Host header not allowed\n');
    if (path !== METRICS_PATH) return send(404, 'Not Found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    send(200, registry.collect());
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address() as AddressInfo;
  const hostname = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: new URL(METRICS_PATH, `http://${hostname}:${address.port}`),
    registry,
    close: () =>
      new Promise<void>((resolve) => {
        stopObserving();
        listener.close(() => resolve());
        listener.closeAllConnections();
      }),
  };
}
