// Tracing (or metrics) off against on: the same build served twice, once
// without OTEL_* variables and once exporting every span (always_on) to a
// local OTLP receiver that reads and discards them, alternating in one run
// so the cost shows above the noise of a shared machine. With
// --what=metrics, "on" is metrics as `serve --metrics` has them instead.
//
//   npm run bench:tracing -- [--rounds=5] [--duration=2] [--workload=get] [--what=tracing|metrics]
//
// Each cell is the median of its rounds, on and off started afresh each
// round and taking turns to go first. The receiver
// (bench/servers/otlp-sink.mjs) runs in a process of its own, as a collector
// does (against one in the load generator's process it measured the same).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERA_LABEL, ERAS, flag } from './config.mjs';
import { freshRounds, timeCell } from './lib/cells.mjs';
import { startHttpServer, stopChild } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';
import { WORKLOADS } from './lib/wire.mjs';

const HEAD = resolve(fileURLToPath(import.meta.url), '../..');
const rounds = Number(flag('rounds', '5'));
const duration = Number(flag('duration', '2'));
const workload = WORKLOADS.find((w) => w.id === flag('workload', 'get'));
if (!workload) throw new Error(`--workload must be one of ${WORKLOADS.map((w) => w.id).join(', ')}`);
const what = flag('what', 'tracing');
if (what !== 'tracing' && what !== 'metrics') throw new Error('--what must be tracing or metrics');

const sink = await startHttpServer({ script: join(HEAD, 'bench/servers/otlp-sink.mjs') });
const endpoint = sink.url;

const script = join(HEAD, 'bench/servers/skillport.mjs');
// The servers inherit this environment: neither may see an OTEL_* variable of the caller's.
for (const key of Object.keys(process.env)) if (key.startsWith('OTEL_')) delete process.env[key];
const contenders = {
  off: { script },
  on: { script, env: what === 'tracing' ? { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' } : { SKILLPORT_BENCH_METRICS: '1' } },
};
let received = { posts: 0, bytes: 0 };
const lines = ['| Cell | off req/s | on req/s | on ÷ off | off CPU µs/req | on CPU µs/req |', '|---|---:|---:|---:|---:|---:|'];
try {
  const cells = {};
  await freshRounds(rounds, contenders, ERAS, async (servers, sessions, round) => {
    for (const era of ERAS) {
      for (const name of round % 2 ? ['on', 'off'] : ['off', 'on']) {
        const sample = await timeCell(servers, sessions, name, { workload, era, duration });
        (cells[era] ??= { off: [], on: [] })[name].push(sample);
      }
    }
  });
  for (const [era, { off, on }] of Object.entries(cells)) {
    const [a, b] = [median(off.map((s) => s.rps)), median(on.map((s) => s.rps))];
    const cpu = (samples) => median(samples.map((s) => s.cpuUs)).toFixed(1);
    lines.push(`| HTTP ${workload.id}, ${ERA_LABEL[era]} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}× | ${cpu(off)} | ${cpu(on)} |`);
  }
  received = await (await fetch(`${endpoint}/received`)).json();
} finally {
  await stopChild(sink.child);
}
console.log(
  `${workload.label}, ${what}: ${rounds} round(s) of ${duration} s per cell, 16 connections; spans received: ${received.posts} POSTs, ${received.bytes} bytes\n`,
);
console.log(lines.join('\n'));
