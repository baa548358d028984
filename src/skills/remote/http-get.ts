/**
 * One bounded HTTP GET for a discovery index source: a timeout for the whole
 * exchange, a cap on the body read (a server that sends more is cut off, not
 * buffered), redirects followed by hand so that each hop is checked against
 * the origins the source may reach (RFC Agent Skills Discovery "HTTP
 * Considerations": clients MUST handle redirects; an index must not make the
 * server fetch hosts it was not pointed at), and `If-None-Match` (RFC 9110
 * §13.1.2) for the index.
 */
import { readCapped } from '../../util/bytes.js';
import { redactCredentials } from '../git/spec.js';

/** What a GET may do. */
export interface GetLimits {
  /** Largest body read, in bytes. */
  maxBytes: number;
  /** Longest the whole exchange (redirects included) may take, in ms. */
  timeoutMs: number;
  /** Whether a URL (the first or a redirect's target) may be fetched; the reason it may not, otherwise. */
  allowed(url: URL): string | undefined;
  /** Headers sent to a hop on `origin` alone (the index's `Authorization`: never to another origin, allowed or not). */
  headers?: { origin: string; values: Record<string, string> };
}

/** A body read whole, or 304 for an ETag that still matches. */
export type GetResult = { status: 304 } | { status: 200; bytes: Uint8Array; contentType: string | undefined; etag: string | undefined; url: URL };

/** A GET that failed: its message names the URL without credentials. */
export class HttpGetError extends Error {
  override name = 'HttpGetError';
}

const MAX_REDIRECTS = 5;

/** Reads `response`'s body up to `maxBytes`; throws past it. */
async function readBody(response: Response, maxBytes: number, shown: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new HttpGetError(`${shown} is ${declared} bytes, more than the ${maxBytes} allowed`);
  const bytes = await readCapped(response.body, maxBytes);
  if (bytes === undefined) throw new HttpGetError(`${shown} has more than the ${maxBytes} bytes allowed`);
  return bytes;
}

/** GETs `url` within `limits`; `etag` is sent as `If-None-Match`. Throws an {@link HttpGetError} on any failure. */
export async function httpGet(url: URL, limits: GetLimits, etag?: string): Promise<GetResult> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let at = url;
  for (let hop = 0; ; hop++) {
    const shown = redactCredentials(at.href);
    const refused = limits.allowed(at);
    if (refused !== undefined) throw new HttpGetError(`${shown} is not fetched: ${refused}`);
    let response: Response;
    try {
      const own = limits.headers !== undefined && at.origin === limits.headers.origin ? limits.headers.values : {};
      const headers = { ...own, ...(etag !== undefined ? { 'if-none-match': etag } : {}) };
      response = await fetch(at, { redirect: 'manual', signal, headers });
    } catch (error) {
      const cause = signal.aborted
        ? `no answer within ${limits.timeoutMs} ms`
        : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
      throw new HttpGetError(`GET ${shown} failed: ${redactCredentials(String(cause))}`);
    }
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      if (location === null || hop >= MAX_REDIRECTS)
        throw new HttpGetError(`GET ${shown}: ${location === null ? 'a redirect without Location' : 'too many redirects'}`);
      try {
        at = new URL(location, at);
      } catch {
        throw new HttpGetError(`GET ${shown}: a redirect to something that is not a URL`);
      }
      continue;
    }
    if (response.status === 304 && etag !== undefined) {
      await response.body?.cancel().catch(() => {});
      return { status: 304 };
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new HttpGetError(`GET ${shown} answered ${response.status}`);
    }
    try {
      const bytes = await readBody(response, limits.maxBytes, shown);
      return { status: 200, bytes, contentType: response.headers.get('content-type') ?? undefined, etag: response.headers.get('etag') ?? undefined, url: at };
    } catch (error) {
      if (error instanceof HttpGetError) throw error;
      throw new HttpGetError(`GET ${shown} failed while reading: ${signal.aborted ? `no answer within ${limits.timeoutMs} ms` : (error as Error).message}`);
    }
  }
}
