/**
 * What replicas of one server share, as a small interface: records with an
 * expiry (legacy session records, task records) and broadcast topics (a
 * session ended, a catalogue changed, a task changed). `redis.ts` implements it on Redis; tests or other
 * stores can implement it too. Without one, a process keeps everything to
 * itself, as a single server always did.
 */

/**
 * Capped lists with an expiry: the event store of resumable SSE streams
 * (http/sessions/event-store.ts) keeps each stream's events in one. Every
 * method may reject when the store is out of reach.
 */
export interface SharedLists {
  /** Appends `value` to the list under `key`, keeps its newest `keep` entries (0: none), and makes it expire `ttlMs` from now. */
  append(key: string, value: string, keep: number, ttlMs: number): Promise<void>;
  /** Every entry of the list under `key`, oldest first; empty when there is none. */
  entries(key: string): Promise<string[]>;
}

/** Shared records and topics; every method may reject when the store is out of reach. */
export interface SharedState extends SharedLists {
  /** This process's random id, so a replica can skip its own broadcasts. */
  readonly replica: string;
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Extends the life of `key` to `ttlMs` from now; false when it no longer exists. */
  touch(key: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Atomically stores `value` under `key` for `ttlMs` when what is stored is
   * exactly `expected`, or, with `expected` undefined, when nothing is: the
   * compare-and-set that lets two replicas change one record without losing
   * either change (task records, transport/task-store.ts). False when the
   * stored value was something else.
   */
  swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean>;
  /** Sends `message` to every subscriber of `topic` on every replica, this one included. */
  publish(topic: string, message: string): Promise<void>;
  /** Calls `listener` for each message on `topic`; returns the function that stops it. */
  subscribe(topic: string, listener: (message: string) => void): () => void;
  /** Whether the store answers now (for readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** A change of what is served, as replicas tell each other. */
export interface CatalogueChange {
  /** What the new content is, when the source names it (a commit); absent for a folder. */
  readonly revision?: string;
}

/**
 * Catalogue changes between replicas: the replica that sees a change (its
 * watcher, a poll, a hook) publishes it, and every other replica syncs its
 * own source; each then tells its own clients, so each stream is told once.
 */
export interface ChangeBus {
  publish(change: CatalogueChange): Promise<void>;
  /** Calls `listener` for changes other replicas publish (never this one's); returns the function that stops it. */
  subscribe(listener: (change: CatalogueChange) => void): () => void;
}

const CATALOGUE_TOPIC = 'catalogue';

/** The change bus over shared state. */
export function createChangeBus(shared: SharedState): ChangeBus {
  return {
    publish(change) {
      return shared.publish(CATALOGUE_TOPIC, JSON.stringify({ from: shared.replica, ...change }));
    },
    subscribe(listener) {
      return shared.subscribe(CATALOGUE_TOPIC, (message) => {
        let parsed: { from?: unknown; revision?: unknown };
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch {
          return;
        }
        if (parsed.from === shared.replica) return;
        listener(typeof parsed.revision === 'string' ? { revision: parsed.revision } : {});
      });
    },
  };
}

/**
 * {@link SharedLists} in this process's memory, for a server without shared
 * state. Expired lists are dropped when read, and all of them at most every
 * `sweepMs` on an append, so lists nobody reads again do not pile up.
 */
export function memoryLists(now: () => number = Date.now, sweepMs = 10_000): SharedLists {
  const lists = new Map<string, { entries: string[]; expires: number }>();
  let nextSweep = now() + sweepMs;
  function sweep(at: number): void {
    nextSweep = at + sweepMs;
    for (const [key, list] of lists) if (list.expires <= at) lists.delete(key);
  }
  return {
    async append(key, value, keep, ttlMs) {
      const at = now();
      if (at >= nextSweep) sweep(at);
      const list = lists.get(key) ?? { entries: [], expires: 0 };
      list.entries.push(value);
      if (list.entries.length > keep) list.entries.splice(0, list.entries.length - keep);
      list.expires = at + ttlMs;
      lists.set(key, list);
    },
    async entries(key) {
      const list = lists.get(key);
      if (!list) return [];
      if (list.expires > now()) return [...list.entries];
      lists.delete(key);
      return [];
    },
  };
}
