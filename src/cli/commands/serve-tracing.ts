/**
 * Traces for `skillport serve`, over stdio and HTTP alike: started when the
 * environment names an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), the rest of the `OTEL_*` variables
 * read by the library. Without one, the telemetry entry is never imported:
 * a server that does not trace loads no tracing code.
 */
import type { Logger, Server } from '../../index.js';

/** Tracing as serve stops it: its last spans flushed before the process exits. */
export interface ServeTracing {
  shutdown(): Promise<void>;
}

/** Starts tracing `server` when `env` asks for it; undefined otherwise. */
export async function serveTracing(server: Server, env: Record<string, string | undefined>, logger: Logger): Promise<ServeTracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) return undefined;
  const { startTracing } = await import('../../telemetry.js');
  return startTracing(server, { env, logger });
}
