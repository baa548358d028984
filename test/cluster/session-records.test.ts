/**
 * What a legacy session keeps of its client's `initialize`, under a real
 * `serve --http --redis` replica (a small V8 heap) and a real redis-server:
 * rounds of sessions opened with 3.9 MB of capabilities and a 100 KB client
 * name each. The replica's RSS stays flat round after round, Redis's
 * `used_memory` grows by no more than the handshake budget per session
 * (plus a slack for Redis's own bookkeeping), and each record holds only
 * what the server uses of the handshake.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDSHAKE_BUDGET_BYTES } from '../../src/server/handshake.js';
import { httpSend } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { MiB, memoryFlat, rssOf } from '../reliability/_harness.js';
import { createReplica, type RedisServer, type Replica, startRedis, tempDir } from './_processes.js';

const ROUNDS = 6;
const PER_ROUND = 8;
const PAD_BYTES = 3_900_000;
const VERSION = '2025-11-25';

let dir: ReturnType<typeof tempDir>;
let redis: RedisServer;
let replica: Replica;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  dir = tempDir('skillport-session-records-');
  redis = await startRedis(dir.path);
  replica = await createReplica({ source: `${ROOT}test/fixtures/skills/valid`, redis: redis.url, env: { NODE_OPTIONS: '--max-old-space-size=128' } });
  await replica.start();
  client = createClient({ url: redis.url });
  await client.connect();
});
afterAll(async () => {
  await client?.close();
  await replica?.stop();
  await redis?.stop();
  dir?.cleanup();
});

async function usedMemory(): Promise<number> {
  const info = await client.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}

describe('session records', () => {
  it('keep at most the handshake budget of an initialize carrying megabytes, in the replica and in Redis', async () => {
    const pad = 'x'.repeat(PAD_BYTES);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: VERSION,
        capabilities: { elicitation: { form: { settings: 'kept out' } }, sampling: {}, roots: { listChanged: true }, experimental: { pad: { pad } } },
        clientInfo: { name: `big-${'n'.repeat(100_000)}`, version: '1.0.0', description: 'd'.repeat(1000) },
      },
    });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const before = await usedMemory();
    const ids: string[] = [];
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) {
        const opened = await httpSend(replica.url, { headers, body, agent: false, timeoutMs: 30_000 });
        expect(opened.status, opened.body.slice(0, 300)).toBe(200);
        ids.push(opened.headers['mcp-session-id'] as string);
      }
      samples.push(rssOf(replica.pid as number));
    }
    const sessions = ROUNDS * PER_ROUND;
    const growth = (await usedMemory()) - before;
    // Each record: the handshake budget and a few fixed fields; Redis adds its own per key.
    expect(growth, `Redis grew ${growth} bytes for ${sessions} sessions`).toBeLessThan(sessions * (HANDSHAKE_BUDGET_BYTES + 1024) + MiB);
    expect(memoryFlat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);

    const record = JSON.parse((await client.get(`skillport:session:${ids[0]}`)) as string);
    const handshake = { clientCapabilities: record.clientCapabilities, clientInfo: record.clientInfo };
    expect(Buffer.byteLength(JSON.stringify(handshake))).toBeLessThanOrEqual(HANDSHAKE_BUDGET_BYTES);
    // What the server uses is kept: the capabilities it may ask through, the client's name (cut) and version.
    expect(record.clientCapabilities).toEqual({ elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } });
    expect(record.clientInfo.version).toBe('1.0.0');
    expect(record.clientInfo.name).toMatch(/^big-n+$/);
    expect(record.clientInfo.description).toBeUndefined();
  });
});
