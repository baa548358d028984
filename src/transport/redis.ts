/**
 * {@link SharedState} on Redis, with node-redis (the `redis` package), which
 * is imported here on first use only: a server without `redis` configured
 * never loads it. Keys and channels are under a prefix (`skillport:` by
 * default) so several deployments can share one Redis.
 *
 * Two connections, as Redis requires: one for commands, one in subscriber
 * mode for the topics. Commands fail at once while Redis is out of reach
 * (no offline queue), so a request is answered 503 rather than left waiting;
 * node-redis reconnects in the background, and the subscriptions with it.
 * The URL may carry a password: it is never logged.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../server/index.js';
import type { SharedState } from './shared-state.js';

/** How long the first connection may take before {@link connectRedis} gives up. */
const CONNECT_TIMEOUT_MS = 5000;

/** Options of {@link connectRedis}. */
export interface RedisOptions {
  /** Prefix of every key and channel. Default `skillport:`. */
  prefix?: string;
  logger?: Logger;
}

/** Connects to Redis at `url` (`redis://` or `rediss://`) and returns the shared state over it. */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<SharedState> {
  let where: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new TypeError(parsed.protocol);
    // Named in messages without its credentials.
    where = parsed.host;
  } catch {
    throw new TypeError('the Redis URL must look like redis://[user:password@]host:port[/db] (or rediss:// for TLS)');
  }
  const { createClient } = await import('redis');
  const prefix = options.prefix ?? 'skillport:';
  const logger = options.logger;
  const settings = {
    url,
    disableOfflineQueue: true,
    // Bounded backoff: reconnect quickly after a Redis restart, never give up.
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  };
  const commands = createClient(settings);
  const subscriber = createClient(settings);
  // Without an error listener node-redis would throw on a dropped connection; log once per outage.
  let down = false;
  for (const client of [commands, subscriber]) {
    client.on('error', (error: Error) => {
      if (!down) logger?.warn(`Redis is out of reach: ${error.message}`);
      down = true;
    });
    client.on('ready', () => {
      if (down) logger?.info('Redis is reachable again');
      down = false;
    });
  }
  // node-redis retries the first connection forever; a server that cannot reach Redis at start
  // says so and stops instead of hanging (later outages are retried, and /readyz reports them).
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([commands.connect(), subscriber.connect()]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis at ${where} is out of reach`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    for (const client of [commands, subscriber]) {
      try {
        client.destroy();
      } catch {
        // Never connected: nothing to destroy.
      }
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }

  const listeners = new Map<string, Set<(message: string) => void>>();

  return {
    replica: randomUUID(),
    async get(key) {
      return (await commands.get(prefix + key)) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await commands.set(prefix + key, value, { expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) } });
    },
    async touch(key, ttlMs) {
      return (await commands.pExpire(prefix + key, Math.max(1, Math.round(ttlMs)))) === 1;
    },
    async delete(key) {
      await commands.del(prefix + key);
    },
    async publish(topic, message) {
      await commands.publish(prefix + topic, message);
    },
    subscribe(topic, listener) {
      const channel = prefix + topic;
      let set = listeners.get(channel);
      if (!set) {
        const created = new Set<(message: string) => void>();
        set = created;
        listeners.set(channel, created);
        subscriber
          .subscribe(channel, (message: string) => {
            for (const each of [...created]) each(message);
          })
          .catch((error: unknown) => logger?.error(`Cannot subscribe to ${channel}`, error));
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    async ping() {
      try {
        return (await commands.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.allSettled([commands.close(), subscriber.close()]);
    },
  };
}
