/**
 * The revisions this server speaks. This is the only module that imports the
 * revision folders; everything else reaches a revision through the
 * {@link Revision} objects it lists.
 */
import { revision as rev20250618 } from './rev2025-06-18/index.js';
import { revision as rev20251125 } from './rev2025-11-25/index.js';
import { revision as rev20260728 } from './rev2026-07-28/index.js';
import type { Revision } from './revision.js';

/** Revisions that start with initialize, newest first. */
const SESSION_REVISIONS: readonly Revision[] = [rev20251125, rev20250618];
/** Revisions that carry `_meta` on every request and keep no session, newest first. */
const STATELESS_REVISIONS: readonly Revision[] = [rev20260728];

/** Every protocol version served, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [...STATELESS_REVISIONS, ...SESSION_REVISIONS].map((r) => r.version);
/** Versions accepted in the per-request `_meta` envelope. */
export const MODERN_VERSIONS: readonly string[] = STATELESS_REVISIONS.map((r) => r.version);
/** Versions negotiated by initialize. */
export const LEGACY_VERSIONS: readonly string[] = SESSION_REVISIONS.map((r) => r.version);

/**
 * The session revision for an initialize request: the requested one when it
 * is served, otherwise the newest (2025-06-18 basic/lifecycle §Version
 * Negotiation: reply with another supported version, SHOULD be the latest).
 */
export function negotiateLegacy(requested: unknown): Revision {
  return SESSION_REVISIONS.find((r) => r.version === requested) ?? (SESSION_REVISIONS[0] as Revision);
}

/** The session revision a version header names, if served; the oldest when there is none. */
export function sessionRevisionFor(version: string | undefined): Revision | undefined {
  if (version === undefined) return SESSION_REVISIONS[SESSION_REVISIONS.length - 1];
  return SESSION_REVISIONS.find((r) => r.version === version);
}

/** The stateless revision for a per-request version, if served. */
export function modernRevision(version: string): Revision | undefined {
  return STATELESS_REVISIONS.find((r) => r.version === version);
}

/** The newest stateless revision: whose rules apply to a stateless message naming no version served. */
export function newestModernRevision(): Revision {
  return STATELESS_REVISIONS[0] as Revision;
}

export { headerMismatch, META_KEYS, METADATA_HEADERS, type RequestMeta, readMetadataHeader, readRequestMeta } from './rev2026-07-28/index.js';
