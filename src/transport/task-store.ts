/**
 * Task records in the state the replicas share (core/tasks.ts `TaskStore`
 * over {@link SharedState}), so a task started on one replica is polled,
 * answered and cancelled on any other (2025-11-25 basic/utilities/tasks;
 * SEP-2663, the 2026-07-28 Tasks extension: a task is durably created before
 * its id is returned).
 *
 * Each record is its JSON text under a key of its own, kept until its
 * creation plus its TTL; writes are `swap`s on the exact text the writer
 * read, so of two replicas changing one task at once (a result and a
 * cancellation) one wins and the other reads again. Each caller's task ids
 * are one JSON array, changed the same way. A change is published on the
 * `tasks` topic, which every replica (this one too) hears.
 */
import { parseTask, type TaskRecord, type TaskStore, taskText } from '../server/index.js';
import type { SharedState } from './shared-state.js';

const TOPIC = 'tasks';

/** How often a caller's list is read again when another replica changed it in between. */
const LIST_ATTEMPTS = 16;

/** How long a caller's list is kept when none of its tasks is left to date it. */
const EMPTY_LIST_TTL_MS = 60_000;

const recordKey = (id: string): string => `task:${id}`;
// The owner id is principalId's JSON ('[client, subject]'), never empty: the empty key is the unauthenticated caller's.
const listKey = (owner: string | undefined): string => `task-owner:${owner ?? ''}`;

/** When a record expires (ms since the epoch). */
const expiry = (record: TaskRecord): number => record.createdAt + record.ttlMs;

/** The ids of a stored list; anything else (a foreign or damaged entry) is an empty one. */
function parseIds(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The task store over `shared`: what `serveHttp` uses when it connects Redis. */
export function sharedTaskStore(shared: SharedState): TaskStore {
  const get = async (id: string): Promise<TaskRecord | undefined> => parseTask(await shared.get(recordKey(id)));

  /** The records of `ids` still stored, in order (a task past its TTL or deleted is gone). */
  async function live(ids: readonly string[]): Promise<TaskRecord[]> {
    const records = await Promise.all(ids.map(get));
    return records.filter((record): record is TaskRecord => record !== undefined);
  }

  return {
    replica: shared.replica,
    get,
    put(next, previous) {
      const ttlMs = Math.max(1, expiry(next) - Date.now());
      return shared.swap(recordKey(next.id), previous === undefined ? undefined : taskText(previous), taskText(next), ttlMs);
    },
    async owned(owner) {
      return (await live(parseIds(await shared.get(listKey(owner))))).map((record) => record.id);
    },
    async own(owner, id, max) {
      const key = listKey(owner);
      for (let attempt = 0; attempt < LIST_ATTEMPTS; attempt++) {
        const text = await shared.get(key);
        const known = parseIds(text).filter((each) => each !== id);
        const records = await live([...known, id]);
        const dropped = records.splice(0, Math.max(0, records.length - max)).map((record) => record.id);
        // The list lives as long as the longest-lived task in it.
        const until = Math.max(...records.map(expiry), Date.now() + EMPTY_LIST_TTL_MS);
        const ids = JSON.stringify(records.map((record) => record.id));
        if (await shared.swap(key, text, ids, until - Date.now())) return dropped;
      }
      throw new Error(`The task list of one caller changed too often to be written (task ${id})`);
    },
    async delete(id) {
      await shared.delete(recordKey(id));
    },
    async signal(id) {
      await shared.publish(TOPIC, JSON.stringify({ from: shared.replica, id }));
    },
    onSignal(listener) {
      return shared.subscribe(TOPIC, (message) => {
        let parsed: { id?: unknown };
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch {
          return;
        }
        if (typeof parsed.id === 'string') listener(parsed.id);
      });
    },
  };
}
