// Before and after: skillport built from another commit against this tree's
// build, alternating in one run, so that a refactor's cost shows above the
// noise of two full runs taken at different times.
//
//   npm run build && node bench/ab.mjs --base=REV [--rounds=5] [--duration=2] [--only=get,complete] [--cold=no]
//
// REV is checked out into a temporary worktree and compiled there (its own
// dist/, this tree's node_modules). Every HTTP workload on both revisions,
// then cold start to the first prompts/list (the floor as a reference), each
// cell the median of its rounds, base and head taking turns to go first.
// Each round starts both afresh and times them back to back; the range of
// the rounds' head ÷ base is printed beside the median. `--base=HEAD`
// compares this build with itself: what a cell moves by chance
// (PERFORMANCE.md, "Judging a change").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERAS, flag } from './config.mjs';
import { freshRounds, timeCell } from './lib/cells.mjs';
import { median } from './lib/stats.mjs';
import { WORKLOADS } from './lib/wire.mjs';
import { coldOnce } from './phases/cold.mjs';

const HEAD = resolve(fileURLToPath(import.meta.url), '../..');
const base = flag('base');
if (!base) {
  console.error('usage: node bench/ab.mjs --base=REV [--rounds=5] [--duration=2]');
  process.exit(2);
}
const rounds = Number(flag('rounds', '5'));
const duration = Number(flag('duration', '2'));
// A subset of the workloads (their ids, comma-separated) and no cold start: a quicker look at one path.
const only = flag('only')?.split(',');
const workloads = only ? WORKLOADS.filter((w) => only.includes(w.id)) : WORKLOADS;
const withCold = flag('cold', 'yes') !== 'no';

const BASE = join(mkdtempSync(join(tmpdir(), 'skillport-ab-')), 'tree');
execFileSync('git', ['-C', HEAD, 'worktree', 'add', '--detach', BASE, base], { stdio: 'ignore' });
try {
  symlinkSync(join(HEAD, 'node_modules'), join(BASE, 'node_modules'));
  execFileSync(process.execPath, [join(HEAD, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: BASE, stdio: 'inherit' });
  const trees = { base: BASE, head: HEAD };
  const lines = ['| Cell | base | head | head ÷ base | rounds, lowest–highest | base CPU µs/req | head CPU µs/req |', '|---|---:|---:|---:|---:|---:|---:|'];
  const cells = {};
  const contenders = { base: { script: join(BASE, 'bench/servers/skillport.mjs') }, head: { script: join(HEAD, 'bench/servers/skillport.mjs') } };
  await freshRounds(rounds, contenders, ERAS, async (servers, sessions, round) => {
    for (const workload of workloads) {
      for (const era of ERAS) {
        for (const name of round % 2 ? ['head', 'base'] : ['base', 'head']) {
          const sample = await timeCell(servers, sessions, name, { workload, era, duration });
          (cells[`${workload.id}, ${era}`] ??= { base: [], head: [] })[name].push(sample);
        }
      }
    }
  });
  for (const [cell, { base: b, head: h }] of Object.entries(cells)) {
    const [rb, rh] = [median(b.map((s) => s.rps)), median(h.map((s) => s.rps))];
    const each = h.map((s, round) => s.rps / (b[round]?.rps ?? Number.NaN)).filter(Number.isFinite);
    const range = `${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)}×`;
    lines.push(
      `| HTTP ${cell} req/s | ${rb.toFixed(0)} | ${rh.toFixed(0)} | ${(rh / rb).toFixed(2)}× | ${range} | ${median(b.map((s) => s.cpuUs)).toFixed(1)} | ${median(h.map((s) => s.cpuUs)).toFixed(1)} |`,
    );
  }
  const cold = {};
  for (let round = 0; round < (withCold ? rounds * 2 : 0); round++) {
    for (const n of [10, 1000]) {
      for (const name of round % 2 ? ['head', 'base', 'floor'] : ['floor', 'base', 'head']) {
        const tree = name === 'floor' ? HEAD : trees[name];
        const script = name === 'floor' ? 'bench/servers/floor.mjs' : 'bench/servers/skillport.mjs';
        const result = await coldOnce([join(tree, script), 'stdio'], { ...process.env, BENCH_SET: `skills:${n}` }, tree);
        ((cold[n] ??= {})[name] ??= []).push(result.ms);
      }
    }
  }
  for (const [n, by] of Object.entries(cold)) {
    const [f, b, h] = [median(by.floor), median(by.base), median(by.head)];
    lines.push(
      `| cold start, N=${n}, ms over the floor's (${f.toFixed(0)} ms) | ${(b - f).toFixed(1)} | ${(h - f).toFixed(1)} | ${(h - b >= 0 ? '+' : '') + (h - b).toFixed(1)} ms | | | |`,
    );
  }
  console.log(`base ${base}, head ${HEAD} (working tree), ${rounds} round(s) of ${duration} s per HTTP cell, 16 connections\n`);
  console.log(lines.join('\n'));
} finally {
  execFileSync('git', ['-C', HEAD, 'worktree', 'remove', '--force', BASE], { stdio: 'ignore' });
  rmSync(resolve(BASE, '..'), { recursive: true, force: true });
}
