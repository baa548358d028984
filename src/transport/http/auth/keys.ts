/**
 * The authorization server's signing keys (its JWKS), kept between requests.
 * jose's own remote set drops its keys when a refresh fails and retries on
 * every request while the server is down; this one keeps the last keys it
 * had, and fetches at most once per `cooldownMs` however many requests name
 * an unknown `kid`, so rotation works and a flood of made-up key ids cannot
 * hammer the authorization server. Key selection is jose's local set: no
 * crypto here.
 */
import type { FlattenedJWSInput, JWSHeaderParameters } from 'jose';
import { AuthUnavailableError } from './discovery.js';
import type { OutageLog } from './outage-log.js';

type Jose = typeof import('jose');
type LocalSet = ReturnType<Jose['createLocalJWKSet']>;
export type GetKey = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<Awaited<ReturnType<LocalSet>>>;

export interface KeyOptions {
  timeoutMs: number;
  /** Where an outage of the key set, and its end, are said. */
  outage: OutageLog;
  /** Least time between two fetches, whether the last one worked or not. */
  cooldownMs: number;
  /** Keys older than this are fetched again (the old ones stay if that fails). */
  maxAgeMs: number;
  now: () => number;
}

async function fetchKeys(jose: Jose, url: string, timeoutMs: number): Promise<LocalSet> {
  const response = await fetch(url, {
    headers: { accept: 'application/jwk-set+json, application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) throw new AuthUnavailableError(`the key set answered ${response.status}`);
  // jose checks the shape of the set (RFC 7517 §5) and throws on a bad one.
  return jose.createLocalJWKSet((await response.json()) as Parameters<Jose['createLocalJWKSet']>[0]);
}

/** The key function for jose's `jwtVerify`, over the key set at the URL `where` resolves to. */
export function createKeySource(jose: Jose, where: () => Promise<string>, options: KeyOptions): GetKey {
  let keys: LocalSet | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let triedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;

  function refresh(): Promise<void> {
    if (!pending) {
      triedAt = options.now();
      pending = (async () => {
        // A key set whose place is unknown is the metadata's outage, said there.
        const url = await where();
        try {
          keys = await fetchKeys(jose, url, options.timeoutMs);
        } catch (error) {
          options.outage.failed(error, keys ? 'the keys fetched before stay in use' : 'JWT access tokens get 503 until it answers');
          throw error;
        }
        options.outage.answered();
        fetchedAt = options.now();
      })().finally(() => {
        pending = undefined;
      });
    }
    return pending;
  }

  /** Refreshes if the cooldown allows; a failure is swallowed while old keys remain. */
  async function tryRefresh(): Promise<boolean> {
    if (!pending && options.now() - triedAt < options.cooldownMs) return false;
    try {
      await refresh();
      return true;
    } catch (error) {
      if (!keys) throw error instanceof AuthUnavailableError ? error : new AuthUnavailableError('the key set cannot be fetched', { cause: error });
      return false;
    }
  }

  return async (header, token) => {
    if (!keys || options.now() - fetchedAt >= options.maxAgeMs) await tryRefresh();
    if (!keys) throw new AuthUnavailableError('no signing keys of the authorization server are known yet');
    try {
      return await keys(header, token);
    } catch (error) {
      // An unknown kid: the server may have rotated its keys; look once, within the cooldown.
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || !(await tryRefresh())) throw error;
      return keys(header, token);
    }
  };
}
