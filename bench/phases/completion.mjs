// completion/complete in-process over 100,000 values: server.connect(peer)
// .receive(message) on each revision, and the completion index alone.
import { performance } from 'node:perf_hooks';
import { completionValues } from '../lib/promptset.mjs';
import { median, percentile } from '../lib/stats.mjs';
import { META } from '../lib/wire.mjs';

export default async function completion({ cfg, rel, log }) {
  log('\n== completion/complete in-process (100,000 values) ==');
  const { createServer, definePrompt, staticPrompts, createCompletionIndex } = await import(rel('dist/index.js'));
  const values = completionValues();
  const server = createServer({
    name: 'bench',
    version: '1.0.0',
    prompts: staticPrompts([definePrompt({ name: 'lookup', arguments: [{ name: 'key', required: true, complete: values }], get: ({ key }) => key })]),
  });
  // All 676 two-letter prefixes (each matches ~150 values).
  const prefixes = [];
  for (let a = 0; a < 26; a++) for (let b = 0; b < 26; b++) prefixes.push(String.fromCharCode(97 + a, 97 + b));
  const summary = (lat) => ({ p50: percentile(lat, 50), p99: percentile(lat, 99), max: percentile(lat, 100) });

  async function viaConnection(era, partials, n, warmup = 1000) {
    const conn = server.connect({ send() {} });
    if (era === 'legacy') {
      await conn.receive({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
      });
      await conn.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    const lat = new Float64Array(n);
    for (let i = -warmup; i < n; i++) {
      const params = { ref: { type: 'ref/prompt', name: 'lookup' }, argument: { name: 'key', value: partials[(i + warmup) % partials.length] } };
      if (era === 'modern') params._meta = META;
      const t0 = performance.now();
      const res = await conn.receive({ jsonrpc: '2.0', id: i + 2000, method: 'completion/complete', params });
      const dt = performance.now() - t0;
      if (!res?.result) throw new Error(`completion failed: ${JSON.stringify(res).slice(0, 200)}`);
      if (i >= 0) lat[i] = dt;
    }
    conn.close('disconnect');
    return summary(lat);
  }
  // Built once: a fresh 100,000-value index per round would leave major-GC
  // work that lands in the next round's measurement.
  const t0 = performance.now();
  const index = createCompletionIndex(values);
  const build = performance.now() - t0;
  function direct(partials, n) {
    const lat = new Float64Array(n);
    for (let i = -1000; i < n; i++) {
      const s = performance.now();
      index.complete(partials[(i + 1000) % partials.length]);
      if (i >= 0) lat[i] = performance.now() - s;
    }
    return summary(lat);
  }
  // Rounds, interleaved, median of each percentile; the order rotates so GC
  // debt left by one path does not always land on the same next one.
  const rounds = cfg.completionRounds;
  const per = Math.ceil(cfg.completionN / rounds);
  const acc = { modern: [], legacy: [], index: [], miss: [] };
  const jobs = [
    async () => acc.modern.push(await viaConnection('modern', prefixes, per)),
    async () => acc.legacy.push(await viaConnection('legacy', prefixes, per)),
    async () => acc.index.push(direct(prefixes, per)),
  ];
  for (let r = 0; r < rounds; r++) for (let j = 0; j < jobs.length; j++) await jobs[(j + r) % jobs.length]();
  // Prefixes no value starts with.
  for (let r = 0; r < rounds; r++) acc.miss.push(await viaConnection('modern', ['q9', 'z7', 'x1'], 30, 3));
  server.close();
  const med = (list) => Object.fromEntries(Object.keys(list[0]).map((k) => [k, median(list.map((x) => x[k]))]));
  const out = {
    n: per * rounds,
    rounds,
    prefixes: prefixes.length,
    modern: med(acc.modern),
    legacy: med(acc.legacy),
    index: { ...med(acc.index), build },
    miss: med(acc.miss),
  };
  log(
    `  p99: 2026-07-28 ${out.modern.p99.toFixed(3)} ms, 2025-11-25 ${out.legacy.p99.toFixed(3)} ms, index ${out.index.p99.toFixed(3)} ms, no match ${out.miss.p99.toFixed(3)} ms`,
  );
  return out;
}
