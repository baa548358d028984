/**
 * The event store of resumable streams (src/transport/http/sessions/
 * event-store.ts) over the lists of memory and of a real redis-server
 * (src/transport/redis.ts): what one writer appends, another store (another
 * replica) reads after an id, each event once and in order; the caps by
 * count, bytes and age; a stream of another session, an id past the last
 * and an id from before what is kept are unknown.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, eventId, newStreamId, parseEventId, type StreamBounds } from '../../../../src/transport/http/sessions/event-store.js';
import { connectRedis } from '../../../../src/transport/redis.js';
import { memoryLists, type SharedLists, type SharedState } from '../../../../src/transport/shared-state.js';
import { type RedisServer, startRedis, tempDir } from '../../../cluster/_processes.js';

const BOUNDS: StreamBounds = { maxEvents: 5, maxBytes: 100_000, maxAgeMs: 60_000 };
const fail = (error: unknown): never => {
  throw error;
};

let redis: RedisServer;
let shared: SharedState[] = [];
const dir = tempDir('skillport-event-store-');
beforeAll(async () => {
  mkdirSync(join(dir.path, 'redis'));
  redis = await startRedis(join(dir.path, 'redis'));
  shared = [await connectRedis(redis.url, { prefix: 'test:' }), await connectRedis(redis.url, { prefix: 'test:' })];
});
afterAll(async () => {
  for (const one of shared) await one.close();
  await redis?.stop();
  dir.cleanup();
});

describe('event ids', () => {
  it('name their stream and number, and nothing else parses', () => {
    const stream = newStreamId('g');
    expect(stream).toMatch(/^g[0-9a-f]{32}$/);
    expect(newStreamId('p')).toMatch(/^p[0-9a-f]{32}$/);
    expect(newStreamId('g')).not.toBe(stream);
    expect(parseEventId(eventId(stream, 42))).toEqual({ streamId: stream, seq: 42 });
    for (const bad of ['', `${stream}_0`, `${stream}_-1`, `${stream}_1_2`, `x${stream.slice(1)}_1`, `${stream}_1e3`, 'g_1'])
      expect(parseEventId(bad)).toBeUndefined();
  });
});

describe.each([
  ['memory', () => [memoryLists(), undefined] as const],
  ['redis-server', () => [shared[0], shared[1]] as const],
])('the event store over %s', (_name, lists: () => readonly [SharedLists | undefined, SharedLists | undefined]) => {
  const stores = (bounds: StreamBounds = BOUNDS, now?: () => number) => {
    const [writerLists, readerLists] = lists();
    const writer = createEventStore(writerLists as SharedLists, bounds, fail, now);
    // Another replica reads what this one wrote, where the lists are shared.
    return { writer, reader: readerLists ? createEventStore(readerLists, bounds, fail, now) : writer };
  };

  it('replays what came after an id, once each and in order, on another store', async () => {
    const { writer, reader } = stores();
    const session = crypto.randomUUID();
    const stream = newStreamId('g');
    const log = writer.log(session, stream);
    expect(log.append('', 'p')).toBe(1);
    for (let i = 2; i <= 4; i++) expect(log.append(`{"n":${i}}`, 'm')).toBe(i);
    await log.after(0);
    const replay = await reader.log(session, stream).after(2);
    expect(replay?.events.map((event) => [event.seq, event.data])).toEqual([
      [3, '{"n":3}'],
      [4, '{"n":4}'],
    ]);
    expect(replay?.ended).toBe(false);
    expect((await reader.log(session, stream).after(4))?.events).toEqual([]);
    // Another session's stream, an id past the last: unknown.
    expect(await reader.log(crypto.randomUUID(), stream).after(2)).toBeUndefined();
    expect(await reader.log(session, stream).after(5)).toBeUndefined();
    // A stream's end is kept with its last event.
    log.append('{"response":true}', 'e');
    expect((await log.after(4))?.ended).toBe(true);
  });

  it('takes over a stream where its writer stopped, numbering on', async () => {
    const { writer, reader } = stores();
    const session = crypto.randomUUID();
    const stream = newStreamId('g');
    const first = writer.log(session, stream);
    for (let i = 1; i <= 3; i++) first.append(`{"n":${i}}`, 'm');
    await first.after(3);
    const seed = await reader.log(session, stream).after(2);
    const second = reader.log(session, stream, seed);
    expect(second.append('{"n":4}', 'm')).toBe(4);
    expect((await second.after(1))?.events.map((event) => event.seq)).toEqual([2, 3, 4]);
  });

  it('keeps at most maxEvents, maxBytes and maxAgeMs of a stream, and refuses ids from before', async () => {
    let clock = 1_000_000;
    const { writer, reader } = stores({ maxEvents: 3, maxBytes: 130, maxAgeMs: 1000 }, () => clock);
    const session = crypto.randomUUID();
    const counted = writer.log(session, newStreamId('g'));
    for (let i = 1; i <= 5; i++) counted.append('{}', 'm');
    await counted.after(5);
    expect(await reader.log(session, counted.streamId).after(1)).toBeUndefined();
    expect((await reader.log(session, counted.streamId).after(2))?.events.map((event) => event.seq)).toEqual([3, 4, 5]);
    // Each entry is about 60 bytes: two fit in 130 (fewer than maxEvents).
    const sized = writer.log(session, newStreamId('p'));
    for (let i = 1; i <= 4; i++) sized.append(`{"pad":"${'x'.repeat(40)}"}`, 'm');
    await sized.after(4);
    expect(await reader.log(session, sized.streamId).after(1)).toBeUndefined();
    expect((await reader.log(session, sized.streamId).after(2))?.events.map((event) => event.seq)).toEqual([3, 4]);
    // Older than maxAgeMs: gone.
    const aged = writer.log(session, newStreamId('g'));
    aged.append('{}', 'm');
    clock += 600;
    aged.append('{}', 'm');
    await aged.after(2);
    clock += 600;
    expect(await reader.log(session, aged.streamId).after(0)).toBeUndefined();
    expect((await reader.log(session, aged.streamId).after(1))?.events.map((event) => event.seq)).toEqual([2]);
  });
});
