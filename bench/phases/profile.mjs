// Where the time goes, for each missed target cell: V8 CPU profiles of
// skillport and of the floor on that cell, summarized as self time per area
// and per function, per request (HTTP) or per start (cold start).
//   http cell: the server under the cell's load; the profiler starts after a
//              warm-up (SIGUSR2), so start-up is left out.
//   cold cell: `node --cpu-prof` of the spawn-to-first-prompts/list run.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { COLD_SERVERS, ERA_LABEL, HTTP_SERVERS } from '../config.mjs';
import { runLoad } from '../lib/http-load.mjs';
import { cpuMs, startHttpServer } from '../lib/proc.mjs';
import { summarizeProfile } from '../lib/profile.mjs';
import { openEra, WORKLOADS } from '../lib/wire.mjs';
import { coldOnce } from './cold.mjs';

/** The missed cells that name a profile, worst first, one per distinct profile. */
export function missedCells(targets) {
  const seen = new Map();
  for (const t of targets) {
    for (const c of t.cells) {
      if (c.met !== false || !c.profile) continue;
      const key = JSON.stringify(c.profile);
      const entry = seen.get(key) ?? { profile: c.profile, misses: [] };
      entry.misses.push({ target: t.id, cell: c.label, margin: c.margin, shortfall: c.shortfall });
      seen.set(key, entry);
    }
  }
  const worst = (e) => Math.min(...e.misses.map((m) => m.shortfall));
  return [...seen.values()].sort((a, b) => worst(a) - worst(b));
}

/** One server under the cell's load, profiled after warm-up; returns the profile file and requests done. */
async function profileHttp(serverId, { workload, era }, { cfg, rel, sleep }, dir, { env = {}, name = serverId } = {}) {
  const w = WORKLOADS.find((x) => x.id === workload);
  const def = HTTP_SERVERS.find((d) => d.id === serverId);
  const file = join(dir, `${name}.cpuprofile`);
  const s = await startHttpServer({ script: rel(def.script), env: { BENCH_CPU_PROFILE: file, ...env } });
  let load;
  let cpu;
  try {
    const opts = { url: s.url, era, session: await openEra(s.url, era), workload: w, connections: cfg.connections };
    await runLoad({ ...opts, duration: cfg.warmup });
    s.child.kill('SIGUSR2');
    await sleep(100);
    const cpu0 = cpuMs(s.pid);
    load = await runLoad({ ...opts, duration: cfg.profileSec });
    cpu = cpuMs(s.pid) - cpu0;
  } finally {
    await s.stop();
  }
  // CPU time measured outside the profiler (schedstat), per request, to set against the profile's sampled time.
  return { file, per: load.requests, rps: load.rps, cpuPer: (cpu * 1000) / load.requests };
}

/** The area the socket writes fall in (bench/lib/profile.mjs areaOf). */
export const WRITES_AREA = 'native I/O (socket writes, file syscalls)';

/** A profiled server's non-idle time per request outside socket writes, µs. */
function outsideWrites(side) {
  const writes = side.byArea.find((a) => a.area === WRITES_AREA)?.us ?? 0;
  return (side.busyMs * 1000 - writes) / side.per;
}

/** One cold start under `node --cpu-prof`. */
async function profileCold(serverId, { n }, { root, rel, skills }, dir) {
  const c = COLD_SERVERS.find((x) => x.id === serverId);
  const out = join(dir, serverId);
  const argv = c.argv(n, skills.make(n).dir).map((a, i) => (i === 0 ? rel(a) : a));
  const r = await coldOnce(['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${out}`, ...argv], c.env(n), root);
  const file = readdirSync(out).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${serverId}: no profile was written`);
  return { file: join(out, file), per: 1, cpuPer: r.cpuMs, ms: r.ms };
}

export default async function profile(ctx, results) {
  const { cfg, rel, log, timeLeft, note, root } = ctx;
  const jobs = missedCells(results.targets ?? []);
  const out = [];
  if (jobs.length > cfg.maxProfiles) note(`${jobs.length} missed cells name a profile; the ${cfg.maxProfiles} furthest from their targets were profiled.`);
  const base = rel('bench/.profiles');
  rmSync(base, { recursive: true, force: true });
  for (const [i, job] of jobs.slice(0, cfg.maxProfiles).entries()) {
    if (!timeLeft(`profile ${i + 1}`)) break;
    const dir = join(base, String(i));
    mkdirSync(dir, { recursive: true });
    const cell = job.profile;
    log(`\n== CPU profiles ${i + 1}: ${JSON.stringify(cell)} ==`);
    try {
      const entry = { cell, misses: job.misses };
      if (cell.kind === 'http') {
        const w = WORKLOADS.find((x) => x.id === cell.workload);
        entry.title = `HTTP, ${w.label}, ${ERA_LABEL[cell.era]}`;
        entry.how = `V8 CPU profiler (node:inspector), 250 µs sampling, ${cfg.profileSec} s at ${cfg.connections} connections after a ${cfg.warmup} s warm-up`;
        entry.unit = 'µs per request';
        for (const id of ['skillport', 'floor']) {
          const r = await profileHttp(id, cell, ctx, dir);
          entry[id] = { per: r.per, rps: r.rps, cpuPer: r.cpuPer, ...summarizeProfile(r.file, root) };
        }
        // The floor slowed by skillport's own extra time outside socket writes: what it then
        // pays in writes is the price of answering more slowly (the load generator, sharing
        // the cores, sleeps more and is woken by each write), not of what skillport writes.
        const spinUs = outsideWrites(entry.skillport) - outsideWrites(entry.floor);
        if (spinUs > 0) {
          const r = await profileHttp('floor', cell, ctx, dir, { env: { BENCH_FLOOR_SPIN_NS: String(Math.round(spinUs * 1000)) }, name: 'floor-slowed' });
          entry.slowed = { spinUs, per: r.per, rps: r.rps, cpuPer: r.cpuPer, ...summarizeProfile(r.file, root) };
        }
      } else {
        entry.title = `Cold start, N=${cell.n.toLocaleString('en-US')}, spawn to the first prompts/list`;
        entry.how = '`node --cpu-prof --cpu-prof-interval=100` (100 µs sampling), one start each';
        entry.unit = 'ms per start';
        for (const id of [cell.id, 'floor']) {
          const r = await profileCold(id, cell, ctx, dir);
          entry[id === 'floor' ? 'floor' : 'skillport'] = { id, per: r.per, cpuPer: r.cpuPer, ms: r.ms, ...summarizeProfile(r.file, root) };
        }
      }
      out.push(entry);
    } catch (error) {
      note(`CPU profile ${JSON.stringify(cell)} failed: ${error.message.slice(0, 200)}`);
    }
  }
  return out;
}
