/**
 * A shared session's record, as the shared state stores it: the connection's
 * snapshot (server/snapshot.ts) and the session's owner, as JSON text. A
 * record read back is untrusted: text longer than any record of this server
 * is not parsed, and the snapshot in it is checked when a connection is made
 * from it (`connect(peer, { restore })`) or brought in step with it
 * (`connection.update`).
 */
import type { ServerLimits, SessionSnapshot } from '../../../server/index.js';
import type { Session } from './store.js';

/** A record as read: the snapshot (not yet checked) and the owner. */
export interface SessionRecord {
  readonly snapshot: SessionSnapshot;
  /** Who opened it, under OAuth (`principalId`): other callers' requests do not find it. */
  readonly owner: string | undefined;
}

/** Room in a record for all but the subscriptions: the 1 KiB handshake, a 16 KiB principal, its owner, escaped. */
const FIXED_CHARS = 128 * 1024;

/**
 * The longest record text this server writes, with room to spare: its fixed
 * part, and the most subscriptions of the longest URIs, each character
 * escaped at most as `\uXXXX`.
 */
export function maxRecordChars(limits: ServerLimits): number {
  return FIXED_CHARS + limits.maxSubscriptions * (6 * limits.maxSubscriptionUriBytes + 3);
}

/** The record text of a session, or undefined before its `initialize`. */
export function recordText(session: Session): string | undefined {
  const snapshot = session.connection.snapshot();
  if (!snapshot) return undefined;
  const record: SessionSnapshot & { owner?: string } = snapshot;
  if (session.owner !== undefined) record.owner = session.owner;
  return JSON.stringify(record);
}

/** A record read back, or undefined when the text is not one. */
export function readRecord(text: string, maxChars: number): SessionRecord | undefined {
  if (text.length > maxChars) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const owner = (value as { owner?: unknown }).owner;
  return { snapshot: value as SessionSnapshot, owner: typeof owner === 'string' ? owner : undefined };
}
