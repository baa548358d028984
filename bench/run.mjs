#!/usr/bin/env node
// `npm run bench`: skillport side by side with a strict node:http floor and
// its peers, on this machine, in this run. Runs the phases in bench/phases/
// (each returns data), evaluates the targets in bench/targets.mjs, profiles
// the missed target cells, writes RESULTS.json and renders RESULTS.md from it
// (bench/render.mjs).
//   --quick                 fewer, shorter rounds
//   --only=a,b              phases: completion,http,stdio,cold,memory,reload,profile
//   --out=FILE.md           where to write (FILE.json goes next to it)
//   --sustain=SECONDS       length of the memory run
//   --report-from=FILE.json re-render a finished run's report
// On Node 22 (the conformance suite's: test/conformance/node22.mjs), after `npm run build`:
//   "$(node test/conformance/node22.mjs)" bench/run.mjs --out=bench/RESULTS-node22.md
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PHASES, parseFlags, sizes } from './config.mjs';
import { skillFolders } from './lib/skills-dir.mjs';
import cold from './phases/cold.mjs';
import completion from './phases/completion.mjs';
import http from './phases/http.mjs';
import memory from './phases/memory.mjs';
import profile from './phases/profile.mjs';
import reload from './phases/reload.mjs';
import stdio from './phases/stdio.mjs';
import { render, renderFile } from './render.mjs';
import { evaluate } from './targets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUN = { completion, http, stdio, cold, memory, reload };
const flags = parseFlags(process.argv.slice(2));

if (flags.reportFrom) {
  console.log(`Rendered ${renderFile(resolve(flags.reportFrom), flags.out && resolve(flags.out))}`);
  process.exit(0);
}
if (!existsSync(join(ROOT, 'dist/index.js'))) {
  console.error('dist/index.js is missing: run `npm run build` first.');
  process.exit(1);
}

const cfg = sizes(flags);
const started = Date.now();
const deadline = started + cfg.budgetMinutes * 60_000;
const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memory: os.totalmem(),
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  nodePath: process.execPath,
  nodeShown: process.execPath.includes('node_modules') ? `${relative(ROOT, process.execPath)}, the repo’s \`node\` devDependency` : process.execPath,
  viaNpm: process.env.npm_lifecycle_event === 'bench',
  date: new Date(started).toISOString(),
  load: os.loadavg(),
  tmpFs: (() => {
    try {
      const line = execFileSync('df', ['-T', os.tmpdir()], { encoding: 'utf8' }).trim().split('\n')[1];
      return `${line.split(/\s+/)[1]} (${os.tmpdir()})`;
    } catch {
      return os.tmpdir();
    }
  })(),
};
const results = { notes: [], unavailable: [], phaseSeconds: {} };
const skills = skillFolders();
const ctx = {
  cfg,
  quick: flags.quick,
  root: ROOT,
  rel: (p) => join(ROOT, p),
  log: (...a) => console.log(...a),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  skills,
  note: (text) => results.notes.push(text),
  unavailable: (what, why) => results.unavailable.push({ what, why: String(why).split('\n')[0].slice(0, 300) }),
  timeLeft(label) {
    if (Date.now() <= deadline) return true;
    results.notes.push(`Stopped early: the ${cfg.budgetMinutes}-minute guard was reached before ${label}.`);
    return false;
  },
};
const selected = (name) => flags.only.length === 0 || flags.only.includes(name);

console.log(
  `skillport bench (${flags.quick ? 'quick' : 'full'}) on ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; load ${machine.load.map((x) => x.toFixed(2)).join(' ')}`,
);
try {
  for (const name of PHASES) {
    if (!selected(name) || !ctx.timeLeft(name)) continue;
    const t = performance.now();
    if (name === 'profile') {
      results.targets = evaluate(results);
      results.profiles = await profile(ctx, results);
    } else {
      results[name] = await RUN[name](ctx, results);
    }
    results.phaseSeconds[name] = Math.round((performance.now() - t) / 1000);
  }
  results.targets ??= evaluate(results);
} finally {
  skills.remove();
}
machine.loadEnd = os.loadavg();
results.tookSeconds = Math.round((Date.now() - started) / 1000);

const data = { machine, config: cfg, quick: flags.quick, only: flags.only, results };
const out = flags.out ? resolve(flags.out) : join(ROOT, flags.only.length ? 'bench/RESULTS.partial.md' : 'bench/RESULTS.md');
writeFileSync(out.replace(/\.md$/, '.json'), `${JSON.stringify(data, null, 1)}\n`);
const text = render(data);
writeFileSync(out, `${text}\n`);
console.log(`\n${text}\n\nWritten to ${out} and ${out.replace(/\.md$/, '.json')}`);
process.exit(0);
