/**
 * The revisions this server speaks, and how a request finds its revision.
 * This is the only module that imports the revision folders.
 */
import { revision as rev20250618 } from './rev2025-06-18/index.js';
import { revision as rev20251125 } from './rev2025-11-25/index.js';
import { revision as rev20260728 } from './rev2026-07-28/index.js';
import type { Revision } from './revision.js';

/** Revisions that start with initialize, newest first. */
const LEGACY: readonly Revision[] = [rev20251125, rev20250618];
/** Revisions that carry `_meta` on every request, newest first. */
const MODERN: readonly Revision[] = [rev20260728];

/** Every protocol version served, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN, ...LEGACY].map((r) => r.version);
/** Versions accepted in the per-request `_meta` envelope. */
export const MODERN_VERSIONS: readonly string[] = MODERN.map((r) => r.version);
/** Versions negotiated by initialize. */
export const LEGACY_VERSIONS: readonly string[] = LEGACY.map((r) => r.version);

/**
 * The legacy revision for an initialize request: the requested one when it is
 * served, otherwise the newest legacy one (2025-06-18 basic/lifecycle §Version
 * Negotiation: reply with another supported version, SHOULD be the latest).
 */
export function negotiateLegacy(requested: unknown): Revision {
  return LEGACY.find((r) => r.version === requested) ?? (LEGACY[0] as Revision);
}

/** The legacy revision for a version string, if served. */
export function legacyRevision(version: string): Revision | undefined {
  return LEGACY.find((r) => r.version === version);
}

/** The modern revision for a per-request version, if served. */
export function modernRevision(version: string): Revision | undefined {
  return MODERN.find((r) => r.version === version);
}

export { META_KEYS, readRequestMeta, type RequestMeta } from './rev2026-07-28/index.js';
export type { CachePolicy, LegacySession, MethodContext, MethodHandler, Revision, ServerDescription } from './revision.js';
