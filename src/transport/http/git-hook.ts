/**
 * `POST /hooks/git`: a push webhook that tells a git source to fetch now.
 *
 * A hook proves it knows the shared secret the way its sender does:
 * GitHub signs the raw body, `X-Hub-Signature-256: sha256=<hex of
 * HMAC-SHA256(secret, body)>`; GitLab sends the secret itself,
 * `X-Gitlab-Token`. Both are compared in constant time. A good hook is
 * answered 202 at once and the fetch runs after it; a burst of hooks (a push
 * of several branches, a redelivery) is one call of `onHook`. The body is
 * read only to be verified (its size capped) and never parsed: which commit
 * to serve is what the fetch finds, not what the hook says.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { boundedDebounce } from '../../server/index.js';
import type { HttpRoute } from './options.js';
import type { HeaderReader } from './request.js';

/** Options of {@link createGitHook}. */
export interface GitHookOptions {
  /** The secret shared with the git host (its webhook "secret" or "token"). Never logged. */
  secret: string;
  /** Called once per burst of verified hooks: fetch now. */
  onHook(): void;
  /** Quiet time after a hook before `onHook` is called, in ms. Default 250. */
  debounceMs?: number;
  /** Largest body accepted, in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
}

/** The path a git hook is usually served at. */
export const GIT_HOOK_PATH = '/hooks/git';

function text(status: number, message: string, headers: Record<string, string> = {}) {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: `${message}\n` };
}

/** Constant-time equality of two strings of any lengths (their digests are compared, so no length leaks). */
function sameSecret(given: string, secret: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** Whether a hook carries proof of the secret: GitHub's body signature or GitLab's token. */
export function verifyGitHook(headers: HeaderReader, body: Uint8Array, secret: string): boolean {
  const signature = headers.get('x-hub-signature-256');
  if (signature !== null) {
    // GitHub: "sha256=" and 64 hex digits, the HMAC-SHA256 of the raw body keyed by the secret.
    const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
    if (!match) return false;
    const expected = createHmac('sha256', secret).update(body).digest();
    return timingSafeEqual(Buffer.from(match[1] as string, 'hex'), expected);
  }
  const token = headers.get('x-gitlab-token');
  return token !== null && sameSecret(token, secret);
}

/**
 * The webhook route, for the `routes` option of createHttpHandler and
 * serveHttp (served without the bearer token: the secret is its own guard).
 *
 * @example
 * const folder = await loadGitSkills('git+https://example.com/team/skills.git#main');
 * await serveHttp(server, {
 *   routes: { [GIT_HOOK_PATH]: createGitHook({ secret, onHook: () => void folder.sync().catch(() => {}) }) },
 * });
 */
export function createGitHook(options: GitHookOptions): HttpRoute {
  if (options.secret === '') throw new TypeError('the git hook needs a non-empty secret');
  const debounceMs = options.debounceMs ?? 250;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  // Calls onHook once the hooks pause: a burst of pushes is one fetch.
  const trigger = boundedDebounce(options.onHook, debounceMs);

  return async (request) => {
    // RFC 9110 §15.5.6: 405 names the methods that are allowed.
    if (request.method !== 'POST') return text(405, 'Method Not Allowed', { Allow: 'POST' });
    const body = await request.readBody(maxBody);
    if (body === undefined) return text(413, 'Payload Too Large');
    if (body === 'busy') return text(503, 'Service Unavailable: retry shortly', { 'Retry-After': '1' });
    if (!verifyGitHook(request.headers, body, options.secret)) return text(401, 'Unauthorized: missing or wrong hook signature');
    trigger();
    return text(202, 'Accepted: fetching');
  };
}
