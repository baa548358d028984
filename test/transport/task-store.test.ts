/**
 * Task records shared through a real redis-server (src/transport/task-store.ts
 * over `connectRedis`, whose `swap` is one Lua script): each connection is a
 * replica. The store's contract (core/tasks.ts `TaskStore`): compare-and-set
 * writes of which exactly one of two racing replicas wins, owner lists bounded
 * and pruned, expiry at creation plus TTL, signals heard by every replica. Then
 * the runner (server/tasks.ts) over two such stores, and one in a process that
 * is killed. The same through nginx and three served replicas:
 * test/cluster/tasks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { TaskRecord, TaskStore } from '../../src/index.js';
import type { SharedState } from '../../src/transport/shared-state.js';
import { sharedTaskStore } from '../../src/transport/task-store.js';
import { until } from '../cluster/_processes.js';
import { useRedis } from './_redis.js';

const redis = useRedis('task-store');

/** One replica's shared state: its own two connections to the test's Redis, under a prefix of the test's. */
const replica = (prefix: string): Promise<SharedState> => redis.replica(prefix);

/** Two replicas' task stores over one Redis, under a prefix of their own. */
async function twoStores(): Promise<[TaskStore, TaskStore, SharedState]> {
  const prefix = `t${crypto.randomUUID()}:`;
  const a = await replica(prefix);
  const b = await replica(prefix);
  return [sharedTaskStore(a), sharedTaskStore(b), a];
}

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    id: crypto.randomUUID(),
    status: 'working',
    createdAt: now,
    updatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    runner: 'someone',
    leaseUntil: now + 60_000,
    ...overrides,
  };
}

describe('SharedState.swap on Redis', () => {
  it('creates only what is absent and replaces only the exact text it expects', async () => {
    const shared = await replica(`s${crypto.randomUUID()}:`);
    expect(await shared.swap('k', undefined, 'one', 60_000)).toBe(true);
    expect(await shared.swap('k', undefined, 'two', 60_000)).toBe(false);
    expect(await shared.swap('k', 'on', 'two', 60_000)).toBe(false);
    expect(await shared.swap('k', '', 'two', 60_000)).toBe(false);
    expect(await shared.get('k')).toBe('one');
    expect(await shared.swap('k', 'one', 'two', 60_000)).toBe(true);
    expect(await shared.get('k')).toBe('two');
    // An empty text is a value like any other, not an absence.
    expect(await shared.swap('e', '', 'x', 60_000)).toBe(false);
    expect(await shared.swap('e', undefined, '', 60_000)).toBe(true);
    expect(await shared.swap('e', '', 'x', 60_000)).toBe(true);
    expect(await shared.get('e')).toBe('x');
  });
});

