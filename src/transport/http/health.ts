/**
 * Health endpoints for load balancers and orchestrators: `GET /healthz`
 * answers 200 while the process serves (liveness), `GET /readyz` 200 when
 * the `ready` check passes and 503 otherwise or while draining (readiness),
 * so a proxy stops sending new work to a replica that is stopping or whose
 * shared state (Redis) is out of reach.
 *
 * They answer before the Host and Origin checks and the bearer token, on
 * purpose: health checkers (nginx, Kubernetes probes, cloud load balancers)
 * send the Host they dialled, often a bare address, and carry no token. That
 * is safe because the bodies say nothing but "ok" or "unavailable": a DNS
 * rebinding page or an unauthenticated caller learns only that the process
 * is up, which it learns from the TCP handshake anyway.
 */
import type { HttpReply, HttpRequest, Route } from './request.js';

/** Liveness: the process is up. */
export const HEALTH_PATH = '/healthz';
/** Readiness: the catalogue is loaded and shared state is reachable. */
export const READY_PATH = '/readyz';

/** A readiness check that does not answer within this long counts as failed. */
const READY_TIMEOUT_MS = 2000;

const NO_STORE = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } as const;

function text(status: number, body: string, method: string): HttpReply {
  // HEAD gets the status and headers only (RFC 9110 §9.3.2).
  return method === 'HEAD' ? { status, headers: NO_STORE } : { status, headers: NO_STORE, body };
}

async function passes(ready: () => boolean | Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(ready),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function notAllowed(method: string): HttpReply | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  return { status: 405, headers: { ...NO_STORE, Allow: 'GET, HEAD' }, body: 'method not allowed\n' };
}

/**
 * The two health routes, answered before the handler's guards (`open`).
 * `serving` is false once the handler drains; `ready` is the caller's check
 * (none: ready whenever serving).
 */
export function healthRoutes(serving: () => boolean, ready: (() => boolean | Promise<boolean>) | undefined): Route[] {
  const health: Route = {
    path: HEALTH_PATH,
    access: 'open',
    answer: ({ method }) => notAllowed(method) ?? text(200, 'ok\n', method),
  };
  const readiness: Route = {
    path: READY_PATH,
    access: 'open',
    answer({ method }: HttpRequest) {
      const refused = notAllowed(method);
      if (refused) return refused;
      if (!serving()) return text(503, 'unavailable\n', method);
      if (!ready) return text(200, 'ok\n', method);
      return passes(ready).then((ok) => (ok ? text(200, 'ok\n', method) : text(503, 'unavailable\n', method)));
    },
  };
  return [health, readiness];
}
