/**
 * {@link SharedState} on Redis, with node-redis (the `redis` package), which
 * is imported here on first use only: a server without `redis` configured
 * never loads it. Keys and channels are under a prefix (`skillport:` by
 * default) so several deployments can share one Redis.
 *
 * Two connections, as Redis requires: one for commands, one in subscriber
 * mode for the topics. Commands fail at once while Redis is out of reach
 * (no offline queue) and after `commandTimeoutMs` while it does not answer
 * (redis-health.ts), so a request is answered 503 rather than left waiting;
 * node-redis reconnects in the background, and the subscriptions with it.
 * An outage is logged once with its cause, and once when it ends. The URL
 * may carry a password: it is never logged.
 */
import { randomUUID } from 'node:crypto';
import type { createClient } from 'redis';
import type { Logger } from '../server/index.js';
import { createRedisHealth, type RedisHealth, redactSecrets } from './redis-health.js';
import type { SharedState } from './shared-state.js';

/** How long the first connection may take before {@link connectRedis} gives up. */
const CONNECT_TIMEOUT_MS = 5000;

/** Options of {@link connectRedis}. */
export interface RedisOptions {
  /** Prefix of every key and channel. Default `skillport:`. */
  prefix?: string;
  logger?: Logger;
  /** Told when Redis stops answering (false) and answers again (true): for metrics. */
  status?: (up: boolean) => void;
  /**
   * How long a command may wait for Redis's answer, in ms; then it fails (a
   * request that needed it gets 503 with `Retry-After`), and so does every
   * command until Redis answers a PING again. A Redis answers in well under
   * a millisecond; `/readyz` gives up after 2 s. Default 1000.
   */
  commandTimeoutMs?: number;
}

/** A URL component percent-decoded, or as it is when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Where `url` points, for messages, and the forms of its password that messages must never show. */
function parseRedisUrl(url: string): { where: string; secrets: string[] } {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new TypeError(parsed.protocol);
    // Named in messages without its credentials.
    return { where: parsed.host, secrets: [parsed.password, decoded(parsed.password)] };
  } catch {
    throw new TypeError('the Redis URL must look like redis://[user:password@]host:port[/db] (or rediss:// for TLS)');
  }
}

type RedisClient = ReturnType<typeof createClient>;

/**
 * {@link SharedState.swap} as one script, so no other client's write comes
 * between the comparison and the write: ARGV is whether a value is expected
 * ('1') or its absence ('0'), the expected text, the new text and the expiry
 * in ms. A missing key reads as false in Lua, never equal to a string.
 */
const SWAP_SCRIPT = `local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1`;

/** What the shared state over one Redis works with, once both connections are up. */
interface RedisLink {
  commands: RedisClient;
  subscriber: RedisClient;
  health: RedisHealth;
  prefix: string;
  secrets: string[];
  timeoutMs: number;
  logger: Logger | undefined;
}

/** Drops the connections without waiting for answers (a stalled Redis sends none). */
function destroyClients(clients: readonly RedisClient[]): void {
  for (const client of clients) {
    try {
      client.destroy();
    } catch {
      // Never connected, or already gone: nothing to destroy.
    }
  }
}

/**
 * Opens both connections. node-redis retries the first connection forever; a
 * server that cannot reach Redis at start says so and stops instead of hanging
 * (later outages are retried, and /readyz reports them).
 */
async function connectClients(link: RedisLink, where: string): Promise<void> {
  const { commands, subscriber, health, secrets } = link;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([commands.connect(), subscriber.connect()]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis at ${where} is out of reach`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    health.close();
    destroyClients([commands, subscriber]);
    // What the CLI prints when it cannot start: Redis's words, without the password.
    throw new Error(redactSecrets(error instanceof Error ? error.message : String(error), secrets));
  } finally {
    clearTimeout(timer);
  }
}

/** Connects to Redis at `url` (`redis://` or `rediss://`) and returns the shared state over it. */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<SharedState> {
  const { where, secrets } = parseRedisUrl(url);
  const timeoutMs = options.commandTimeoutMs ?? 1000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new TypeError('commandTimeoutMs must be a positive integer');
  const { createClient } = await import('redis');
  const settings = {
    url,
    disableOfflineQueue: true,
    // Bounded backoff: reconnect quickly after a Redis restart, never give up.
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  };
  const commands = createClient(settings);
  const subscriber = createClient(settings);
  const logger = options.logger;
  const health = createRedisHealth({ where, secrets, timeoutMs, logger, status: options.status, probe: () => commands.ping() });
  // Without an error listener node-redis would throw on a dropped connection; the outage is logged once.
  for (const [name, client] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    client.on('error', (error: unknown) => health.failed(name, error));
    client.on('ready', () => health.ready(name));
  }
  const link: RedisLink = { commands, subscriber, health, prefix: options.prefix ?? 'skillport:', secrets, timeoutMs, logger };
  await connectClients(link, where);
  return redisState(link);
}

/** The {@link SharedState} over connected clients: every command through the health's `run`. */
function redisState(link: RedisLink): SharedState {
  const { commands, subscriber, health, prefix, secrets, timeoutMs, logger } = link;
  const run = health.run;
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    replica: randomUUID(),
    async get(key) {
      return (await run(() => commands.get(prefix + key))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await run(() => commands.set(prefix + key, value, { expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) } }));
    },
    async touch(key, ttlMs) {
      return (await run(() => commands.pExpire(prefix + key, Math.max(1, Math.round(ttlMs))))) === 1;
    },
    async delete(key) {
      await run(() => commands.del(prefix + key));
    },
    async swap(key, expected, value, ttlMs) {
      const args = [expected === undefined ? '0' : '1', expected ?? '', value, String(Math.max(1, Math.round(ttlMs)))];
      return (await run(() => commands.eval(SWAP_SCRIPT, { keys: [prefix + key], arguments: args }))) === 1;
    },
    async append(key, value, keep, ttlMs) {
      const list = prefix + key;
      // One transaction: the entry, the cap (LTRIM 1 0 empties the list when none is kept), the expiry.
      const [start, stop] = keep > 0 ? [-keep, -1] : [1, 0];
      await run(() =>
        commands
          .multi()
          .rPush(list, value)
          .lTrim(list, start, stop)
          .pExpire(list, Math.max(1, Math.round(ttlMs)))
          .exec(),
      );
    },
    async entries(key) {
      return await run(() => commands.lRange(prefix + key, 0, -1));
    },
    async publish(topic, message) {
      await run(() => commands.publish(prefix + topic, message));
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
          .catch((error: unknown) => logger?.error(`Cannot subscribe to ${channel}: ${redactSecrets(String(error), secrets)}`));
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    async ping() {
      try {
        return (await run(() => commands.ping())) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      health.close();
      // A graceful close waits for every pending answer, which a stalled Redis never sends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const graceful = Promise.allSettled([commands.close(), subscriber.close()]).then(() => true);
      const gave = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const closed = await Promise.race([graceful, gave]);
      clearTimeout(timer);
      if (!closed) destroyClients([commands, subscriber]);
    },
  };
}
