/**
 * `skillport/telemetry`: metrics in the Prometheus text format with the
 * OpenTelemetry names for MCP, on a listener of their own; traces over
 * OTLP/HTTP, configured by the standard `OTEL_*` variables and loaded only
 * when they ask for it.
 */
export type { MetricsOptions, MetricsServer } from './telemetry/listener.js';
export { METRICS_PATH, serveMetrics } from './telemetry/listener.js';
export { DURATION_BUCKETS, errorTypeOf, operationMetrics, targetOf } from './telemetry/operations.js';
export type { Counter, Gauge, Histogram, Labels } from './telemetry/registry.js';
export { MetricsRegistry } from './telemetry/registry.js';
export type { Tracing, TracingOptions } from './telemetry/tracing/index.js';
export { startTracing } from './telemetry/tracing/index.js';
