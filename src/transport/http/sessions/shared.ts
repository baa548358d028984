/**
 * Legacy sessions shared by replicas through {@link SharedState} (Redis):
 * a session's record (negotiated version, client info and capabilities,
 * whether `initialized` came, log level, resource subscriptions) lives in the
 * shared store with the idle timeout as its expiry, so a request naming the
 * session can land on any replica. A replica that does not hold the session
 * rebuilds its connection from the record by replaying the handshake and the
 * session's settings through the protocol (so the record is validated like a
 * client's own requests); each replica's copy is a cache of the record.
 *
 * DELETE on any replica deletes the record and broadcasts the end, and every
 * replica ends its copy (and the GET stream it holds). A change of settings
 * on one replica is broadcast too, so the replica holding the GET stream
 * filters notifications by the current subscriptions.
 *
 * What cannot cross replicas: a request the server sends the client
 * (elicitation, sampling on 2025 sessions) waits for its answer in the
 * connection that sent it (server/outgoing.ts); the client's answer must
 * reach that replica, which needs sticky routing by `Mcp-Session-Id`.
 */
import type { JsonRpcRequest } from '../../../jsonrpc/messages.js';
import type { Logger, Server } from '../../../server/index.js';
import type { SharedState } from '../../shared-state.js';
import type { Session, SessionStore } from './store.js';

/** The shared part of a session, as stored. */
interface SessionRecord {
  version: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  initialized: boolean;
  logLevel?: string;
  subscriptions: string[];
  /** Who opened it, under OAuth (`principalId`): other callers' requests do not find it. */
  owner?: string;
}

const ENDED_TOPIC = 'session-ended';
const CHANGED_TOPIC = 'session-changed';
const key = (id: string): string => `session:${id}`;

/** Sessions shared by replicas; see the module header. */
export interface SharedSessions {
  /** The session with this id: the local copy, or one rebuilt from the shared record; undefined when unknown. */
  find(id: string): Session | undefined | Promise<Session | undefined>;
  /**
   * Records the session's state after a message of its own: a promise (that
   * never rejects) when the record changed and is being written, true once
   * written and false when the shared state could not take it (the next
   * message writes it again); when only its expiry is extended, nothing to
   * wait for.
   */
  saved(session: Session): Promise<boolean> | undefined;
  /** Ends the session on every replica (DELETE). */
  end(id: string): Promise<void>;
  /** Keeps alive the records of sessions busy here (an open GET stream carries no requests). */
  refresh(): void;
  close(): void;
}

function recordOf(session: Session): SessionRecord | undefined {
  const legacy = session.connection.session;
  if (!legacy) return undefined;
  return {
    version: legacy.version,
    clientCapabilities: legacy.clientCapabilities,
    ...(legacy.clientInfo ? { clientInfo: legacy.clientInfo } : {}),
    initialized: legacy.initialized,
    ...(legacy.logLevel ? { logLevel: legacy.logLevel } : {}),
    subscriptions: [...legacy.subscriptions].sort(),
    ...(session.owner !== undefined ? { owner: session.owner } : {}),
  };
}

function parseRecord(text: string): SessionRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<SessionRecord>;
    if (typeof value.version !== 'string' || typeof value.initialized !== 'boolean' || !Array.isArray(value.subscriptions)) return undefined;
    if (typeof value.clientCapabilities !== 'object' || value.clientCapabilities === null) return undefined;
    return value as SessionRecord;
  } catch {
    return undefined;
  }
}

