// Where skillport's cost per request sits: the strict floor, skillport's
// transport ends alone (bench/servers/adapter.mjs: the node:http adapter and
// the JSON-RPC layer around answers computed in a few lines), and skillport
// as the README teaches, served side by side, started afresh each round.
// adapter − floor is what the transport ends cost; skillport − adapter is
// what the layers between them cost (guards, routes, sessions, the resolver,
// the connection, the registry and the engine).
//
//   npm run build && node bench/split.mjs [--rounds=5] [--duration=2] [--cells=ping:legacy,get:legacy,get:modern]
//
// ping is 2025-11-25's (2026-07-28 has none): the smallest request there is.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERA_LABEL, ERAS, flag } from './config.mjs';
import { freshRounds, timeCell } from './lib/cells.mjs';
import { median } from './lib/stats.mjs';
import { WORKLOADS } from './lib/wire.mjs';

const HEAD = resolve(fileURLToPath(import.meta.url), '../..');
const rounds = Number(flag('rounds', '5'));
const duration = Number(flag('duration', '2'));
const PING = { id: 'ping', label: 'ping', method: 'ping', params: () => undefined };
const cells = flag('cells', 'ping:legacy,get:legacy,get:modern,complete:legacy,complete:modern')
  .split(',')
  .map((cell) => {
    const [id, era] = cell.split(':');
    const workload = id === 'ping' ? PING : WORKLOADS.find((w) => w.id === id);
    if (!workload || !ERAS.includes(era) || (id === 'ping' && era !== 'legacy')) throw new Error(`unknown cell ${cell}`);
    return { workload, era };
  });
const CONTENDERS = { floor: 'bench/servers/floor.mjs', adapter: 'bench/servers/adapter.mjs', skillport: 'bench/servers/skillport.mjs' };

const samples = {};
const contenders = Object.fromEntries(Object.entries(CONTENDERS).map(([name, script]) => [name, { script: join(HEAD, script) }]));
await freshRounds(rounds, contenders, ERAS, async (servers, sessions, round) => {
  for (const { workload, era } of cells) {
    const order = Object.keys(servers);
    // Each contender goes first in turn.
    for (let k = 0; k < round % order.length; k++) order.push(order.shift());
    for (const name of order) {
      const sample = await timeCell(servers, sessions, name, { workload, era, duration });
      (samples[`${workload.id} ${era} ${name}`] ??= []).push(sample);
    }
  }
});

const lines = [
  `${rounds} round(s) of ${duration} s per cell, 16 connections; medians. CPU: the server process's, all threads, per request.`,
  '',
  '| Cell | floor req/s | adapter req/s | skillport req/s | floor CPU µs | adapter CPU µs | skillport CPU µs | transport ends (adapter − floor) | layers between (skillport − adapter) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const { workload, era } of cells) {
  const of = (name, key) => median(samples[`${workload.id} ${era} ${name}`].map((s) => s[key]));
  const [floor, adapter, skillport] = ['floor', 'adapter', 'skillport'].map((name) => ({ rps: of(name, 'rps'), cpu: of(name, 'cpuUs') }));
  lines.push(
    `| ${workload.label}, ${ERA_LABEL[era]} | ${floor.rps.toFixed(0)} | ${adapter.rps.toFixed(0)} | ${skillport.rps.toFixed(0)} | ${floor.cpu.toFixed(1)} | ${adapter.cpu.toFixed(1)} | ${skillport.cpu.toFixed(1)} | ${(adapter.cpu - floor.cpu).toFixed(1)} | ${(skillport.cpu - adapter.cpu).toFixed(1)} |`,
  );
}
console.log(lines.join('\n'));
