/**
 * A real redis-server for the tests of one file, and replicas' shared state
 * over it: `useRedis` starts the server before the file's tests and stops it
 * after; each `replica(prefix)` is a connection of its own (two clients, as
 * `connectRedis` makes), closed after each test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { connectRedis } from '../../src/transport/redis.js';
import type { SharedState } from '../../src/transport/shared-state.js';
import { startRedis, tempDir } from '../cluster/_processes.js';

export interface TestRedis {
  /** The server's URL, once started. */
  url(): string;
  /** A replica's shared state under `prefix`, closed after the test. */
  replica(prefix: string): Promise<SharedState>;
}

export function useRedis(name: string): TestRedis {
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    dir = tempDir(`skillport-${name}-`);
    redis = await startRedis(dir.path);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });
  afterAll(async () => {
    await redis?.stop();
    dir?.cleanup();
  });
  const url = (): string => {
    if (!redis) throw new Error('redis-server has not started');
    return redis.url;
  };
  return {
    url,
    async replica(prefix) {
      const shared = await connectRedis(url(), { prefix });
      closers.push(() => shared.close());
      return shared;
    },
  };
}
