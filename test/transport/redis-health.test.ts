/**
 * The health of the replicas' Redis (src/transport/redis-health.ts) in
 * isolation: the outage's cause logged once and without the URL's password,
 * its end once, and a command left unanswered past the timeout failing, after
 * which commands fail at once until a probe is answered. The same against a
 * real stalled and refusing redis-server: test/cluster/stalled-redis.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/index.js';
import { createRedisHealth, redactSecrets } from '../../src/transport/redis-health.js';

const PASSWORD = 'pa/ss:w%rd';
const SECRETS = [encodeURIComponent(PASSWORD), PASSWORD];

function recording(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (message: string, details?: unknown) =>
    lines.push(`${level}: ${message}${details === undefined ? '' : ` ${String(details)}`}`);
  return { logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') }, lines };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createRedisHealth', () => {
  it('logs the cause of an outage once, without the password, and its end once when every client is back', () => {
    const { logger, lines } = recording();
    const health = createRedisHealth({ where: '127.0.0.1:6379', secrets: SECRETS, timeoutMs: 1000, logger, probe: () => new Promise(() => {}) });
    health.failed('commands', new Error(`cannot reach redis://user:${encodeURIComponent(PASSWORD)}@127.0.0.1:6379 (${PASSWORD})`));
    health.failed('subscriber', new Error('Socket closed unexpectedly'));
    health.failed('commands', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    health.ready('commands');
    expect(lines).toHaveLength(1);
    health.ready('subscriber');
    expect(lines).toEqual([
      'warn: Redis at 127.0.0.1:6379 is out of reach (cannot reach redis://user:***@127.0.0.1:6379 (***)); requests that need it get 503 until it answers',
      expect.stringMatching(/^info: Redis at 127\.0\.0\.1:6379 answers again, after [\d.]+ s$/),
    ]);
    health.close();
  });

  it('names the causes of an error without a message of its own (every address refused)', () => {
    const { logger, lines } = recording();
    const health = createRedisHealth({ where: 'localhost:6379', secrets: [], timeoutMs: 1000, logger, probe: () => Promise.resolve() });
    health.failed('commands', new AggregateError([new Error('connect ECONNREFUSED ::1:6379'), new Error('connect ECONNREFUSED 127.0.0.1:6379')], ''));
    expect(lines[0]).toContain('(connect ECONNREFUSED ::1:6379; connect ECONNREFUSED 127.0.0.1:6379)');
    health.close();
  });

  it('fails a command unanswered within the timeout, then fails commands at once until a probe is answered', async () => {
    vi.useFakeTimers();
    const { logger, lines } = recording();
    let answerProbe!: () => void;
    const probe = vi.fn(() => new Promise<void>((resolve) => (answerProbe = resolve)));
    const health = createRedisHealth({ where: 'r:1', secrets: [], timeoutMs: 1000, logger, probe });
    const stalled = health.run(() => new Promise(() => {}));
    const failure = expect(stalled).rejects.toThrow('Redis at r:1 did not answer within 1000 ms');
    await vi.advanceTimersByTimeAsync(1000);
    await failure;
    expect(lines).toEqual(['warn: Redis at r:1 is out of reach (no answer within 1000 ms); requests that need it get 503 until it answers']);
    // Meanwhile nothing is sent: the command is not even called.
    const command = vi.fn(() => Promise.resolve('never'));
    await expect(health.run(command)).rejects.toThrow('Redis at r:1 does not answer');
    expect(command).not.toHaveBeenCalled();
    expect(probe).toHaveBeenCalledTimes(1);
    answerProbe();
    await vi.advanceTimersByTimeAsync(0);
    expect(lines[1]).toMatch(/^info: Redis at r:1 answers again/);
    expect(await health.run(() => Promise.resolve('OK'))).toBe('OK');
    health.close();
  });

  it('passes on a command’s own failure in Redis’s words, without the password', async () => {
    const health = createRedisHealth({ where: 'r:1', secrets: SECRETS, timeoutMs: 1000, probe: () => Promise.resolve() });
    await expect(health.run(() => Promise.reject(new Error(`WRONGPASS ${PASSWORD}`)))).rejects.toThrow('Redis at r:1: WRONGPASS ***');
    health.close();
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret, and leaves text without them as it is', () => {
    expect(redactSecrets(`a ${PASSWORD} b ${PASSWORD}`, SECRETS)).toBe('a *** b ***');
    expect(redactSecrets('nothing here', SECRETS)).toBe('nothing here');
    expect(redactSecrets('empty secrets are skipped', ['', ''])).toBe('empty secrets are skipped');
  });
});
