/**
 * A 2025 session as data: what a connection's session is (the negotiated
 * version, what server/handshake.ts keeps of `initialize`, whether
 * `notifications/initialized` came, the log level, the resource
 * subscriptions, and who opened it), as plain JSON, so that another
 * connection, in this process or in a replica, carries the session on
 * (`connect(peer, { restore })`) without replaying a handshake.
 *
 * A snapshot read back is untrusted (it comes back from Redis, say): it is
 * checked member by member against what a live session may hold, within the
 * same bounds, and refused whole otherwise.
 */
import { LOG_LEVELS, type LogLevel, type Principal } from '../core/context.js';
import { isPlainObject } from '../jsonrpc/messages.js';
import { type LegacySession, type Revision, type ServerDescription, sessionRevisionFor } from '../protocol/index.js';
import { cutForJson, INFO_STRING_BYTES, keptCapabilities } from './handshake.js';

/** A session as data; every member is plain JSON. Treat it as read-only: it shares the session's capabilities. */
export interface SessionSnapshot {
  /** The protocol version `initialize` negotiated (a session revision this server serves). */
  version: string;
  /** The client capabilities the server uses (handshake.ts `keptCapabilities`). */
  clientCapabilities: Record<string, unknown>;
  /** The client's name, title and version, cut short (handshake.ts `keptClientInfo`). */
  clientInfo?: Record<string, string>;
  /** Whether `notifications/initialized` arrived. */
  initialized: boolean;
  /** The level set with `logging/setLevel`; absent: none set. */
  logLevel?: LogLevel;
  /** The subscribed resource URIs, sorted (so equal sessions give equal text). */
  subscriptions: string[];
  /**
   * Who opened the session, under OAuth: resource updates are sent only for
   * what this principal may read (core/audience.ts), on whichever replica
   * holds the session's GET stream.
   */
  principal?: Principal;
}

/**
 * Most bytes of JSON a restored principal may take: node:http's default
 * header limit (16 KiB), so any principal a token node:http admitted yields
 * fits, and a snapshot that says otherwise was not made here.
 */
export const PRINCIPAL_BUDGET_BYTES = 16 * 1024;

/** The snapshot of a live session, opened by `principal`. */
export function snapshotOf(session: LegacySession, principal: Principal | undefined): SessionSnapshot {
  const snapshot: SessionSnapshot = {
    version: session.version,
    clientCapabilities: session.clientCapabilities,
    initialized: session.initialized,
    subscriptions: [...session.subscriptions].sort(),
  };
  if (session.clientInfo) snapshot.clientInfo = session.clientInfo as Record<string, string>;
  if (session.logLevel) snapshot.logLevel = session.logLevel;
  if (principal) snapshot.principal = principal;
  return snapshot;
}

/** A snapshot as checked: every member as a live session holds it. */
export interface CheckedSnapshot {
  readonly revision: Revision;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, string> | undefined;
  readonly initialized: boolean;
  readonly logLevel: LogLevel | undefined;
  readonly subscriptions: readonly string[];
  readonly principal: Principal | undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const encoder = new TextEncoder();

/**
 * `value` checked as a snapshot of a session of this server, whose
 * subscriptions `limits` bound as `resources/subscribe` does; a string
 * saying why not when it is not one.
 */
export function checkSnapshot(value: unknown, limits: ServerDescription['subscriptions']): CheckedSnapshot | string {
  if (!isPlainObject(value)) return 'not an object';
  const revision = typeof value.version === 'string' ? sessionRevisionFor(value.version) : undefined;
  if (!revision) return 'not a session version this server serves';
  if (!isPlainObject(value.clientCapabilities)) return 'clientCapabilities is not an object';
  if (typeof value.initialized !== 'boolean') return 'initialized is not a boolean';
  const logLevel = value.logLevel;
  if (logLevel !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(logLevel)) return 'logLevel is not a log level';
  const clientInfo = checkClientInfo(value.clientInfo);
  if (typeof clientInfo === 'string') return clientInfo;
  const subscriptions = value.subscriptions;
  // The caps of resources/subscribe (2025-06-18 registry.ts): a restored session holds no more.
  if (!isStringArray(subscriptions) || subscriptions.length > limits.max) return 'subscriptions is not a list within the cap';
  if (subscriptions.some((uri) => uri.length > limits.maxUriBytes || encoder.encode(uri).byteLength > limits.maxUriBytes))
    return 'a subscribed URI is too long';
  const principal = checkPrincipal(value.principal);
  if (typeof principal === 'string') return principal;
  return {
    revision,
    // Only the known tree (handshake.ts): whatever else the data holds is dropped.
    clientCapabilities: keptCapabilities(value.clientCapabilities),
    clientInfo,
    initialized: value.initialized,
    logLevel: logLevel as LogLevel | undefined,
    subscriptions,
    principal,
  };
}

/** Client info as handshake.ts keeps it (name, title, version, each cut short), or why not. */
function checkClientInfo(value: unknown): Record<string, string> | undefined | string {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return 'clientInfo is not an object';
  const info: Record<string, string> = {};
  for (const field of ['name', 'title', 'version'] as const) {
    const text = value[field];
    if (text === undefined) continue;
    if (typeof text !== 'string' || cutForJson(text, INFO_STRING_BYTES) !== text) return `clientInfo.${field} is not a string within the budget`;
    info[field] = text;
  }
  return info;
}

/** A principal as the transport's gate gives it, within {@link PRINCIPAL_BUDGET_BYTES}, or why not. */
function checkPrincipal(value: unknown): Principal | undefined | string {
  if (value === undefined) return undefined;
  if (!isPlainObject(value) || !isStringArray(value.scopes)) return 'principal is not one';
  const { subject, client, audiences } = value;
  if ((subject !== undefined && typeof subject !== 'string') || (client !== undefined && typeof client !== 'string')) return 'principal is not one';
  if (audiences !== undefined && !isStringArray(audiences)) return 'principal is not one';
  const principal = plainPrincipal(value as unknown as Principal);
  if (encoder.encode(JSON.stringify(principal)).byteLength > PRINCIPAL_BUDGET_BYTES) return 'principal is over its budget';
  return principal;
}

/** The members of a principal a session keeps, as plain data (a gate may hand over more). */
export function plainPrincipal(principal: Principal): Principal {
  const plain: { subject?: string; client?: string; scopes: readonly string[]; audiences?: readonly string[] } = { scopes: principal.scopes };
  if (principal.subject !== undefined) plain.subject = principal.subject;
  if (principal.client !== undefined) plain.client = principal.client;
  if (principal.audiences !== undefined) plain.audiences = principal.audiences;
  return plain;
}
