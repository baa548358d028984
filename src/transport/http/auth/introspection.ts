/**
 * Opaque access tokens, asked about at the authorization server's
 * introspection endpoint (RFC 7662) with this server's client credentials
 * (HTTP Basic, RFC 6749 §2.3.1). Answers are kept by a digest of the token,
 * never the token itself, for no longer than the token lives and at most
 * `cacheMs`, so a revoked token is refused again within that time. At most
 * `maxInFlight` questions are asked at once (the same token's are asked
 * once): past that a flood of made-up tokens gets 503 here rather than
 * becoming a flood at the authorization server.
 */
import { createHash } from 'node:crypto';
import { AuthUnavailableError } from './discovery.js';
import type { OutageLog } from './outage-log.js';

export interface IntrospectionOptions {
  endpoint: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Longest an answer is kept. */
  cacheMs: number;
  /** Most answers kept; the oldest go first. */
  maxEntries: number;
  /** Most questions to the endpoint at once. */
  maxInFlight: number;
  /** Where an outage of the endpoint, and its end, are said. */
  outage: OutageLog;
  now: () => number;
}

/** An active token's claims (RFC 7662 §2.2), or undefined for an inactive one. */
export type Introspect = (token: string) => Promise<Record<string, unknown> | undefined>;

/** RFC 6749 §2.3.1: each part form-encoded before they are joined and base64-encoded. */
function basic(id: string, secret: string): string {
  const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`;
}

export function createIntrospection(options: IntrospectionOptions): Introspect {
  const authorization = basic(options.clientId, options.clientSecret);
  const answers = new Map<string, { until: number; claims: Record<string, unknown> | undefined }>();
  const asking = new Map<string, Promise<Record<string, unknown> | undefined>>();

  /** The endpoint's answer about `token`; an outage said once, and its end. */
  async function ask(token: string): Promise<Record<string, unknown> | undefined> {
    try {
      const claims = await askEndpoint(token);
      options.outage.answered();
      return claims;
    } catch (error) {
      options.outage.failed(error, 'opaque access tokens get 503 until it answers');
      throw error;
    }
  }

  async function askEndpoint(token: string): Promise<Record<string, unknown> | undefined> {
    let response: Response;
    try {
      response = await fetch(options.endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new AuthUnavailableError('the introspection endpoint cannot be reached', { cause: error });
    }
    if (response.status !== 200) throw new AuthUnavailableError(`the introspection endpoint answered ${response.status}`);
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || typeof body.active !== 'boolean') {
      throw new AuthUnavailableError('the introspection endpoint answered something other than RFC 7662 §2.2');
    }
    return body.active ? body : undefined;
  }

  return async (token) => {
    const key = createHash('sha256').update(token, 'utf8').digest('base64');
    const now = options.now();
    const known = answers.get(key);
    if (known && known.until > now) return known.claims;
    answers.delete(key);
    let pending = asking.get(key);
    if (!pending) {
      if (asking.size >= options.maxInFlight) throw new AuthUnavailableError('too many tokens are being checked at once');
      pending = ask(token).finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    const claims = await pending;
    const exp = typeof claims?.exp === 'number' ? claims.exp * 1000 : Number.POSITIVE_INFINITY;
    const until = Math.min(now + options.cacheMs, exp);
    if (until > now) {
      if (answers.size >= options.maxEntries) answers.delete(answers.keys().next().value as string);
      answers.set(key, { until, claims });
    }
    return claims;
  };
}
