/**
 * OTLP/HTTP (OTLP specification §OTLP/HTTP): a batch POSTed to the traces
 * URL with node:http (or node:https) on a keep-alive connection, each
 * attempt under the exporter's timeout. Not `fetch`: a 150 KB batch took
 * 0.8-1.5 ms of CPU through it against 0.25-0.5 ms through node:http, and
 * with every span exported that is 1-2 µs a request (PERFORMANCE.md,
 * Tracing). A 429, 502, 503 or 504 answer, a timeout or a network error is
 * retried a few times with exponential backoff and jitter (§Retryable
 * Response Codes, honouring a short `Retry-After`); any other answer is
 * final, a redirect too (the headers go to no address nobody configured).
 * One warning per outage, one line when it ends. The configured headers are
 * sent and never logged: they may carry an API key; neither is the URL's
 * userinfo or query.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

function retryAfterMs(response: IncomingMessage): number | undefined {
  const header = response.headers['retry-after'];
  if (header === undefined || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/**
 * Where batches go: the URL, the request function of its scheme, and an
 * agent of its own whose idle connection the next export reuses (idle, it
 * holds no process open). Decided once per sender, not per batch.
 */
interface Target {
  readonly config: TracingConfig;
  readonly url: URL;
  readonly send: typeof httpRequest;
  readonly agent: HttpAgent;
  readonly contentType: string;
}

function targetOf(config: TracingConfig): Target {
  const url = new URL(config.url);
  const secure = url.protocol === 'https:';
  return {
    config,
    url,
    send: secure ? httpsRequest : httpRequest,
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    contentType: config.protocol === 'http/json' ? 'application/json' : 'application/x-protobuf',
  };
}

/** POSTs `body`; the answer once its body is read (and dropped), so the connection is reused. */
function post(target: Target, body: string | Uint8Array, signal: AbortSignal): Promise<IncomingMessage> {
  const headers = { ...target.config.headers, 'content-type': target.contentType, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const request = target.send(target.url, { method: 'POST', headers, agent: target.agent, signal }, (response) => {
      response.on('error', reject);
      response.on('end', () => resolve(response));
      response.resume();
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function attempt(target: Target, body: string | Uint8Array, signal: AbortSignal): Promise<Outcome> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(target.config.timeoutMs)]);
  let response: IncomingMessage;
  try {
    response = await post(target, body, timeout);
  } catch (error) {
    if (timeout.aborted) return { kind: 'retry', reason: 'timed out' };
    const code = (error as { code?: unknown }).code;
    return { kind: 'retry', reason: `network error${typeof code === 'string' ? ` ${code}` : ''}` };
  }
  const status = response.statusCode ?? 0;
  // A partial success says nothing we act on.
  if (status >= 200 && status < 300) return { kind: 'sent' };
  const afterMs = retryAfterMs(response);
  if (!RETRYABLE.has(status)) return { kind: 'failed', reason: `HTTP ${status}` };
  if (afterMs !== undefined && afterMs > RETRY_AFTER_MAX_MS) return { kind: 'failed', reason: `HTTP ${status}, retry after ${afterMs / 1000} s` };
  return afterMs === undefined ? { kind: 'retry', reason: `HTTP ${status}` } : { kind: 'retry', reason: `HTTP ${status}`, afterMs };
}

/** Tries a body up to ATTEMPTS times; the reason it failed, or undefined once sent. */
async function deliver(target: Target, body: string | Uint8Array, signal: AbortSignal): Promise<string | undefined> {
  let reason = 'not sent';
  for (let tries = 1; tries <= ATTEMPTS; tries++) {
    const outcome = await attempt(target, body, signal);
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
  const target = targetOf(config);
  let outage = false;
  return async (spans, signal) => {
    const body = config.protocol === 'http/json' ? encodeJson(config.resource, scope, spans) : encodeProtobuf(config.resource, scope, spans);
    const failed = await deliver(target, body, signal);
    if (failed === undefined) {
      if (outage) logger.info(`traces: exporting to ${where} works again`);
      outage = false;
      return;
    }
    if (!outage) logger.warn(`traces: could not export ${spans.length} spans to ${where}: ${failed}; spans are dropped until it works again`);
    outage = true;
  };
}
