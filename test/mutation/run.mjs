#!/usr/bin/env node
/**
 * The mutation check of the security rules: each mutant in `mutants.mjs`
 * breaks one rule in a copy of the sources (auth, confinement, audiences,
 * signatures, refs...) and runs the tests that guard it; every mutant must be
 * killed (some test fails). A mutant that survives is a rule no test holds.
 *
 *   npm run mutation                       every mutant
 *   npm run mutation -- --only=token,ref   the mutants whose id starts so
 *   npm run mutation -- --list             the mutants, nothing run
 *
 * The copy is a temporary folder beside nothing: `src`, `test`, `bin`,
 * `skills`, `examples` and the configs, with this checkout's node_modules
 * linked, so the working tree is never touched (an interrupted run leaves no
 * mutant behind). First the guarding tests run on the unmutated copy: a test
 * that fails already would "kill" every mutant. Exit 1 if a mutant survives,
 * a find string is not in its file exactly once, or the clean run fails.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS } from './mutants.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
const chosen = only ? MUTANTS.filter((m) => only.some((prefix) => m.id.startsWith(prefix))) : MUTANTS;

if (args.includes('--list')) {
  for (const m of chosen) console.log(`${m.id.padEnd(28)} ${m.rule}\n${' '.repeat(29)}${m.file} <- ${m.tests.join(', ')}`);
  process.exit(0);
}
if (chosen.length === 0) {
  console.error(`no mutant matches ${only?.join(',')}`);
  process.exit(1);
}

// Every find string once in its file: a mutant that no longer applies is a check that silently stopped checking.
let stale = 0;
for (const m of chosen) {
  const text = readFileSync(join(ROOT, m.file), 'utf8');
  const count = text.split(m.find).length - 1;
  if (count !== 1) {
    console.error(`mutant ${m.id}: its find string is in ${m.file} ${count} times, not once; update test/mutation/mutants.mjs`);
    stale++;
  }
}
if (stale) process.exit(1);

const work = mkdtempSync(join(tmpdir(), 'skillport-mutation-'));
for (const entry of ['src', 'test', 'bin', 'skills', 'examples', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'vitest.config.ts']) {
  if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(work, entry), { recursive: true });
}
symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
const schemas = process.env.MCP_SCHEMA_DIR ?? resolve(ROOT, '../shared/mcp-schema');
const env = {
  ...process.env,
  RELIABILITY_REPORT: '0',
  ...(existsSync(schemas) ? { MCP_SCHEMA_DIR: schemas } : {}),
};

function build() {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: work, env, encoding: 'utf8' });
  // A mutant that does not compile is killed by the compiler, not by a test: say so rather than count it.
  return r.status === 0 ? undefined : (r.stdout + r.stderr).trim().split('\n').slice(0, 3).join('\n');
}

function runTests(tests) {
  const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', ...tests], {
    cwd: work,
    env,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  return { passed: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

let failed = false;
try {
  const buildError = build();
  if (buildError) throw new Error(`the unmutated copy does not build:\n${buildError}`);
  const all = [...new Set(chosen.flatMap((m) => m.tests))];
  console.log(`clean run of ${all.length} guarding test files...`);
  const clean = runTests(all);
  if (!clean.passed) throw new Error(`the guarding tests fail without any mutant:\n${clean.output.slice(-4000)}`);

  const rows = [];
  for (const m of chosen) {
    const path = join(work, m.file);
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, original.replace(m.find, m.replace));
    const started = Date.now();
    let verdict;
    try {
      const compileError = m.build ? build() : undefined;
      if (compileError) verdict = 'does not compile';
      else verdict = runTests(m.tests).passed ? 'SURVIVED' : 'killed';
    } finally {
      writeFileSync(path, original);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    rows.push([m.id, verdict, m.rule]);
    console.log(`${verdict === 'killed' ? 'killed  ' : verdict.padEnd(8)} ${m.id} (${seconds} s): ${m.rule}`);
    if (verdict !== 'killed') failed = true;
  }
  if (chosen.some((m) => m.build)) build();
  const killed = rows.filter((r) => r[1] === 'killed').length;
  console.log(`\nmutation check: ${killed} of ${rows.length} mutants killed`);
  for (const [id, verdict, rule] of rows) if (verdict !== 'killed') console.log(`  ${verdict}: ${id}: ${rule}`);
} catch (error) {
  console.error(error.message);
  failed = true;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
