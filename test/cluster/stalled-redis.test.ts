/**
 * A Redis that stalls or refuses, under two `serve --http --redis` replicas
 * (the built CLI at `--log-level debug`, with a password in the Redis URL).
 * Stalled (SIGSTOP: its socket stays open and nothing answers), a request
 * that needs Redis is answered 503 with `Retry-After` while Redis is still
 * stopped: the test resumes Redis only after its assertions (or after 30 s,
 * so a failing run does not leave it stopped), and each request has a hang
 * guard shorter than that. Refused (stopped, then started again on its
 * port), requests get 503 at once. Either way each replica logs the cause
 * once per outage and the end once, and never the password.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpAnswer, httpSend } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { createReplica, freePort, type RedisServer, type Replica, startRedis, tempDir, until } from './_processes.js';

const PASSWORD = 'cluster-Secret/with%odd:chars';
const VERSION = '2025-11-25';
/** Longer than any answer may take here, shorter than the stall. */
const HANG_GUARD_MS = 20_000;
const STALL_MS = 30_000;

let dir: ReturnType<typeof tempDir>;
let redis: RedisServer;
let replicas: Replica[] = [];
/** Each replica's metrics (`--metrics`), where the outage shows as well as in the log. */
const metricsPorts: number[] = [];

beforeAll(async () => {
  dir = tempDir('skillport-stalled-redis-');
  redis = await startRedis(dir.path, { password: PASSWORD });
  for (let i = 0; i < 2; i++) {
    metricsPorts.push(await freePort());
    const metrics = ['--metrics', `127.0.0.1:${metricsPorts[i]}`];
    const replica = await createReplica({ source: `${ROOT}test/fixtures/skills/valid`, redis: redis.url, args: ['--log-level', 'debug', ...metrics] });
    replicas.push(replica);
    await replica.start();
  }
});
afterAll(async () => {
  for (const replica of replicas) await replica.stop();
  replicas = [];
  await redis?.stop();
  dir?.cleanup();
});

function send(replica: Replica, body: unknown, session?: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (session) Object.assign(headers, { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': VERSION });
  return httpSend(replica.url, { headers, body: JSON.stringify(body), agent: false, timeoutMs: HANG_GUARD_MS });
}

const initialize = (replica: Replica) =>
  send(replica, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'stall', version: '1' } },
  });
const ping = (replica: Replica, session: string) => send(replica, { jsonrpc: '2.0', id: 2, method: 'ping' }, session);

/** The lines a replica logged at warn or error since `from`. */
const warnings = (replica: Replica, from: number) => replica.log.slice(from).filter((line) => / (warn|error): /.test(line));

/** One sample of replica `i`'s metrics, or undefined. */
async function metric(i: number, series: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPorts[i]}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

function expectUnavailable(answer: HttpAnswer): void {
  expect(answer.status, answer.body).toBe(503);
  expect(answer.headers['retry-after']).toMatch(/^\d+$/);
}

describe('a stalled Redis (SIGSTOP)', () => {
  it('answers initialize and another replica’s session requests 503 with Retry-After before Redis resumes, and logs the stall and its end once each', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const opened = await initialize(a);
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    const marks = replicas.map((r) => r.log.length);

    redis.pause();
    let resumed = false;
    const resume = (): void => {
      if (resumed) return;
      resumed = true;
      redis.resume();
    };
    const safety = setTimeout(resume, STALL_MS);
    try {
      // A new session cannot be shared: not opened.
      expectUnavailable(await initialize(a));
      // b does not hold the session: it must read the record.
      expectUnavailable(await ping(b, session));
      expectUnavailable(await ping(b, session));
      const ready = await httpSend(b.url.replace(/\/mcp$/, '/readyz'), { method: 'GET', agent: false, timeoutMs: HANG_GUARD_MS });
      expect(ready.status).toBe(503);
      // The metrics say so too: Redis down, and the refusals counted by their reason.
      expect(await metric(1, 'skillport_dependency_up{dependency="redis"}')).toBe(0);
      expect(await metric(1, 'skillport_http_refusals_total{reason="shared_state"}')).toBe(2);
      // All of it while Redis was still stopped.
      expect(resumed).toBe(false);
    } finally {
      clearTimeout(safety);
      resume();
    }

    // The session outlived the stall, on the replica that had to rebuild it.
    await until('the session to answer at b again', async () => (await ping(b, session)).status === 200, HANG_GUARD_MS);
    await until('both replicas to log the end of the outage', () => replicas.every((r, i) => r.log.slice(marks[i]).some((l) => l.includes('answers again'))));
    for (const [i, replica] of replicas.entries()) {
      const logged = warnings(replica, marks[i] as number);
      expect(logged, logged.join('\n')).toHaveLength(1);
      expect(logged[0]).toMatch(/^skillport warn: Redis at 127\.0\.0\.1:\d+ is out of reach \(no answer within 1000 ms\)/);
      expect(replica.log.slice(marks[i]).filter((l) => l.includes('answers again'))).toHaveLength(1);
    }
    expect(await metric(1, 'skillport_dependency_up{dependency="redis"}')).toBe(1);
    expect(await metric(1, 'skillport_dependency_outages_total{dependency="redis"}')).toBe(1);
  });
});

describe('a Redis that refuses connections', () => {
  it('answers 503 with Retry-After at once, and logs the cause once and the end once', async () => {
    const b = replicas[1] as Replica;
    const mark = b.log.length;
    await redis.stop();
    for (let i = 0; i < 3; i++) expectUnavailable(await ping(b, `00000000-0000-4000-8000-00000000000${i}`));
    expectUnavailable(await initialize(b));
    redis = await startRedis(join(dir.path), { port: redis.port, password: PASSWORD });
    await until('b to log the end of the outage', () => b.log.slice(mark).some((l) => l.includes('answers again')), HANG_GUARD_MS);
    const logged = warnings(b, mark);
    expect(logged, logged.join('\n')).toHaveLength(1);
    // The cause, in Redis's or the socket's words: never empty.
    expect(logged[0]).toMatch(/^skillport warn: Redis at 127\.0\.0\.1:\d+ is out of reach \([^)]+\)/);
    expect(b.log.slice(mark).filter((l) => l.includes('answers again'))).toHaveLength(1);
    expect((await initialize(b)).status).toBe(200);
  });

  it('never logs the password of the Redis URL', () => {
    for (const replica of replicas) {
      const text = replica.log.join('\n');
      for (const secret of [PASSWORD, encodeURIComponent(PASSWORD)]) expect(text).not.toContain(secret);
    }
  });
});
