/**
 * OTLP/HTTP (OTLP specification §OTLP/HTTP): a batch POSTed to the traces
 * URL with `fetch`, each attempt under the exporter's timeout. A 429, 502,
 * 503 or 504 answer, a timeout or a network error is retried a few times
 * with exponential backoff and jitter (§Retryable Response Codes, honouring
 * a short `Retry-After`); any other answer is final. One warning per outage,
 * one line when it ends. The configured headers are sent and never logged:
 * they may carry an API key; neither is the URL's userinfo or query.
 */
import type { Logger } from '../../server/index.js';
import { pause } from '../../util/pause.js';
import type { TracingConfig } from './config.js';
import { encodeJson, encodeProtobuf, type Scope } from './encode.js';
import type { ExportBatch } from './exporter.js';

/** Attempts per batch, the first included. */
const ATTEMPTS = 4;
/** Backoff before the second attempt; doubled for each after it. */
const FIRST_BACKOFF_MS = 500;
/** Longest wait a `Retry-After` may ask for; a longer one ends the retries. */
const RETRY_AFTER_MAX_MS = 30_000;
const RETRYABLE = new Set([429, 502, 503, 504]);

/** What an attempt came to. */
type Outcome = { kind: 'sent' } | { kind: 'retry'; reason: string; afterMs?: number } | { kind: 'failed'; reason: string };

/** The URL as it may be logged: no userinfo, no query. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

async function attempt(config: TracingConfig, body: string | Uint8Array, signal: AbortSignal): Promise<Outcome> {
  const contentType = config.protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
  let response: Response;
  try {
    response = await fetch(config.url, {
      method: 'POST',
      headers: { ...config.headers, 'content-type': contentType },
      body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]),
    });
  } catch (error) {
    const { name, cause } = error as { name?: unknown; cause?: { code?: unknown } };
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'retry', reason: 'timed out' };
    return { kind: 'retry', reason: `network error${typeof cause?.code === 'string' ? ` ${cause.code}` : ''}` };
  }
  // The body is read (and dropped) so the connection is reused; a partial success says nothing we act on.
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return { kind: 'sent' };
  const afterMs = retryAfterMs(response);
  if (!RETRYABLE.has(response.status)) return { kind: 'failed', reason: `HTTP ${response.status}` };
  if (afterMs !== undefined && afterMs > RETRY_AFTER_MAX_MS) return { kind: 'failed', reason: `HTTP ${response.status}, retry after ${afterMs / 1000} s` };
  return afterMs === undefined ? { kind: 'retry', reason: `HTTP ${response.status}` } : { kind: 'retry', reason: `HTTP ${response.status}`, afterMs };
}

/** Tries a body up to ATTEMPTS times; the reason it failed, or undefined once sent. */
async function deliver(config: TracingConfig, body: string | Uint8Array, signal: AbortSignal): Promise<string | undefined> {
  let reason = 'not sent';
  for (let tries = 1; tries <= ATTEMPTS; tries++) {
    const outcome = await attempt(config, body, signal);
    if (outcome.kind === 'sent') return undefined;
    reason = outcome.reason;
    if (outcome.kind === 'failed' || tries === ATTEMPTS) break;
    const backoff = FIRST_BACKOFF_MS * 2 ** (tries - 1);
    const wait = outcome.afterMs ?? backoff / 2 + Math.random() * backoff;
    if (await pause(wait, signal)) return `${reason}; gave up at the export timeout`;
  }
  return reason;
}

/** The function the batch processor sends batches with. */
export function createOtlpSender(config: TracingConfig, scope: Scope, logger: Logger): ExportBatch {
  const where = shown(config.url);
  let outage = false;
  return async (spans, signal) => {
    const body = config.protocol === 'http/json' ? encodeJson(config.resource, scope, spans) : encodeProtobuf(config.resource, scope, spans);
    const failed = await deliver(config, body, signal);
    if (failed === undefined) {
      if (outage) logger.info(`traces: exporting to ${where} works again`);
      outage = false;
      return;
    }
    if (!outage) logger.warn(`traces: could not export ${spans.length} spans to ${where}: ${failed}; spans are dropped until it works again`);
    outage = true;
  };
}
