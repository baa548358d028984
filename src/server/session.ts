/**
 * The 2025 session a connection keeps (2025-06-18 basic/lifecycle): opened
 * by `initialize`, or restored from a snapshot (snapshot.ts) with no
 * handshake replayed, and brought in step with a snapshot of the same
 * session taken elsewhere. While it lives it forwards the engine's change
 * events to its client.
 */
import type { Principal } from '../core/context.js';
import type { Engine } from '../core/engine.js';
import type { LegacySession, Revision, ServerDescription } from '../protocol/index.js';
import { keptCapabilities, keptClientInfo } from './handshake.js';
import type { Peer } from './peer.js';
import { type CheckedSnapshot, checkSnapshot, plainPrincipal, type SessionSnapshot, snapshotOf } from './snapshot.js';

/** The part of a connection's state its session lives in (connection.ts keeps the rest). */
export interface SessionSlot {
  readonly engine: Engine;
  readonly server: ServerDescription;
  readonly peer: Peer;
  /** Set on disconnect: nothing more is sent. */
  closed: boolean;
  session: LegacySession | undefined;
  /** Who opened the session (HTTP with OAuth): its resource updates are only those it may read. */
  principal: Principal | undefined;
  stopEvents: (() => void) | undefined;
  /** The connection as transports see it, whose `session` is kept in step. */
  readonly view: { session: LegacySession | undefined };
}

/** Covers a legacy subscription to `subscribed`: the URI itself or a sub-resource of it. */
function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`);
}

/** Opens the session `initialize` asks for, at `revision`, keeping of its params only what handshake.ts allows. */
export function openSession(slot: SessionSlot, revision: Revision, params: Record<string, unknown>, principal: Principal | undefined): LegacySession {
  // Only what the server uses of the handshake, within a small budget (handshake.ts): the session
  // outlives the request, here and in shared state, and a client may send megabytes there.
  return start(slot, revision, keptCapabilities(params.capabilities), keptClientInfo(params.clientInfo), principal);
}

function start(
  slot: SessionSlot,
  revision: Revision,
  clientCapabilities: Record<string, unknown>,
  clientInfo: Record<string, unknown> | undefined,
  principal: Principal | undefined,
): LegacySession {
  const session: LegacySession = { revision, version: revision.version, clientCapabilities, clientInfo, initialized: false, subscriptions: new Set() };
  slot.session = session;
  slot.view.session = session;
  slot.principal = principal && plainPrincipal(principal);
  slot.stopEvents = slot.engine.watch((event) => {
    // Nothing but pings and logs before `initialized` (2025-06-18 lifecycle §Initialization).
    if (slot.closed || !session.initialized) return;
    if (event.type === 'resourceUpdated' && ![...session.subscriptions].some((s) => covers(s, event.uri))) return;
    // A subscription (to a prefix, say) tells its session nothing of what the session's caller may not use.
    if (event.type === 'resourceUpdated' && !slot.engine.mayRead(event.uri, slot.principal)) return;
    const notification = session.revision.encodeEvent(event);
    if (notification) slot.peer.send(notification);
  });
  return session;
}

/** Restores a session from a snapshot, checked as untrusted; throws a TypeError saying why it is refused. */
export function restoreSession(slot: SessionSlot, data: unknown): void {
  const checked = checkSnapshot(data, slot.server.subscriptions);
  if (typeof checked === 'string') throw new TypeError(`Cannot restore the session: ${checked}`);
  const session = start(slot, checked.revision, checked.clientCapabilities, checked.clientInfo, checked.principal);
  settle(session, checked);
}

/**
 * Brings the session's settings (initialized, log level, subscriptions) to
 * those of a snapshot of the same session taken elsewhere; false, changing
 * nothing, when there is no session or the snapshot is refused or of
 * another version.
 */
export function updateSession(slot: SessionSlot, data: unknown): boolean {
  const session = slot.session;
  if (!session) return false;
  const checked = checkSnapshot(data, slot.server.subscriptions);
  if (typeof checked === 'string' || checked.revision !== session.revision) return false;
  settle(session, checked);
  return true;
}

/** The session as data, or undefined before `initialize`. */
export function snapshotSession(slot: SessionSlot): SessionSnapshot | undefined {
  return slot.session && snapshotOf(slot.session, slot.principal);
}

/** Sets what changes during a session to the snapshot's. A session, once initialized, stays so; a log level, once set, stays set. */
function settle(session: LegacySession, checked: CheckedSnapshot): void {
  if (checked.initialized) session.initialized = true;
  if (checked.logLevel) session.logLevel = checked.logLevel;
  const wanted = new Set(checked.subscriptions);
  for (const uri of session.subscriptions) if (!wanted.has(uri)) session.subscriptions.delete(uri);
  for (const uri of wanted) session.subscriptions.add(uri);
}
