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
 *
 * The route is unauthenticated until the proof is checked, so it reads as
 * little as it can: a hook without a well-formed signature, or with a GitLab
 * token (which needs no body), is answered before its body is read, and a
 * body past the cap is refused by its declared length. The bodies it does
 * read are held against the handler's route budget, never the MCP
 * endpoint's (`maxBufferedRouteBodyBytes`).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { boundedDebounce } from '../../util/debounce.js';
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
  /**
   * Largest body accepted, in bytes; larger ones get 413. Default 1 MiB: a
   * push event is a few KiB per commit and GitLab sends at most 20 commits,
   * so real pushes stay in the hundreds of KiB; a larger push only waits for
   * the next poll.
   */
  maxBodyBytes?: number;
}

/** The default of {@link GitHookOptions.maxBodyBytes}. */
export const DEFAULT_HOOK_BODY_BYTES = 1024 * 1024;

/** The path a git hook is usually served at. */
export const GIT_HOOK_PATH = '/hooks/git';

function text(status: number, message: string, headers: Record<string, string> = {}) {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: `${message}\n` };
}

const unauthorized = () => text(401, 'Unauthorized: missing or wrong hook signature');

/** Constant-time equality of two strings of any lengths (their digests are compared, so no length leaks). */
function sameSecret(given: string, secret: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/**
 * The proof a hook's headers offer: GitHub's signature of the body (still to
 * be checked against it), GitLab's token already judged, or none.
 */
type Proof = { kind: 'signature'; digest: Buffer } | { kind: 'token'; valid: boolean } | { kind: 'none' };

function proofOf(headers: HeaderReader, secret: string): Proof {
  const signature = headers.get('x-hub-signature-256');
  if (signature !== null) {
    // GitHub: "sha256=" and 64 hex digits, the HMAC-SHA256 of the raw body keyed by the secret.
    // A present signature is the proof even beside a GitLab token: one proof, never a choice of two.
    const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
    return match ? { kind: 'signature', digest: Buffer.from(match[1] as string, 'hex') } : { kind: 'none' };
  }
  const token = headers.get('x-gitlab-token');
  return token === null ? { kind: 'none' } : { kind: 'token', valid: sameSecret(token, secret) };
}

function signedBy(digest: Buffer, body: Uint8Array, secret: string): boolean {
  return timingSafeEqual(digest, createHmac('sha256', secret).update(body).digest());
}

/** Whether a hook carries proof of the secret: GitHub's body signature or GitLab's token. */
export function verifyGitHook(headers: HeaderReader, body: Uint8Array, secret: string): boolean {
  const proof = proofOf(headers, secret);
  return proof.kind === 'signature' ? signedBy(proof.digest, body, secret) : proof.kind === 'token' && proof.valid;
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
  const maxBody = options.maxBodyBytes ?? DEFAULT_HOOK_BODY_BYTES;
  if (!Number.isSafeInteger(maxBody) || maxBody < 1) throw new TypeError('maxBodyBytes must be a positive integer');
  // Calls onHook once the hooks pause: a burst of pushes is one fetch.
  const trigger = boundedDebounce(options.onHook, debounceMs);

  return async (request) => {
    // RFC 9110 §15.5.6: 405 names the methods that are allowed.
    if (request.method !== 'POST') return text(405, 'Method Not Allowed', { Allow: 'POST' });
    const proof = proofOf(request.headers, options.secret);
    // Nothing to check the body against, or a token that needs none: answered before the body is read.
    if (proof.kind === 'none' || (proof.kind === 'token' && !proof.valid)) return unauthorized();
    if (proof.kind === 'signature') {
      const body = await request.readBody(maxBody);
      if (body === undefined) return text(413, 'Payload Too Large');
      if (body === 'busy') return text(503, 'Service Unavailable: retry shortly', { 'Retry-After': '1' });
      if (!signedBy(proof.digest, body, options.secret)) return unauthorized();
    }
    trigger();
    return text(202, 'Accepted: fetching');
  };
}
