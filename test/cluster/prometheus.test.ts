/**
 * A real Prometheus (Debian's `prometheus`) scrapes two replicas'
 * `--metrics` listeners, started from a generated config on loopback;
 * after a known mix of requests the operation histogram and the per-skill
 * counts read back through Prometheus's HTTP API are exactly that mix,
 * summed over both replicas as a dashboard would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';
import { createReplica, freePort, type RedisServer, type Replica, startRedis, tempDir, until } from './_processes.js';

const PROMETHEUS = '/usr/bin/prometheus';
const FOLDER = `${ROOT}test/fixtures/skills/valid`;
const dir = tempDir('skillport-prometheus-');
let redis: RedisServer;
const replicas: Array<Replica & { metricsPort: number }> = [];
let prometheus: ChildProcess | undefined;
let api: string;

async function startPrometheus(targets: string[]): Promise<void> {
  const port = await freePort();
  api = `http://127.0.0.1:${port}/api/v1`;
  const config = join(dir.path, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: skillport',
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir.path, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await until('prometheus to be ready', async () => (await fetch(`http://127.0.0.1:${port}/-/ready`)).ok, 30_000);
}

/** One instant query's samples, as label sets and numbers. */
async function query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>> {
  const response = await fetch(`${api}/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

async function scalar(promql: string): Promise<number | undefined> {
  return (await query(promql))[0]?.value;
}

beforeAll(async () => {
  if (!existsSync(PROMETHEUS)) throw new Error(`${PROMETHEUS} is missing: apt-get install prometheus (.ci/run does)`);
  redis = await startRedis(dir.path);
  for (let i = 0; i < 2; i++) {
    const metricsPort = await freePort();
    const replica = await createReplica({ source: FOLDER, redis: redis.url, args: ['--metrics', `127.0.0.1:${metricsPort}`] });
    await replica.start();
    replicas.push(Object.assign(replica, { metricsPort }));
  }
  await startPrometheus(replicas.map((r) => `127.0.0.1:${r.metricsPort}`));
  // The known mix: on each replica, three prompts/get of greeting, one load_skill of pdf-tools, one unknown prompt.
  for (const replica of replicas) {
    const client = new Client({ name: 'prometheus-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(replica.url)));
    for (let i = 0; i < 3; i++) await client.getPrompt({ name: 'greeting', arguments: { who: `n${i}` } });
    await client.callTool({ name: 'load_skill', arguments: { name: 'pdf-tools' } });
    await expect(client.getPrompt({ name: 'made-up-name', arguments: {} })).rejects.toThrow();
    await client.close();
  }
}, 90_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.stop();
  dir.cleanup();
});

describe('Prometheus scraping --metrics', () => {
  it('reads back the operation histogram and the per-skill uses of a known mix, summed over replicas', async () => {
    const gets = 'sum(mcp_server_operation_duration_seconds_count{mcp_method_name="prompts/get",gen_ai_prompt_name="greeting"})';
    // Bounded: scrapes every second; the last one must have seen the whole mix on both replicas.
    await until('prometheus to scrape the whole mix', async () => (await scalar(gets)) === 6 && (await scalar('count(up == 1)')) === 2, 30_000);
    expect(await scalar(gets)).toBe(6);
    expect(await scalar('sum(mcp_server_operation_duration_seconds_count{mcp_method_name="prompts/get",error_type="-32602"})')).toBe(2);
    expect(await scalar('sum(mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",gen_ai_tool_name="load_skill",le="+Inf"})')).toBe(2);
    expect(await scalar('sum(skillport_skill_uses_total{skill="greeting",surface="prompt"})')).toBe(6);
    expect(await scalar('sum(skillport_skill_uses_total{skill="pdf-tools",surface="load_skill"})')).toBe(2);
    // Every skill served is there, used or not; the made-up name is in no series.
    expect(await scalar('count(skillport_skill_info{instance=~".*"}) / 2')).toBeGreaterThanOrEqual(4);
    expect(await query('{gen_ai_prompt_name="made-up-name"}')).toEqual([]);
  });
});