describe('sharedTaskStore', () => {
  it('lets exactly one of two replicas win a compare-and-set on one task, every time', async () => {
    const [a, b] = await twoStores();
    const first = record();
    expect(await a.put(first, undefined)).toBe(true);
    // Creation is compare-and-set too: the id is taken.
    expect(await b.put(first, undefined)).toBe(false);
    for (let round = 0; round < 25; round++) {
      const [seenA, seenB] = await Promise.all([a.get(first.id), b.get(first.id)]);
      if (!seenA || !seenB) throw new Error('the record is gone');
      const nextA: TaskRecord = { ...seenA, message: `a${round}`, updatedAt: seenA.updatedAt + 1 };
      const nextB: TaskRecord = { ...seenB, message: `b${round}`, updatedAt: seenB.updatedAt + 1 };
      const [wonA, wonB] = await Promise.all([a.put(nextA, seenA), b.put(nextB, seenB)]);
      expect([wonA, wonB].filter(Boolean)).toHaveLength(1);
      expect(await a.get(first.id)).toEqual(wonA ? nextA : nextB);
      // The loser's view is stale: writing on it fails until it reads again.
      expect(await (wonA ? b : a).put(wonA ? nextB : nextA, wonA ? seenB : seenA)).toBe(false);
    }
  });

  it('keeps each caller’s list bounded, oldest dropped first, without tasks that are gone', async () => {
    const [a, b] = await twoStores();
    const records = Array.from({ length: 5 }, () => record({ owner: 'alice' }));
    for (const each of records) await a.put(each, undefined);
    const ids = records.map((each) => each.id);
    expect(await a.own('alice', ids[0] as string, 3)).toEqual([]);
    expect(await b.own('alice', ids[1] as string, 3)).toEqual([]);
    expect(await a.own('alice', ids[2] as string, 3)).toEqual([]);
    expect(await b.own('alice', ids[3] as string, 3)).toEqual([ids[0]]);
    expect(await a.owned('alice')).toEqual(ids.slice(1, 4));
    // A deleted task leaves the list, and makes room.
    await b.delete(ids[2] as string);
    expect(await a.owned('alice')).toEqual([ids[1], ids[3]]);
    expect(await a.own('alice', ids[4] as string, 3)).toEqual([]);
    expect(await b.owned('alice')).toEqual([ids[1], ids[3], ids[4]]);
    // Another caller's list, and the unauthenticated caller's, are their own.
    expect(await a.owned('bob')).toEqual([]);
    expect(await a.owned(undefined)).toEqual([]);
  });

  it('keeps a list bounded when replicas add to it at once', async () => {
    const [a, b] = await twoStores();
    const records = Array.from({ length: 12 }, () => record());
    await Promise.all(records.map((each) => a.put(each, undefined)));
    const dropped = await Promise.all(records.map((each, i) => (i % 2 === 0 ? a : b).own(undefined, each.id, 8)));
    const kept = await a.owned(undefined);
    expect(kept).toHaveLength(8);
    // Every id is either kept or was dropped by exactly one call: none lost, none twice.
    expect([...kept, ...dropped.flat()].sort()).toEqual(records.map((each) => each.id).sort());
  });

  it('forgets a task at its creation plus its TTL, and its list with it', async () => {
    const [a, b] = await twoStores();
    const short = record({ ttlMs: 300 });
    const long = record();
    await a.put(short, undefined);
    await a.put(long, undefined);
    await a.own('carol', short.id, 10);
    expect((await b.get(short.id))?.id).toBe(short.id);
    await until('the short task to expire', async () => (await b.get(short.id)) === undefined);
    expect(await b.owned('carol')).toEqual([]);
    expect((await b.get(long.id))?.id).toBe(long.id);
    // A write keeps the record's own expiry: an update never extends a task's life.
    const expiring = record({ ttlMs: 400 });
    await a.put(expiring, undefined);
    await a.put({ ...expiring, status: 'completed' }, expiring);
    await until('the updated task to expire', async () => (await b.get(expiring.id)) === undefined);
  });

  it('reads no foreign or damaged entry as a task', async () => {
    const [a, , shared] = await twoStores();
    await shared.set('task:broken', '{"id":', 60_000);
    await shared.set('task:foreign', '{"id":"foreign"}', 60_000);
    await shared.set('task-owner:dave', 'not a list', 60_000);
    expect(await a.get('broken')).toBeUndefined();
    expect(await a.get('foreign')).toBeUndefined();
    expect(await a.owned('dave')).toEqual([]);
    const mine = record({ owner: 'dave' });
    await a.put(mine, undefined);
    expect(await a.own('dave', mine.id, 5)).toEqual([]);
    expect(await a.owned('dave')).toEqual([mine.id]);
  });

  it('signals a change to every replica, the sender included', async () => {
    const [a, b] = await twoStores();
    expect(a.replica).not.toBe(b.replica);
    const heard = { a: new Set<string>(), b: new Set<string>() };
    const stopA = a.onSignal((id) => heard.a.add(id));
    const stopB = b.onSignal((id) => heard.b.add(id));
    // Subscribing takes a round trip: signal until both have heard it.
    await until('both replicas to hear a signal', async () => {
      await a.signal('t1');
      return heard.a.has('t1') && heard.b.has('t1');
    });
    stopB();
    await until('the sender to hear its next signal', async () => {
      await b.signal('t2');
      return heard.a.has('t2');
    });
    expect(heard.b.has('t2')).toBe(false);
    stopA();
  });
});
