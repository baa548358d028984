/**
 * The memory task store (core/tasks.ts): compare-and-set writes, records
 * kept until their TTL, and expired records swept with their owners'
 * lists as new ones come, so callers who never come back leave nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryTaskStore, type TaskRecord } from '../../src/index.js';

function record(id: string, owner: string | undefined, createdAt: number, ttlMs = 1000): TaskRecord {
  return {
    id,
    ...(owner === undefined ? {} : { owner }),
    status: 'working',
    createdAt,
    updatedAt: createdAt,
    ttlMs,
    pollIntervalMs: 10,
    runner: 'r',
    leaseUntil: createdAt + 100,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('memoryTaskStore', () => {
  it('writes only over the record the writer read, and creates only what is absent', async () => {
    const store = memoryTaskStore();
    const first = record('a', 'alice', Date.now());
    expect(await store.put(first, undefined)).toBe(true);
    expect(await store.put(first, undefined)).toBe(false);
    const done: TaskRecord = { ...first, status: 'completed', updatedAt: first.updatedAt + 1 };
    const cancelled: TaskRecord = { ...first, status: 'cancelled', updatedAt: first.updatedAt + 1 };
    expect(await store.put(done, first)).toBe(true);
    // A second writer that read the same record loses.
    expect(await store.put(cancelled, first)).toBe(false);
    expect((await store.get('a'))?.status).toBe('completed');
  });

  it('forgets a record after its TTL, and sweeps expired records and their owners as new ones come', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = memoryTaskStore();
    for (const [i, owner] of ['alice', 'bob', undefined].entries()) {
      await store.put(record(`old-${i}`, owner, Date.now()), undefined);
      await store.own(owner, `old-${i}`, 10);
    }
    expect(await store.owned('bob')).toEqual(['old-1']);
    vi.setSystemTime(1_000_000 + 1000);
    expect(await store.get('old-0')).toBeUndefined();
    await store.put(record('new', 'carol', Date.now()), undefined);
    // Swept on the write: nothing of the old callers is left, even unread.
    expect(await store.owned('bob')).toEqual([]);
    expect(await store.owned(undefined)).toEqual([]);
    expect(await store.get('new')).toMatchObject({ id: 'new', owner: 'carol' });
  });

  it('keeps at most `max` ids per owner, dropping the oldest', async () => {
    const store = memoryTaskStore();
    for (const id of ['a', 'b', 'c']) {
      await store.put(record(id, 'alice', Date.now()), undefined);
      await store.own('alice', id, 2);
    }
    expect(await store.owned('alice')).toEqual(['b', 'c']);
  });

  it('tells every listener of a signal, after the writer’s own step', async () => {
    const store = memoryTaskStore();
    const heard: string[] = [];
    const stop = store.onSignal((id) => heard.push(id));
    await store.signal('a');
    await Promise.resolve();
    expect(heard).toEqual(['a']);
    stop();
    await store.signal('b');
    await Promise.resolve();
    expect(heard).toEqual(['a']);
  });
});
