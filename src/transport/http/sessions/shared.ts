/**
 * Legacy sessions shared by replicas through {@link SharedState} (Redis):
 * a session's record (its connection's snapshot, server/snapshot.ts: the
 * negotiated version, what is kept of the handshake, whether `initialized`
 * came, log level, resource subscriptions, the principal that opened it;
 * and its owner, record.ts) lives in the shared store with the idle timeout
 * as its expiry, so a request naming the session can land on any replica. A
 * replica that does not hold the session restores its connection from the
 * record (`connect(peer, { restore })`, which checks it as untrusted data);
 * each replica's copy is a cache of the record.
 *
 * DELETE on any replica deletes the record and broadcasts the end, and every
 * replica ends its copy (and the GET stream it holds). A change of settings
 * on one replica is broadcast too, and every other copy takes the record's
 * state (`connection.update`), so the replica holding the GET stream filters
 * notifications by the current subscriptions.
 *
 * What cannot cross replicas: a request the server sends the client
 * (elicitation, sampling on 2025 sessions) waits for its answer in the
 * connection that sent it (server/outgoing.ts); the client's answer must
 * reach that replica, which needs sticky routing by `Mcp-Session-Id`.
 */
import type { Logger, Server } from '../../../server/index.js';
import type { SharedState } from '../../shared-state.js';
import { maxRecordChars, readRecord, recordText } from './record.js';
import type { Session, SessionStore } from './store.js';

const ENDED_TOPIC = 'session-ended';
const CHANGED_TOPIC = 'session-changed';
const key = (id: string): string => `session:${id}`;

/** Sessions shared by replicas; see the module header. */
export interface SharedSessions {
  /** The session with this id: the local copy, or one restored from the shared record; undefined when unknown. */
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

/** What a failure of the shared state says, for a debug line (its outage is logged once, by the state itself). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the shared sessions of one handler keep. */
interface State {
  readonly shared: SharedState;
  readonly store: SessionStore;
  readonly server: Server;
  readonly idleMs: number;
  readonly logger: Logger;
  /** Longest record text read (record.ts): a longer one is not a record of this server. */
  readonly maxChars: number;
  /** The record text last written (or read) per local session, so unchanged state only extends the expiry. */
  readonly written: Map<string, string>;
  readonly lastTouched: Map<string, number>;
  readonly restoring: Map<string, Promise<Session | undefined>>;
}

/** Creates the shared sessions over a handler's local store. */
export function createSharedSessions(shared: SharedState, store: SessionStore, server: Server, idleMs: number, logger: Logger): SharedSessions {
  const state: State = {
    shared,
    store,
    server,
    idleMs,
    logger,
    maxChars: maxRecordChars(server.limits),
    written: new Map(),
    lastTouched: new Map(),
    restoring: new Map(),
  };
  const stopEnded = shared.subscribe(ENDED_TOPIC, (id) => {
    forget(state, id);
    store.end(id);
  });
  const stopChanged = shared.subscribe(CHANGED_TOPIC, (message) => changedElsewhere(state, message));
  return {
    find(id) {
      const local = store.get(id);
      if (local) return local;
      let pending = state.restoring.get(id);
      if (!pending) {
        pending = restore(state, id).finally(() => state.restoring.delete(id));
        state.restoring.set(id, pending);
      }
      return pending;
    },
    saved: (session) => saved(state, session),
    async end(id) {
      forget(state, id);
      store.end(id);
      await shared.delete(key(id));
      await shared.publish(ENDED_TOPIC, id);
    },
    refresh: () => refresh(state),
    close() {
      stopEnded();
      stopChanged();
    },
  };
}

function forget(state: State, id: string): void {
  state.written.delete(id);
  state.lastTouched.delete(id);
}

/** The session from its shared record, restored here (no handshake replayed); undefined when there is none or it is refused. */
async function restore(state: State, id: string): Promise<Session | undefined> {
  const text = await state.shared.get(key(id));
  if (text === undefined) return undefined;
  const record = readRecord(text, state.maxChars);
  if (!record) {
    state.logger.warn('Ignoring a shared session record that is not one');
    return undefined;
  }
  // Another request may have restored it while this one read the record.
  const existing = state.store.get(id);
  if (existing) return existing;
  let session: Session;
  try {
    session = state.store.open(state.server, id, record.snapshot);
  } catch (error) {
    // Not a session this server can carry on (another version, out of bounds): unknown here, so 404.
    state.logger.warn(`Ignoring a shared session record: ${messageOf(error)}`);
    return undefined;
  }
  session.owner = record.owner;
  if (!state.store.register(session)) {
    session.connection.close('disconnect');
    throw new Error('the session store is full');
  }
  state.written.set(id, text);
  state.lastTouched.set(id, Date.now());
  state.logger.debug(`Restored shared session ${id}`);
  return session;
}

/** Another replica changed a session's settings: this replica's copy takes the record's state. */
function changedElsewhere(state: State, message: string): void {
  const [from, id] = message.split(' ', 2);
  if (from === state.shared.replica || id === undefined) return;
  const session = state.store.get(id);
  if (!session) return;
  state.shared
    .get(key(id))
    .then((text) => {
      const record = text === undefined ? undefined : readRecord(text, state.maxChars);
      if (!record || text === undefined) return;
      state.written.set(id, text);
      if (!session.connection.update(record.snapshot)) state.logger.debug(`Ignored a shared session record for ${id} that does not fit its session`);
    })
    .catch((error: unknown) => state.logger.debug(`Cannot refresh a shared session: ${messageOf(error)}`));
}

/** See {@link SharedSessions.saved}. */
function saved(state: State, session: Session): Promise<boolean> | undefined {
  const text = recordText(session);
  if (text === undefined) return undefined;
  const { shared, written, lastTouched, idleMs, logger } = state;
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
}

/** Keeps alive the records of sessions busy here; forgets what was written for copies the sweep ended. */
function refresh(state: State): void {
  const { shared, store, idleMs, logger } = state;
  for (const session of store.all()) {
    if (!session.stream?.open && session.inFlight === 0) continue;
    state.lastTouched.set(session.id, Date.now());
    shared.touch(key(session.id), idleMs).then(
      (exists) => {
        // Its record is gone (ended elsewhere while this replica missed the broadcast): end the copy too.
        if (!exists) store.end(session.id);
      },
      (error: unknown) => logger.debug(`Cannot extend a shared session: ${messageOf(error)}`),
    );
  }
  for (const id of [...state.written.keys()]) if (!store.get(id)) forget(state, id);
}
