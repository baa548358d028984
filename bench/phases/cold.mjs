// Cold start: spawn over stdio, initialize, initialized, prompts/list; the
// clock stops at the list result. RSS is read from /proc right after it.
import { performance } from 'node:perf_hooks';
import { COLD_SERVERS } from '../config.mjs';
import { cpuMs, peakRss, rss } from '../lib/proc.mjs';
import { median } from '../lib/stats.mjs';
import { spawnStdio } from '../lib/stdio-client.mjs';

export async function coldOnce(argv, env, cwd) {
  const client = spawnStdio(process.execPath, argv, { env, cwd });
  try {
    await client.handshake('legacy');
    const list = await client.request('prompts/list', undefined, { timeoutMs: 60_000 });
    const ms = performance.now() - client.t0;
    if (!list.result?.prompts) throw new Error(`prompts/list: ${JSON.stringify(list.error ?? list).slice(0, 200)}`);
    return {
      ms,
      cpuMs: cpuMs(client.pid),
      rss: rss(client.pid),
      peak: peakRss(client.pid),
      listed: list.result.prompts.length,
      paged: Boolean(list.result.nextCursor),
    };
  } finally {
    await client.close();
  }
}

export default async function cold({ cfg, root, rel, log, timeLeft, note, unavailable, skills }) {
  log('\n== cold start to first prompts/list (stdio) ==');
  const folders = Object.fromEntries(cfg.coldSizes.map((n) => [n, skills.make(n)]));
  const argvOf = (c, n) => c.argv(n, folders[n].dir).map((a, i) => (i === 0 ? rel(a) : a));
  // Each contender is probed once before it is timed.
  const live = [];
  for (const c of COLD_SERVERS) {
    try {
      const n = cfg.coldSizes[0];
      const r = await coldOnce(argvOf(c, n), c.env(n), root);
      if (r.listed === 0) throw new Error('prompts/list returned no prompts');
      live.push(c);
    } catch (error) {
      unavailable(`cold start: ${c.label}`, error.message);
    }
  }
  const runs = {}; // id -> n -> [sample per round]
  for (let round = 0; round < cfg.coldRounds; round++) {
    for (const n of cfg.coldSizes) {
      if (!timeLeft(`cold start ${n}`)) break;
      // The order rotates each round.
      for (const c of live.map((_, i) => live[(i + round) % live.length])) {
        try {
          const r = { round, ...(await coldOnce(argvOf(c, n), c.env(n), root)) };
          ((runs[c.id] ??= {})[n] ??= []).push(r);
          log(
            `  round ${round + 1} ${c.id.padEnd(14)} N=${String(n).padEnd(6)} ${Math.round(r.ms)} ms  RSS ${(r.rss / 1048576).toFixed(1)} MB  listed ${r.listed}${r.paged ? '+ (paged)' : ''}`,
          );
        } catch (error) {
          note(`cold start ${c.id} N=${n}: ${error.message.slice(0, 200)}`);
        }
      }
    }
  }
  const table = [];
  for (const c of live) {
    const row = { id: c.id, label: c.label, peer: Boolean(c.peer), sizes: {} };
    for (const n of cfg.coldSizes) {
      const mine = runs[c.id]?.[n] ?? [];
      const floor = [];
      for (const r of runs.floor?.[n] ?? []) floor[r.round] = r;
      const paired = (f) => median(mine.map((r) => (floor[r.round] ? f(r, floor[r.round]) : Number.NaN)));
      row.sizes[n] = {
        ms: median(mine.map((r) => r.ms)),
        cpuMs: median(mine.map((r) => r.cpuMs)),
        rss: median(mine.map((r) => r.rss)),
        peak: median(mine.map((r) => r.peak)),
        listed: mine[0]?.listed,
        paged: mine[0]?.paged,
        overFloorMs: paired((r, o) => r.ms - o.ms),
        toFloor: paired((r, o) => r.ms / o.ms),
        samples: mine,
      };
    }
    const [lo, hi] = [cfg.coldSizes[0], cfg.coldSizes.at(-1)];
    row.rssPerPrompt = (row.sizes[hi].rss - row.sizes[lo].rss) / (hi - lo);
    table.push(row);
  }
  return { table, sizes: cfg.coldSizes, bytes: Object.fromEntries(cfg.coldSizes.map((n) => [n, folders[n].bytes])) };
}
