/**
 * Tracing switched on: the configuration read, the span observer joined to
 * the server, the batch processor and the OTLP/HTTP sender behind it.
 * Loaded only by `startTracing` (index.ts), and only when an endpoint is
 * configured, so a server without tracing never loads this module or those
 * it imports.
 */
import { type Logger, type Server, silentLogger } from '../../server/index.js';
import { readTracingConfig } from './config.js';
import { createBatchProcessor } from './exporter.js';
import { createOtlpSender } from './otlp-http.js';
import { requestSpans } from './spans.js';

export interface TracingOptions {
  /** The environment to read `OTEL_*` from (the CLI passes `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where configuration problems and export outages are told; silent by default. Never given the exporter's headers. */
  readonly logger?: Logger;
  /** `service.version` unless `OTEL_RESOURCE_ATTRIBUTES` sets it, and the scope's version; the server's version by default. */
  readonly version?: string;
}

/** Tracing as it runs. */
export interface Tracing {
  /** Exports the spans finished so far. */
  flush(): Promise<void>;
  /** Stops making spans and exports what is left, within `OTEL_BSP_EXPORT_TIMEOUT`. */
  shutdown(): Promise<void>;
}

/** The scope name spans are reported under. */
const SCOPE = 'skillport';

/** Starts tracing `server` as `options.env` configures it; undefined when the configuration turns it off. */
export function startTracingNow(server: Server, options: TracingOptions): Tracing | undefined {
  const logger = options.logger ?? silentLogger;
  const version = options.version ?? server.info.version;
  const config = readTracingConfig(options.env, version, (message) => logger.warn(`traces: ${message}`));
  if (config === undefined) return undefined;
  const send = createOtlpSender(config, { name: SCOPE, version }, logger);
  const processor = createBatchProcessor(config, send, () =>
    logger.warn(`traces: the span queue is full (OTEL_BSP_MAX_QUEUE_SIZE=${config.maxQueueSize}): spans are dropped until it drains`),
  );
  const stop = server.observe(requestSpans(config.sampler, (span) => processor.add(span)));
  logger.debug(`traces: exporting spans to ${new URL(config.url).origin} as ${config.protocol}`);
  let done: Promise<void> | undefined;
  return {
    flush: () => processor.flush(),
    shutdown() {
      done ??= (async () => {
        stop();
        await processor.shutdown();
        if (processor.dropped > 0) logger.warn(`traces: ${processor.dropped} spans were dropped in all because the queue was full`);
      })();
      return done;
    },
  };
}
