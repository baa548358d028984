/**
 * The authorization server's metadata: where its signing keys and its
 * introspection endpoint are. Looked up as MCP authorization asks clients to
 * (2025-11-25 basic/authorization §Authorization Server Metadata Discovery):
 * RFC 8414 first (`/.well-known/oauth-authorization-server` inserted before
 * the issuer's path, §3.1), then OpenID Connect Discovery 1.0 §4
 * (`/.well-known/openid-configuration` appended to it).
 */

import type { OutageLog } from './outage-log.js';

/** The fields of RFC 8414 §2 a resource server uses. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

/** The metadata could not be had: the token cannot be checked now (503), which is not the token's fault. */
export class AuthUnavailableError extends Error {
  override readonly name = 'AuthUnavailableError';
}

/** Where the metadata of `issuer` may be, in the order to try. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  // No redirects: the document must be where the issuer says (RFC 8414 §3).
  const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  if (response.status !== 200) throw new AuthUnavailableError(`${url} answered ${response.status}`);
  return response.json();
}

function isMetadata(value: unknown): value is AuthorizationServerMetadata {
  return typeof value === 'object' && value !== null && typeof (value as { issuer?: unknown }).issuer === 'string';
}

export interface DiscoveryOptions {
  timeoutMs: number;
  /** Where an outage of the metadata, and its end, are said. */
  outage: OutageLog;
  /** After a failure, how long before trying again; meanwhile the failure is the answer. */
  retryMs: number;
  /** How long a document is kept before it is fetched again. */
  maxAgeMs: number;
  now: () => number;
}

/**
 * The metadata of `issuer`, fetched on first use and kept for `maxAgeMs`. A
 * failure is the answer for `retryMs`, so a flood of requests cannot become a
 * flood of lookups; a document fetched before stays in use while the server
 * cannot be reached.
 */
export function createDiscovery(issuer: string, options: DiscoveryOptions): () => Promise<AuthorizationServerMetadata> {
  let known: AuthorizationServerMetadata | undefined;
  let attempt: { at: number; value: Promise<AuthorizationServerMetadata>; failed: boolean } | undefined;

  async function lookUp(): Promise<AuthorizationServerMetadata> {
    let last: unknown;
    for (const url of metadataUrls(issuer)) {
      try {
        const document = await fetchJson(url, options.timeoutMs);
        // RFC 8414 §3.3: the issuer named inside must be the one asked for, or the document is not to be used.
        if (!isMetadata(document) || document.issuer !== issuer) throw new AuthUnavailableError(`${url} names another issuer`);
        known = document;
        options.outage.answered();
        return document;
      } catch (error) {
        last = error;
      }
    }
    options.outage.failed(last, known ? 'the document fetched before stays in use' : 'tokens cannot be checked (503) until it answers');
    if (known) return known;
    throw last instanceof AuthUnavailableError ? last : new AuthUnavailableError(`the metadata of ${issuer} cannot be fetched`, { cause: last });
  }

  return () => {
    const now = options.now();
    const age = attempt ? now - attempt.at : Number.POSITIVE_INFINITY;
    if (!attempt || age >= (attempt.failed ? options.retryMs : options.maxAgeMs)) {
      const value = lookUp();
      const next = { at: now, value, failed: false };
      value.catch(() => {
        next.failed = true;
      });
      attempt = next;
    }
    return attempt.value;
  };
}
