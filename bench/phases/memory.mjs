// Resident memory over a sustained run: a fresh server, pre-filled with
// abandoned legacy sessions, runs prompts/get at 8 connections while four
// more clients keep opening legacy sessions (half closed with DELETE, half
// abandoned). RSS every 250 ms from /proc, the V8 heap from the server's own
// report (BENCH_MEM_LOG).
import { performance } from 'node:perf_hooks';
import { HTTP_SERVERS } from '../config.mjs';
import { runLoad } from '../lib/http-load.mjs';
import { startHttpServer } from '../lib/proc.mjs';
import { median } from '../lib/stats.mjs';
import { BASE_HEADERS, openEra, post, requestBody, requestHeaders, WORKLOADS } from '../lib/wire.mjs';

const GET = WORKLOADS.find((w) => w.id === 'get');

async function sustained(def, { loadEra, seconds, prefill }, { rel, sleep }) {
  const s = await startHttpServer({ script: rel(def.script), variant: def.variant, env: { BENCH_MEM_LOG: '1' } });
  const heap = [];
  let lineBuf = '';
  s.child.stderr.on('data', (d) => {
    lineBuf += d;
    let at;
    while ((at = lineBuf.indexOf('\n')) !== -1) {
      const m = /^MEM (\d+) (\d+)/.exec(lineBuf.slice(0, at));
      lineBuf = lineBuf.slice(at + 1);
      if (m) heap.push({ t: performance.now(), used: Number(m[1]), total: Number(m[2]) });
    }
  });
  let prefilled = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (prefilled < prefill) {
        prefilled++;
        await openEra(s.url, 'legacy').catch(() => {});
      }
    }),
  );
  const samples = [];
  let sessions = 0;
  let deleted = 0;
  let churnErrors = 0;
  let stop = false;
  const sampler = setInterval(() => samples.push({ t: performance.now(), rss: s.rss() }), 250);
  const t0 = performance.now();
  const churner = async () => {
    while (!stop) {
      try {
        const session = await openEra(s.url, 'legacy');
        await post(s.url, requestBody('legacy', GET.method, GET.params(1), 1), requestHeaders('legacy', session, GET));
        sessions++;
        if (sessions % 2 === 0 && session['mcp-session-id']) {
          await fetch(s.url, { method: 'DELETE', headers: { ...BASE_HEADERS, ...session } }).then((r) => r.arrayBuffer());
          deleted++;
        }
      } catch {
        churnErrors++;
        await sleep(20);
      }
    }
  };
  const churn = Promise.all([churner(), churner(), churner(), churner()]);
  let load;
  try {
    load = await runLoad({ url: s.url, era: loadEra, session: await openEra(s.url, loadEra), workload: GET, connections: 8, duration: seconds });
  } finally {
    stop = true;
    await churn;
    clearInterval(sampler);
  }
  await sleep(500);
  const settled = s.rss();
  await s.stop();
  // The first half is warm-up (heap growth, JIT). The second half is judged:
  // its start (45-55% of the run) against its end (last tenth) and its maximum.
  const valid = samples.filter((x) => Number.isFinite(x.rss));
  const at = (x) => (x.t - t0) / (seconds * 1000);
  const mid = (xs) => xs.filter((x) => at(x) >= 0.45 && at(x) <= 0.55);
  const tail = (xs) => xs.slice(-Math.max(1, Math.floor(xs.length / 10)));
  const second = (xs) => xs.filter((x) => at(x) >= 0.45);
  const base = median(mid(valid).map((x) => x.rss));
  const end = median(tail(valid).map((x) => x.rss));
  const max = Math.max(...second(valid).map((x) => x.rss));
  const heapStart = median(mid(heap).map((x) => x.used));
  const heapEnd = median(tail(heap).map((x) => x.used));
  return {
    id: def.id,
    label: def.label,
    seconds,
    prefilled,
    loadEra,
    rps: load.rps,
    sessions,
    deleted,
    churnErrors,
    base,
    end,
    max,
    settled,
    growth: (end - base) / base,
    maxGrowth: (max - base) / base,
    heapStart,
    heapEnd,
    heapMax: Math.max(...second(heap).map((x) => x.used)),
    heapGrowth: (heapEnd - heapStart) / heapStart,
    // Every 2 s.
    series: valid.filter((_, i) => i % 8 === 0).map((x) => x.rss),
    heapSeries: heap.filter((_, i) => i % 8 === 0).map((x) => x.used),
  };
}

export default async function memory(ctx) {
  const { cfg, quick, log, timeLeft, unavailable } = ctx;
  log('\n== resident memory over a sustained run ==');
  const byId = (id) => HTTP_SERVERS.find((d) => d.id === id);
  const runs = [
    { def: byId('skillport'), loadEra: 'modern', seconds: cfg.sustainSec, prefill: 1100 },
    // SDK v1 stateful for comparison: shorter, no pre-fill.
    { def: byId('v1-stateful'), loadEra: 'legacy', seconds: Math.ceil(cfg.sustainSec / 3), prefill: 0 },
  ];
  const out = {};
  for (const run of quick ? runs.slice(0, 1) : runs) {
    if (!timeLeft(`memory ${run.def.label}`)) break;
    try {
      const r = await sustained(run.def, run, ctx);
      out[r.id] = r;
      log(
        `  ${r.label}: RSS ${(r.base / 1048576).toFixed(1)} -> ${(r.end / 1048576).toFixed(1)} MB (${(r.growth * 100).toFixed(1)}%), ${r.sessions} legacy sessions (${r.deleted} deleted), ${Math.round(r.rps)} req/s alongside`,
      );
    } catch (error) {
      unavailable(`memory: ${run.def.label}`, error.message);
    }
  }
  return { runs: out };
}
