// stdio: after a warm-up of sequential calls, sequential prompts/get round
// trips (each waits for its answer), then a pipelined batch of the same
// number (written at once) that warms the pipelined path and is not timed,
// then four times as many pipelined, timed; raw newline-delimited JSON-RPC
// from the parent. Ratios per round against the floor on the same revision.
import { performance } from 'node:perf_hooks';
import { cellKey, ERA_LABEL, STDIO_SERVERS } from '../config.mjs';
import { cpuMs } from '../lib/proc.mjs';
import { median, percentile } from '../lib/stats.mjs';
import { spawnStdio } from '../lib/stdio-client.mjs';
import { checkResult, WORKLOADS } from '../lib/wire.mjs';

const GET = WORKLOADS.find((w) => w.id === 'get');
const PARAMS = GET.params(0);

export default async function stdio({ cfg, rel, log, sleep, timeLeft, unavailable }) {
  log('\n== stdio (raw newline-delimited JSON-RPC) ==');
  const runs = {};
  const pairs = STDIO_SERVERS.flatMap((def) => def.eras.map((era) => ({ def, era })));
  const n = cfg.stdioN;
  // The first pipelined batch of a process is its code for many lines at once being compiled:
  // 11.0 µs of skillport's CPU per request against 4.3 in the batch after it, 3.5 against 1.6
  // for the floor (5,000 each, 2025-11-25). Timed alone, 5,000 requests are 20 ms of the
  // floor's work, and the ratio was that compilation's. So one batch warms, and a larger one is timed.
  const pipeN = 4 * n;
  for (let round = 0; round < cfg.rounds; round++) {
    if (!timeLeft(`stdio round ${round + 1}`)) break;
    for (const { def, era } of pairs.map((_, i) => pairs[(i + round) % pairs.length])) {
      const key = cellKey(def.id, era);
      const client = spawnStdio(process.execPath, [rel(def.script), 'stdio']);
      try {
        await client.handshake(era);
        const first = await client.request('prompts/get', PARAMS, { era });
        const problem = checkResult(GET, first);
        if (problem) throw new Error(`prompts/get: ${problem}`);
        const call = client.caller('prompts/get', PARAMS, { era });
        // Each round is a new process: warmed up for as long as an HTTP cell's server (cfg.warmup
        // seconds), so both measure code the JIT has optimized, not a process still compiling.
        for (const until = performance.now() + cfg.warmup * 1000; performance.now() < until; ) await call();
        const lat = new Float64Array(n);
        let cpu0 = cpuMs(client.pid);
        const t0 = performance.now();
        const seq = (async () => {
          for (let i = 0; i < n; i++) {
            const s = performance.now();
            await call();
            lat[i] = performance.now() - s;
          }
        })();
        const exited = client.exit.then(() => Promise.reject(new Error(`exited: ${client.stderr().slice(-300)}`)));
        await Promise.race([seq, exited, sleep(120_000).then(() => Promise.reject(new Error('sequential loop timed out')))]);
        const seqMs = performance.now() - t0;
        const seqCpuUs = ((cpuMs(client.pid) - cpu0) * 1000) / n;
        await client.pipelined(n, 'prompts/get', PARAMS, { era });
        const timed = client.batch(pipeN, 'prompts/get', PARAMS, { era });
        cpu0 = cpuMs(client.pid);
        const t1 = performance.now();
        await timed.send();
        const pipeMs = performance.now() - t1;
        const pipeCpuUs = ((cpuMs(client.pid) - cpu0) * 1000) / pipeN;
        const sample = {
          round,
          seqRps: (n / seqMs) * 1000,
          p50: percentile(lat, 50),
          p99: percentile(lat, 99),
          pipeRps: (pipeN / pipeMs) * 1000,
          seqCpuUs,
          pipeCpuUs,
        };
        (runs[key] ??= []).push(sample);
        log(
          `  round ${round + 1} ${key.padEnd(18)} sequential ${Math.round(sample.seqRps)} rt/s p99 ${sample.p99.toFixed(3)} ms; pipelined ${Math.round(sample.pipeRps)} req/s`,
        );
      } catch (error) {
        if (round === 0) unavailable(`stdio: ${def.label} ${ERA_LABEL[era]}`, error.message);
        log(`  ${key}: failed: ${error.message.slice(0, 200)}`);
      } finally {
        await client.close();
      }
    }
  }
  const table = {};
  const byRound = (k) => {
    const list = [];
    for (const r of runs[k] ?? []) list[r.round] = r;
    return list;
  };
  for (const { def, era } of pairs) {
    const key = cellKey(def.id, era);
    const mine = runs[key];
    if (!mine?.length) continue;
    const floor = byRound(cellKey('floor', era));
    const sp = byRound(cellKey('skillport', era));
    const paired = (other, f) => median(mine.map((r) => (other[r.round] ? f(r, other[r.round]) : Number.NaN)));
    table[key] = {
      label: def.label,
      id: def.id,
      era,
      peer: Boolean(def.peer),
      seqRps: median(mine.map((r) => r.seqRps)),
      p50: median(mine.map((r) => r.p50)),
      p99: median(mine.map((r) => r.p99)),
      pipeRps: median(mine.map((r) => r.pipeRps)),
      seqCpuUs: median(mine.map((r) => r.seqCpuUs)),
      pipeCpuUs: median(mine.map((r) => r.pipeCpuUs)),
      seqToFloor: paired(floor, (r, o) => r.seqRps / o.seqRps),
      pipeToFloor: paired(floor, (r, o) => r.pipeRps / o.pipeRps),
      seqToSkillport: paired(sp, (r, o) => r.seqRps / o.seqRps),
      pipeToSkillport: paired(sp, (r, o) => r.pipeRps / o.pipeRps),
      samples: mine,
    };
  }
  return { n, pipeN, warmup: cfg.warmup, table };
}
