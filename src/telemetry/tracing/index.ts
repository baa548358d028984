/**
 * `startTracing`: one OpenTelemetry SERVER span per request, exported over
 * OTLP/HTTP, configured by the standard `OTEL_*` environment variables.
 * This module is all that loads until an endpoint variable is set: the
 * spans, the exporter and their configuration are imported on demand
 * (start.ts), so a server without tracing pays nothing for it.
 */
import type { Server } from '../../server/index.js';
import type { Tracing, TracingOptions } from './start.js';

export type { Tracing, TracingOptions } from './start.js';

/** Whether `env` names an OTLP traces endpoint, the one thing without which tracing stays off. */
export function tracingEndpointSet(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/**
 * Starts tracing `server` when `options.env` configures it: an
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`), neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`. Resolves to
 * undefined when tracing is off. Call `shutdown` before exiting, or the last
 * spans are lost.
 *
 * @example
 * const tracing = await startTracing(server, { env: process.env, logger });
 * // ... serve ...
 * await tracing?.shutdown();
 */
export async function startTracing(server: Server, options: TracingOptions): Promise<Tracing | undefined> {
  if (!tracingEndpointSet(options.env)) return undefined;
  const { startTracingNow } = await import('./start.js');
  return startTracingNow(server, options);
}
