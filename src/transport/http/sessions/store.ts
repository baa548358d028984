/**
 * Legacy Streamable HTTP sessions (2025-06-18 and 2025-11-25
 * basic/transports §Session Management): one connection per
 * `Mcp-Session-Id`, the session's GET stream, and a bounded backlog for what
 * the server sends while no GET stream is open.
 *
 * Ids are 128-bit random UUIDs (visible ASCII, globally unique,
 * cryptographically secure, as the spec asks). A session ends on DELETE, on
 * shutdown, after `idleMs` without traffic and without an open GET stream,
 * or when the store is full and it is the least recently used idle one. An
 * ended id is answered with 404, after which the client starts a new session.
 */
import { randomUUID } from 'node:crypto';
import type { JsonRpcOutgoing, RequestId } from '../../../jsonrpc/messages.js';
import type { Connection, Peer, Server, SessionSnapshot } from '../../../server/index.js';
import type { Exchange } from '../exchange.js';
import type { SseStream } from '../sse.js';
import type { EventStream } from './event-stream.js';

/** Messages kept for a session while it has no GET stream. */
const BACKLOG_LIMIT = 100;
/**
 * A session whose client never sent `notifications/initialized` ends after
 * this long idle (or `idleMs`, if shorter): probes and abandoned handshakes
 * should not hold a connection for the full idle time.
 */
const HANDSHAKE_IDLE_MS = 60_000;

/** One legacy session. */
export interface Session {
  readonly id: string;
  readonly connection: Connection;
  /** The open GET stream, where messages unrelated to a request go. */
  stream: SseStream | undefined;
  /**
   * The GET stream's events, on a revision whose streams resume
   * (resume.ts): what it sends is stored, connected or not, for a GET with
   * `Last-Event-ID`; only the replica that writes it holds it.
   */
  events?: EventStream | undefined;
  /** The resumable SSE answers of requests, by stream id, until their last message. */
  readonly streams: Map<string, EventStream>;
  /** What was sent while no GET stream was open, oldest first, at most 100. */
  readonly backlog: JsonRpcOutgoing[];
  /** Requests being answered. */
  inFlight: number;
  /** The answer of each request being answered, where its own notifications go. */
  readonly exchanges: Map<RequestId, Exchange>;
  lastActive: number;
  /**
   * Who opened it, under OAuth (core/context.ts `principalId`: the token's
   * client and subject): other callers' requests do not find it (2025-06-18
   * security best practices §Session Hijacking: bind sessions to the user).
   */
  owner?: string | undefined;
}

/** Limits of a {@link SessionStore}. */
export interface SessionStoreOptions {
  /** A session idle this long (no request in flight, no GET stream) ends at the next sweep. */
  idleMs: number;
  /** Most sessions kept at once. */
  maxSessions: number;
  /** The clock, for tests. */
  now?: () => number;
  /**
   * Keep what is sent while no GET stream is open, for the next one. Default
   * true; false when sessions are shared by replicas (shared.ts):
   * the next GET stream may open on a replica that already delivered it.
   */
  backlog?: boolean;
}

/** The sessions of one handler. */
export interface SessionStore {
  /**
   * Opens a session that is not yet reachable by id (until {@link SessionStore.register}),
   * under a new id, or under `id` when restoring a shared session from its
   * snapshot (`restore`, which throws a TypeError when the snapshot is refused).
   */
  open(server: Server, id?: string, restore?: SessionSnapshot): Session;
  /** Makes a session reachable by its id; false when the store is full of busy sessions. */
  register(session: Session): boolean;
  get(id: string): Session | undefined;
  /** Ends a session: its requests are cancelled and its GET stream ends. */
  end(id: string): boolean;
  /** Ends sessions idle for longer than `idleMs` (a minute, for handshakes never completed). */
  sweep(): void;
  /** Every registered session. */
  all(): Session[];
  readonly size: number;
}

function idle(session: Session): boolean {
  return session.inFlight === 0 && !session.stream?.open;
}

/** Creates an empty session store; the handler sweeps it on a timer. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  const keepBacklog = options.backlog !== false;

  function endSession(session: Session): void {
    sessions.delete(session.id);
    session.connection.close('disconnect');
    session.stream?.close();
    session.stream = undefined;
  }

  return {
    open: (server, id, restore) => openSession(server, id ?? randomUUID(), now(), keepBacklog, restore),
    register(session) {
      if (sessions.size >= options.maxSessions) {
        const evictable = leastRecentIdle(sessions);
        if (!evictable) return false;
        endSession(evictable);
      }
      sessions.set(session.id, session);
      return true;
    },
    get: (id) => sessions.get(id),
    end(id) {
      const session = sessions.get(id);
      if (!session) return false;
      endSession(session);
      return true;
    },
    sweep() {
      const cutoff = now() - options.idleMs;
      const handshakeCutoff = now() - Math.min(options.idleMs, HANDSHAKE_IDLE_MS);
      for (const session of [...sessions.values()]) {
        if (!idle(session)) continue;
        const limit = session.connection.session?.initialized ? cutoff : handshakeCutoff;
        if (session.lastActive < limit) endSession(session);
      }
    },
    all: () => [...sessions.values()],
    get size() {
      return sessions.size;
    },
  };
}

/** The least recently active idle session, in one pass without copying the table. */
function leastRecentIdle(sessions: Map<string, Session>): Session | undefined {
  let evictable: Session | undefined;
  for (const candidate of sessions.values()) {
    if (idle(candidate) && (evictable === undefined || candidate.lastActive < evictable.lastActive)) evictable = candidate;
  }
  return evictable;
}

/** A session and its connection, whose peer sends where the session's messages belong. */
function openSession(server: Server, id: string, now: number, keepBacklog: boolean, restore: SessionSnapshot | undefined): Session {
  const backlog: JsonRpcOutgoing[] = [];
  const peer: Peer = {
    carriesRequests: true,
    network: 'tcp',
    sessionId: id,
    send(message, relatedTo) {
      // A request's own notifications go on its answer (2025-06-18
      // basic/transports §Sending Messages to the Server); everything a
      // legacy session sends unprompted belongs on the GET stream
      // (§Listening for Messages from the Server).
      const exchange = relatedTo === undefined ? undefined : session.exchanges.get(relatedTo);
      if (exchange && 'method' in message) return exchange.notify(message);
      if (session.events) {
        session.events.send(message);
        if (session.events.attached) return;
      } else if (session.stream?.open) return session.stream.send(message);
      if (!keepBacklog) return;
      if (backlog.length >= BACKLOG_LIMIT) backlog.shift();
      backlog.push(message);
    },
    // A question goes on the answer of the request that asks, which then waits on the client.
    hold(relatedTo) {
      const exchange = session.exchanges.get(relatedTo);
      return exchange ? exchange.hold() : 'The request that asks has no answer to carry a question';
    },
  };
  const session: Session = {
    id,
    stream: undefined,
    inFlight: 0,
    exchanges: new Map(),
    streams: new Map(),
    lastActive: now,
    backlog,
    connection: server.connect(peer, restore ? { restore } : undefined),
  };
  return session;
}

/** Moves the messages held while no GET stream was open onto the new stream. */
export function attachStream(session: Session, stream: SseStream): void {
  session.stream = stream;
  for (const message of session.backlog.splice(0)) stream.send(message);
}