/** What a failure of the shared state says, for a debug line (its outage is logged once, by the state itself). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Creates the shared sessions over a handler's local store. */
export function createSharedSessions(shared: SharedState, store: SessionStore, server: Server, idleMs: number, logger: Logger): SharedSessions {
  /** The record text last written (or read) per local session, so unchanged state only extends the expiry. */
  const written = new Map<string, string>();
  const lastTouched = new Map<string, number>();
  const rebuilding = new Map<string, Promise<Session | undefined>>();
  let sequence = 0;

  /** Sends the connection a request of our own making (the replayed handshake and settings). */
  function replay(session: Session, method: string, params: Record<string, unknown>): Promise<unknown> {
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: `skillport-shared-${++sequence}`, method, params };
    return session.connection.receive(request);
  }

  /** Brings a connection's settings to the record's: subscriptions and log level. */
  async function apply(session: Session, record: SessionRecord): Promise<void> {
    const legacy = session.connection.session;
    if (!legacy) return;
    if (record.initialized && !legacy.initialized) await session.connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (record.logLevel && record.logLevel !== legacy.logLevel) await replay(session, 'logging/setLevel', { level: record.logLevel });
    const wanted = new Set(record.subscriptions);
    for (const uri of [...legacy.subscriptions]) if (!wanted.has(uri)) await replay(session, 'resources/unsubscribe', { uri });
    for (const uri of wanted) if (!legacy.subscriptions.has(uri)) await replay(session, 'resources/subscribe', { uri });
  }

  async function rebuild(id: string): Promise<Session | undefined> {
    const text = await shared.get(key(id));
    if (text === undefined) return undefined;
    const record = parseRecord(text);
    if (!record) {
      logger.warn('Ignoring a shared session record that is not one');
      return undefined;
    }
    // Another request may have rebuilt it while this one read the record.
    const existing = store.get(id);
    if (existing) return existing;
    const session = store.open(server, id);
    session.owner = typeof record.owner === 'string' ? record.owner : undefined;
    await replay(session, 'initialize', {
      protocolVersion: record.version,
      capabilities: record.clientCapabilities,
      clientInfo: record.clientInfo ?? { name: 'unknown', version: '0' },
    });
    if (session.connection.session?.version !== record.version) {
      // The record names a version this server no longer serves: the session cannot go on here.
      session.connection.close('disconnect');
      return undefined;
    }
    await apply(session, record);
    if (!store.register(session)) {
      session.connection.close('disconnect');
      throw new Error('the session store is full');
    }
    written.set(id, text);
    lastTouched.set(id, Date.now());
    logger.debug(`Rebuilt shared session ${id}`);
    return session;
  }

  const stopEnded = shared.subscribe(ENDED_TOPIC, (id) => {
    written.delete(id);
    lastTouched.delete(id);
    store.end(id);
  });
  const stopChanged = shared.subscribe(CHANGED_TOPIC, (message) => {
    const [from, id] = message.split(' ', 2);
    if (from === shared.replica || id === undefined) return;
    const session = store.get(id);
    if (!session) return;
    shared
      .get(key(id))
      .then(async (text) => {
        const record = text === undefined ? undefined : parseRecord(text);
        if (!record || text === undefined) return;
        written.set(id, text);
        await apply(session, record);
      })
      .catch((error: unknown) => logger.debug(`Cannot refresh a shared session: ${messageOf(error)}`));
  });

  return {
    find(id) {
      const local = store.get(id);
      if (local) return local;
      let pending = rebuilding.get(id);
      if (!pending) {
        pending = rebuild(id).finally(() => rebuilding.delete(id));
        rebuilding.set(id, pending);
      }
      return pending;
    },
    saved(session) {
      const record = recordOf(session);
      if (!record) return undefined;
      const text = JSON.stringify(record);
      const now = Date.now();
      if (written.get(session.id) === text) {
        // Unchanged: extend the expiry, at most every tenth of the idle time (one write per request would be waste).
        if (now - (lastTouched.get(session.id) ?? 0) < idleMs / 10) return undefined;
        lastTouched.set(session.id, now);
        shared.touch(key(session.id), idleMs).catch((error: unknown) => logger.debug(`Cannot extend a shared session: ${messageOf(error)}`));
        return undefined;
      }
      const first = !written.has(session.id);
      written.set(session.id, text);
      lastTouched.set(session.id, now);
      return shared
        .set(key(session.id), text, idleMs)
        .then(() => (first ? undefined : shared.publish(CHANGED_TOPIC, `${shared.replica} ${session.id}`)))
        .then(
          () => true,
          (error: unknown) => {
            // Not stored: the next message of the session writes it again (and tells the others).
            if (written.get(session.id) === text) written.set(session.id, '');
            // Per request, at debug: the shared state logs its outage once (redis.ts).
            logger.debug(`Cannot store a shared session: ${messageOf(error)}`);
            return false;
          },
        );
    },
    async end(id) {
      written.delete(id);
      lastTouched.delete(id);
      store.end(id);
      await shared.delete(key(id));
      await shared.publish(ENDED_TOPIC, id);
    },
    refresh() {
      for (const session of store.all()) {
        if (!session.stream?.open && session.inFlight === 0) continue;
        lastTouched.set(session.id, Date.now());
        shared.touch(key(session.id), idleMs).then(
          (exists) => {
            // Its record is gone (ended elsewhere while this replica missed the broadcast): end the copy too.
            if (!exists) store.end(session.id);
          },
          (error: unknown) => logger.debug(`Cannot extend a shared session: ${messageOf(error)}`),
        );
      }
      // Forget what was written for copies the sweep ended.
      for (const id of [...written.keys()]) {
        if (store.get(id)) continue;
        written.delete(id);
        lastTouched.delete(id);
      }
    },
    close() {
      stopEnded();
      stopChanged();
    },
  };
}
