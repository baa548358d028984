#!/usr/bin/env node
// The long reliability run, by hand: `npm run soak` (10 minutes) or
// `npm run soak -- --minutes 30`. It runs the same suite as CI at soak
// scale: many more fuzz cases (a fresh seed, printed, unless FUZZ_SEED is
// set), 1,000-connection load and load under live reload for minutes
// instead of seconds, 20 memory rounds instead of 7, and the memory cases
// (memory-*.test.ts) at the sizes of the original reports, each asked for
// RSS flat within 10% (about 8 minutes on top of the budget). Everything stays on
// 127.0.0.1 with ephemeral ports. Figures, with memory and timings, go to
// the `-soak` sections of RELIABILITY.md (a soak is run to update them:
// RELIABILITY_REPORT=doc unless set; `file` keeps them in the ignored
// .reliability/figures.md); CI never touches those.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const at = process.argv.indexOf('--minutes');
const minutes = at === -1 ? 10 : Number(process.argv[at + 1]);
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 240) {
  console.error('usage: npm run soak [-- --minutes N]   (0 < N <= 240)');
  process.exit(2);
}
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31);
const env = {
  ...process.env,
  RELIABILITY_SOAK: '1',
  RELIABILITY_REPORT: process.env.RELIABILITY_REPORT ?? 'doc',
  FUZZ_SEED: seed,
  // Budget: about a third of the time for fuzzing, the rest for the two load runs.
  FUZZ_RUNS: String(Math.round(minutes * 120)),
  FUZZ_HTTP_RUNS: String(Math.round(minutes * 40)),
  LOAD_CONNECTIONS: process.env.LOAD_CONNECTIONS ?? '1000',
  RELOAD_CONNECTIONS: process.env.RELOAD_CONNECTIONS ?? '100',
  LOAD_DURATION_MS: String(Math.round(minutes * 60_000 * 0.25)),
};
console.error(
  `soak: ${minutes} min budget, fuzz seed ${seed}, ${env.FUZZ_RUNS} stdio / ${env.FUZZ_HTTP_RUNS} HTTP property runs per target and revision; ` +
    `figures: ${{ doc: 'RELIABILITY.md', 0: 'none' }[env.RELIABILITY_REPORT] ?? '.reliability/figures.md'}`,
);
const started = Date.now();
// One file at a time: load figures are not disturbed by the fuzzers.
const child = spawn(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', 'test/reliability', '--no-file-parallelism'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// Hard stop: twice the budget plus ten minutes for the fixed parts (memory rounds, the other tests).
const guard = setTimeout(
  () => {
    console.error('soak: far over its budget; stopping');
    child.kill('SIGTERM');
  },
  (minutes * 2 + 10) * 60_000,
);
child.on('exit', (code) => {
  clearTimeout(guard);
  console.error(`soak: finished in ${Math.round((Date.now() - started) / 1000)} s with exit code ${code}; seed ${seed}`);
  process.exit(code ?? 1);
});
