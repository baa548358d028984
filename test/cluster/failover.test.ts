/**
 * SIGKILL of one replica during 30 seconds of mixed load through nginx:
 * 2026-07-28 requests (raw, so no client cache hides them) and two legacy
 * sessions of the official v1 client. nginx retries on the next replica what
 * the dead one did not answer (`proxy_next_upstream error timeout
 * non_idempotent`, deploy/nginx/skillport.conf), a legacy session on the
 * killed replica (nginx keeps each on one) moves to another, which rebuilds
 * it from Redis, and the killed replica rejoins when restarted. No request
 * may fail and no session may be lost.
 */
import { Agent } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { Figures, writeSection } from '../reliability/_report.js';
import { type Cluster, startCluster, upstreamsOf } from './_cluster.js';

const LOAD_MS = 30_000;
const KILL_AT_MS = 10_000;
const RESTART_AT_MS = 20_000;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

const CALLS = [
  { method: 'prompts/list', params: {} },
  { method: 'prompts/get', params: { name: 'commit-message' } },
  { method: 'resources/read', params: { uri: 'skill://commit-message/SKILL.md' } },
] as const;

interface Tally {
  requests: number;
  errors: string[];
}

/** One 2026-07-28 client: requests in a loop until `stopAt`, each answered with a result or counted as an error. */
async function modernWorker(url: string, stopAt: number, tally: Tally): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; Date.now() < stopAt; i++) {
      const call = CALLS[i % CALLS.length] as (typeof CALLS)[number];
      const body = { jsonrpc: '2.0', id: i, method: call.method, params: modern({ ...call.params }) };
      tally.requests++;
      try {
        const answer = await httpSend(url, { headers: modernHeaders(body), body: JSON.stringify(body), agent, timeoutMs: 10_000 });
        const parsed = answer.status === 200 ? JSON.parse(answer.body) : undefined;
        if (!parsed?.result) tally.errors.push(`${call.method}: ${answer.status} ${answer.body.slice(0, 120)}`);
      } catch (error) {
        tally.errors.push(`${call.method}: ${(error as Error).message}`);
      }
    }
  } finally {
    agent.destroy();
  }
}

/** One legacy session: requests in a loop until `stopAt`; resolves with the session id it kept. */
async function legacyWorker(url: string, stopAt: number, tally: Tally): Promise<{ before: string | undefined; after: string | undefined; client: Client }> {
  // Without the transport's shared AbortSignal on each POST: node's fetch leaves a listener on it
  // per request, and thousands of requests would flood the output with MaxListeners warnings.
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: ((input: string | URL | Request, init?: RequestInit) => fetch(input, init?.method === 'POST' ? { ...init, signal: null } : init)) as typeof fetch,
  });
  const client = new Client({ name: 'failover-v1', version: '1.0.0' });
  await client.connect(transport);
  const before = transport.sessionId;
  for (let i = 0; Date.now() < stopAt; i++) {
    tally.requests++;
    try {
      if (i % 2 === 0) await client.listPrompts();
      else await client.getPrompt({ name: 'commit-message' });
    } catch (error) {
      tally.errors.push(`legacy: ${(error as Error).message}`);
    }
  }
  return { before, after: transport.sessionId, client };
}

describe('a replica killed under load', () => {
  it('loses no 2026-07-28 request and no legacy session', async () => {
    const modernTally: Tally = { requests: 0, errors: [] };
    const legacyTally: Tally = { requests: 0, errors: [] };
    const start = Date.now();
    const stopAt = start + LOAD_MS;
    const victim = cluster.replicas[1];
    if (!victim) throw new Error('no replica to kill');
    const chaos = (async () => {
      await new Promise((resolve) => setTimeout(resolve, KILL_AT_MS));
      await victim.kill();
      await new Promise((resolve) => setTimeout(resolve, RESTART_AT_MS - KILL_AT_MS));
      await victim.start();
      return Date.now() - start;
    })();
    const [, , legacyA, legacyB] = await Promise.all([
      modernWorker(cluster.nginx.url, stopAt, modernTally),
      modernWorker(cluster.nginx.url, stopAt, modernTally),
      legacyWorker(cluster.nginx.url, stopAt, legacyTally),
      legacyWorker(cluster.nginx.url, stopAt, legacyTally),
      modernWorker(cluster.nginx.url, stopAt, modernTally),
    ]);
    const rejoinedAt = await chaos;
    // The sessions are the ones they started with, and still answer.
    for (const worker of [legacyA, legacyB]) {
      expect(worker.after).toBe(worker.before);
      expect((await worker.client.listPrompts()).prompts.length).toBeGreaterThan(0);
      await worker.client.close();
    }
    const log = cluster.nginx.accessLog();
    const retried = log.filter((line) => line.includes(',')).length;
    const figures = new Figures();
    figures.add('Load', `${LOAD_MS / 1000} s: 3 raw 2026-07-28 clients, 2 legacy sessions (v1 client), through nginx to 3 replicas`);
    figures.add('Replica SIGKILLed / restarted and ready', `at ${KILL_AT_MS / 1000} s / at ${(rejoinedAt / 1000).toFixed(1)} s`);
    figures.add('2026-07-28 requests / errors', `${modernTally.requests} / ${modernTally.errors.length}`);
    figures.add(
      'Legacy session requests / errors / sessions lost',
      `${legacyTally.requests} / ${legacyTally.errors.length} / ${[legacyA, legacyB].filter((w) => w.after !== w.before).length}`,
    );
    figures.add('Requests nginx retried on another replica', retried);
    writeSection(
      'cluster-failover',
      `### Cluster: a replica killed under load (test:cluster)\n\nRequest counts and timings vary run to run; the errors must not.\n\n${figures.table()}`,
    );
    expect(modernTally.errors).toEqual([]);
    expect(legacyTally.errors).toEqual([]);
    expect(modernTally.requests).toBeGreaterThan(100);
    // The restarted replica took requests again.
    expect(upstreamsOf(log.slice(-200), 'POST')).toContain(`127.0.0.1:${victim.port}`);
  });
});
