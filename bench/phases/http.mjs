// HTTP: every contender on every revision it serves, every workload, with
// autocannon on 127.0.0.1. Each round starts every contender afresh; ratios
// are taken per round (adjacent in time), then the median over rounds.

import { cellKey, ERA_LABEL, HTTP_SERVERS } from '../config.mjs';
import { runLoad } from '../lib/http-load.mjs';
import { cpuMs, peakRss, startHttpServer } from '../lib/proc.mjs';
import { median } from '../lib/stats.mjs';
import { checkResult, openEra, post, requestBody, requestHeaders, WORKLOADS } from '../lib/wire.mjs';

export default async function http({ cfg, rel, log, sleep, timeLeft, note, unavailable }) {
  log('\n== HTTP (autocannon, 127.0.0.1) ==');
  const cells = [];
  const memory = new Map(); // label -> { idle, after, peak }
  const samples = Object.fromEntries(WORKLOADS.map((w) => [w.id, {}])); // workload -> key -> [sample per round]
  for (let round = 0; round < cfg.rounds; round++) {
    if (!timeLeft(`HTTP round ${round + 1}`)) break;
    log(`  round ${round + 1}/${cfg.rounds}`);
    // Every contender in fresh processes each round: one process can run the same code several
    // percent faster or slower than another for its whole life (PERFORMANCE.md, "Judging a
    // change"), and a ratio taken from one pair of processes would carry that luck to every round.
    const servers = await startServers(rel, log, round === 0 ? unavailable : (what, why) => note(`${what} did not start in round ${round + 1}: ${why}`));
    try {
      if (round === 0) cells.push(...(await openCells(servers, unavailable)));
      else await reopenCells(cells, servers);
      for (const w of WORKLOADS) {
        // The order rotates each round so no contender always runs first.
        for (const cell of cells.map((_, i) => cells[(i + round) % cells.length])) {
          if (cell.broken[w.id] || !cell.s) continue;
          const opts = { url: cell.s.url, era: cell.era, session: cell.session, workload: w, connections: cfg.connections };
          try {
            await runLoad({ ...opts, duration: cfg.warmup });
            const cpu0 = cpuMs(cell.s.pid);
            const r = await runLoad({ ...opts, duration: cfg.duration });
            // Server CPU per completed request: less sensitive than req/s to other work on the machine.
            const sample = { round, rps: r.rps, p50: r.p50, p99: r.p99, cpuUs: ((cpuMs(cell.s.pid) - cpu0) * 1000) / r.requests };
            (samples[w.id][cell.key] ??= []).push(sample);
            // Let a slow server drain what autocannon abandoned at the deadline before the next cell.
            await sleep(200);
            const bad = r.non2xx + r.errors + r.timeouts;
            if (bad > 0)
              note(
                `HTTP ${cell.def.label} ${ERA_LABEL[cell.era]} ${w.id} round ${round + 1}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts.`,
              );
            log(
              `    ${w.id.padEnd(9)} ${cell.key.padEnd(22)} ${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99.toFixed(2)} ms  CPU ${sample.cpuUs.toFixed(1)} µs/req${bad ? `  (${bad} failed)` : ''}`,
            );
          } catch (error) {
            cell.broken[w.id] = error.message;
            log(`    ${w.id} ${cell.key}: failed: ${error.message}`);
          }
        }
      }
    } finally {
      for (const { def, s, rssIdle } of servers) {
        const seen = memory.get(def.label);
        const after = s.rss();
        const peak = peakRss(s.pid);
        memory.set(def.label, { label: def.label, idle: seen?.idle ?? rssIdle, after, peak: Math.max(seen?.peak ?? 0, peak) });
        await s.stop();
      }
    }
  }
  const table = {};
  for (const w of WORKLOADS) {
    table[w.id] = {};
    const byRound = (key) => {
      const list = [];
      for (const r of samples[w.id][key] ?? []) list[r.round] = r;
      return list;
    };
    for (const cell of cells) {
      const mine = samples[w.id][cell.key];
      if (!mine?.length) continue;
      const floor = byRound(cellKey('floor', cell.era));
      const sp = byRound(cellKey('skillport', cell.era));
      const paired = (other, f) => median(mine.map((r) => (other[r.round] ? f(r, other[r.round]) : Number.NaN)));
      table[w.id][cell.key] = {
        label: cell.def.label,
        id: cell.def.id,
        era: cell.era,
        peer: Boolean(cell.def.peer),
        rps: median(mine.map((r) => r.rps)),
        p50: median(mine.map((r) => r.p50)),
        p99: median(mine.map((r) => r.p99)),
        cpuUs: median(mine.map((r) => r.cpuUs)),
        toFloor: paired(floor, (r, o) => r.rps / o.rps),
        toSkillport: paired(sp, (r, o) => r.rps / o.rps),
        // CPU efficiency, read like the req/s ratio: the other's CPU per request ÷ this one's.
        cpuToFloor: paired(floor, (r, o) => o.cpuUs / r.cpuUs),
        cpuToSkillport: paired(sp, (r, o) => o.cpuUs / r.cpuUs),
        samples: mine,
      };
    }
  }
  return {
    workloads: WORKLOADS.map((w) => ({ id: w.id, label: w.label })),
    eraLabels: ERA_LABEL,
    table,
    memory: [...memory.values()],
  };
}

/** Every HTTP contender started; one that cannot start is told to `unavailable`. */
async function startServers(rel, log, unavailable) {
  const servers = [];
  for (const def of HTTP_SERVERS) {
    try {
      const s = await startHttpServer({ script: rel(def.script), variant: def.variant });
      servers.push({ def, s, rssIdle: s.rss() });
      log(`  started ${def.label} at ${s.url} (pid ${s.pid})`);
    } catch (error) {
      unavailable(`HTTP: ${def.label}`, error.message.split('\n')[0]);
    }
  }
  return servers;
}

/** The first round's cells: each contender's eras opened, and one real request per workload checked for content. */
async function openCells(servers, unavailable) {
  const cells = [];
  for (const { def, s } of servers) {
    for (const era of def.eras) {
      try {
        cells.push({ def, s, era, session: await openEra(s.url, era), key: cellKey(def.id, era), broken: {} });
      } catch (error) {
        unavailable(`HTTP: ${def.label} ${ERA_LABEL[era]}`, error.message);
      }
    }
  }
  for (const cell of cells) {
    for (const w of WORKLOADS) {
      try {
        const r = await post(cell.s.url, requestBody(cell.era, w.method, w.params(0), 999_999), requestHeaders(cell.era, cell.session, w));
        const problem = r.status !== 200 ? `HTTP ${r.status} ${r.text.slice(0, 200)}` : checkResult(w, r.json);
        if (problem) {
          cell.broken[w.id] = problem;
          unavailable(`HTTP: ${cell.def.label} ${ERA_LABEL[cell.era]} ${w.id}`, problem);
        }
      } catch (error) {
        cell.broken[w.id] = error.message;
        unavailable(`HTTP: ${cell.def.label} ${ERA_LABEL[cell.era]} ${w.id}`, error.message);
      }
    }
  }
  return cells;
}

/** A later round's cells on its fresh processes; a contender that did not start this time sits the round out. */
async function reopenCells(cells, servers) {
  for (const cell of cells) {
    const s = servers.find((server) => server.def === cell.def)?.s;
    cell.s = s;
    try {
      cell.session = s ? await openEra(s.url, cell.era) : undefined;
    } catch {
      cell.s = undefined;
    }
  }
}
