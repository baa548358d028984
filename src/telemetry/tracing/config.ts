/**
 * The OpenTelemetry SDK environment variables that concern traces, read
 * from the environment object given (never `process.env`): where spans go
 * (`OTEL_EXPORTER_OTLP_*`), how they are batched (`OTEL_BSP_*`), sampled
 * (`OTEL_TRACES_SAMPLER*`) and described (`OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`), as the OpenTelemetry specification's
 * "Environment Variable Specification" and "OTLP Exporter Configuration"
 * name them. A value that cannot be used is warned about and replaced by its
 * default, never thrown: tracing must not stop the server from starting.
 */

import { trimEndOf } from '../../util/trim.js';

/** How the OTLP/HTTP body is encoded (OTLP §OTLP/HTTP: binary protobuf or JSON protobuf). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Which new traces are kept; `parentBased` defers to a remote parent's sampled flag. */
export interface SamplerConfig {
  /** The fraction of root traces kept: 1 for always_on, 0 for always_off. */
  readonly ratio: number;
  readonly parentBased: boolean;
}

export interface TracingConfig {
  /** The full URL spans are POSTed to. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Sent with every export; may carry an API key, so it is never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly resource: Readonly<Record<string, string>>;
  readonly sampler: SamplerConfig;
  readonly scheduleDelayMs: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly exportTimeoutMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;
type Warn = (message: string) => void;

/** The variable's value, trimmed; undefined when unset or empty (the specification treats empty as unset). */
function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/**
 * The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` appended to its path;
 * undefined when neither is set.
 */
function tracesUrl(env: Env, warn: Warn): string | undefined {
  const own = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (own === undefined && base === undefined) return undefined;
  const name = own !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  let url: URL;
  try {
    url = new URL((own ?? base) as string);
  } catch {
    warn(`${name} is not a URL: traces are off`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    warn(`${name} must be an http: or https: URL: traces are off`);
    return undefined;
  }
  // Trailing slashes cut in linear time (a regular expression here is quadratic on runs of `/`).
  if (own === undefined) url.pathname = `${trimEndOf(url.pathname, '/')}/v1/traces`;
  return url.href;
}

/** A `key=value,key=value` list (W3C Baggage syntax without properties), keys and values percent-decoded. */
export function parseKeyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === undefined) return out;
  for (const member of text.split(',')) {
    const at = member.indexOf('=');
    if (at <= 0) continue;
    try {
      const key = decodeURIComponent(member.slice(0, at).trim());
      const item = decodeURIComponent(member.slice(at + 1).trim());
      if (key !== '') out[key] = item;
    } catch {
      // A malformed percent-escape: that member is dropped, the rest kept.
    }
  }
  return out;
}

/** A non-negative integer variable, or its default (warned about when the value is unusable). */
function integer(env: Env, name: string, fallback: number, warn: Warn, min = 0): number {
  const text = value(env, name);
  if (text === undefined) return fallback;
  const parsed = Number(text);
  if (Number.isSafeInteger(parsed) && parsed >= min) return parsed;
  warn(`${name}=${JSON.stringify(text)} is not an integer of at least ${min}: using ${fallback}`);
  return fallback;
}

function protocolOf(env: Env, warn: Warn): OtlpProtocol {
  const name = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const asked = value(env, name);
  if (asked === undefined || asked === 'http/protobuf') return 'http/protobuf';
  if (asked === 'http/json') return 'http/json';
  warn(`${name}=${JSON.stringify(asked)} is not supported (only http/protobuf and http/json): using http/protobuf`);
  return 'http/protobuf';
}

/** OTEL_TRACES_SAMPLER and its argument; the default is parentbased_always_on. */
function samplerOf(env: Env, warn: Warn): SamplerConfig {
  const name = value(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  const parentBased = name.startsWith('parentbased_');
  const root = parentBased ? name.slice('parentbased_'.length) : name;
  if (root === 'always_on') return { ratio: 1, parentBased };
  if (root === 'always_off') return { ratio: 0, parentBased };
  if (root === 'traceidratio') {
    const arg = value(env, 'OTEL_TRACES_SAMPLER_ARG');
    const ratio = arg === undefined ? 1 : Number(arg);
    if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return { ratio, parentBased };
    warn(`OTEL_TRACES_SAMPLER_ARG=${JSON.stringify(arg)} is not a ratio between 0 and 1: using 1`);
    return { ratio: 1, parentBased };
  }
  warn(`OTEL_TRACES_SAMPLER=${JSON.stringify(name)} is not supported: using parentbased_always_on`);
  return { ratio: 1, parentBased: true };
}

/** The resource: OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME over its `service.name`, and what the SDK says of itself. */
function resourceOf(env: Env, version: string): Record<string, string> {
  const resource: Record<string, string> = { 'service.name': 'skillport', ...parseKeyValues(value(env, 'OTEL_RESOURCE_ATTRIBUTES')) };
  const service = value(env, 'OTEL_SERVICE_NAME');
  if (service !== undefined) resource['service.name'] = service;
  resource['service.version'] ??= version;
  resource['telemetry.sdk.name'] = 'skillport';
  resource['telemetry.sdk.language'] = 'nodejs';
  resource['telemetry.sdk.version'] = version;
  return resource;
}

/** Whether the SDK or the traces exporter is turned off (OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER). */
function disabled(env: Env, warn: Warn): boolean {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return true;
  const exporters = (value(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((name) => name.trim());
  if (exporters.includes('otlp')) return false;
  if (!exporters.includes('none'))
    warn(`OTEL_TRACES_EXPORTER=${JSON.stringify(exporters.join(','))} names no exporter skillport has (only otlp): traces are off`);
  return true;
}

/** The tracing configuration of `env`, or undefined when tracing is off (no endpoint, disabled, or an unusable URL). */
export function readTracingConfig(env: Env, version: string, warn: Warn): TracingConfig | undefined {
  if (disabled(env, warn)) return undefined;
  const url = tracesUrl(env, warn);
  if (url === undefined) return undefined;
  const maxQueueSize = integer(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, warn, 1);
  return {
    url,
    protocol: protocolOf(env, warn),
    headers: {
      ...parseKeyValues(value(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
      ...parseKeyValues(value(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
    },
    timeoutMs: integer(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', integer(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, warn, 1), warn, 1),
    resource: resourceOf(env, version),
    sampler: samplerOf(env, warn),
    scheduleDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, warn),
    maxQueueSize,
    // OpenTelemetry SDK §Batching processor: the batch size must not exceed the queue's.
    maxExportBatchSize: Math.min(integer(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, warn, 1), maxQueueSize),
    exportTimeoutMs: integer(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000, warn, 1),
  };
}
