// Runs the official MCP conformance suite against skillport over Streamable
// HTTP, restricted to the scenarios in scope (IN_SCOPE: what the library
// serves today: prompts, resources, completion, tools, logging, progress,
// input-required requests on 2026-07-28; the Tasks extension's scenarios,
// EXTENSION_SCENARIOS).
//
//   npm run build && npm run conformance [-- --scenario NAME] [-- --keep]
//
// It starts test/conformance/fixture-server.mjs on an ephemeral 127.0.0.1
// port and runs the suite with Node 22 (the suite needs fs.globSync; node22.mjs
// finds it, or installs it into a cache folder on first use):
//   @modelcontextprotocol/conformance 0.1.16 at 2025-06-18 and 2025-11-25;
//   0.2.0-alpha.12 (conformance-next) at 2025-06-18, 2025-11-25 and 2026-07-28,
//   and at the two legacy revisions again against a second fixture in
//   stateless legacy mode (--stateless, HttpOptions.sessions: false).
// Each run is one process with `--suite all --spec-version <revision>` (a
// process per scenario costs seconds of start-up each), and only the
// in-scope scenarios are scored. `--requirements` would pick the same wire
// revision but cannot be narrowed to a scenario list, hence `--spec-version`.
// Results are read from each scenario's checks.json and compared with
// expected-failures/<suite version>/[stateless-]<revision>.yaml, in the
// suite's own baseline format (`server:` entries `scenario` or
// `scenario:check-id`).
//
// Exit status: 0 when every FAILURE is baselined and no baseline entry is
// stale; 1 otherwise. WARNINGs (SHOULD-level) are reported, not failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { node22 } from './node22.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUITES = [
  {
    name: '@modelcontextprotocol/conformance@0.1.16',
    version: '0.1.16',
    cli: join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
    revisions: ['2025-06-18', '2025-11-25'],
  },
  {
    name: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    version: '0.2.0-alpha.12',
    cli: join(ROOT, 'node_modules/conformance-next/dist/index.js'),
    revisions: ['2025-06-18', '2025-11-25', '2026-07-28'],
  },
];

/**
 * The scenarios in scope: every one whose behaviour the library serves. The
 * server scenarios left out, and why:
 * - sep-2640-skills-* (extension): run against `skillport serve --http` by test/e2e/conformance-skills.test.ts.
 * The Tasks extension's scenarios are EXTENSION_SCENARIOS below.
 * Every scenario listed here runs at each revision its suite release has it for (`list --server
 * --spec-version`): logging-set-level and tools-call-with-logging at the 2025 revisions only,
 * input-required-result-*, server-stateless, caching and the like at 2026-07-28 only.
 */
/**
 * Not scored against the fixture in stateless legacy mode (`sessions: false`):
 * a 2025 revision carries the server's own questions to the client as
 * requests on a session, and without one no stream brings the answer back
 * (`ctx.input` rejects there, as documented; SDK v1's stateless mode cannot
 * elicit either). The session runs score them.
 */
export const NEEDS_SESSIONS = new Set(['tools-call-sampling', 'tools-call-elicitation', 'elicitation-sep1034-defaults', 'elicitation-sep1330-enums']);

/**
 * The Tasks extension's scenarios (SEP-2663, 0.2.0-alpha.12): extension
 * scenarios are on no spec timeline, so `--suite all` leaves them out and
 * each runs on its own with `--force`, at 2026-07-28, against the sessions
 * fixture (test/conformance/_tasks.mjs has their tools).
 */
export const EXTENSION_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

export const IN_SCOPE = [
  'server-initialize',
  'ping',
  'server-session-lifecycle',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'server-stateless',
  'caching',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'json-schema-2020-12',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'sep-2164-resource-not-found',
  'dns-rebinding-protection',
  'http-header-validation',
  'http-custom-header-server-validation',
  'logging-set-level',
  'tools-call-with-logging',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
];

for (const [file, what] of [[join(ROOT, 'dist/http.js'), 'the build (run `npm run build` first)'], ...SUITES.map((suite) => [suite.cli, suite.name])]) {
  if (!existsSync(file)) {
    console.error(`Missing ${what}: ${file}`);
    process.exit(1);
  }
}

let NODE22;
try {
  NODE22 = node22();
} catch (error) {
  console.error(`No Node 22 for the suite: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: { scenario: { type: 'string', multiple: true }, keep: { type: 'boolean', default: false }, timings: { type: 'boolean', default: false } },
});

function run(command, args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.once('error', (error) => {
      output += `\n${error.message}`;
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function startFixture(extraArgs = []) {
  const child = spawn(process.execPath, [join(ROOT, 'test/conformance/fixture-server.mjs'), '--http', '127.0.0.1:0', ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`fixture did not start:\n${stderr}`)), 15_000);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line).url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Scenarios a suite release applies at a revision (`list --server --spec-version`). */
async function applicable(suite, revision) {
  const { output } = await run(NODE22, [suite.cli, 'list', '--server', '--spec-version', revision]);
  return new Set([...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]));
}

function loadBaseline(suite, revision) {
  const file = join(ROOT, 'test/conformance/expected-failures', suite.version, `${revision}.yaml`);
  if (!existsSync(file)) return [];
  return (parseYaml(readFileSync(file, 'utf8'))?.server ?? []).map((entry) => {
    const [scenario, check] = String(entry).split(':');
    return { scenario, check, text: String(entry) };
  });
}

/** Every checks.json under `dir`, by scenario (result folders are `server-<scenario>-<timestamp>`). */
function collectChecks(dir) {
  const found = new Map();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name, 'checks.json');
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name)?.[1];
    if (entry.isDirectory() && scenario && existsSync(file)) found.set(scenario, JSON.parse(readFileSync(file, 'utf8')));
  }
  return found;
}

/**
 * Runs the suite once for a revision. `--suite all` runs every scenario in
 * one process (a process per scenario costs seconds of start-up each); only
 * the in-scope scenarios' results are scored. With --scenario, only those run.
 */
async function runRevision(suite, revision, scenarios, url, outDir, extensions = []) {
  const started = Date.now();
  const outputs = [];
  for (const scenario of extensions) {
    const { output } = await run(NODE22, [suite.cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', revision, '--force', '-o', outDir]);
    outputs.push(output);
  }
  if (scenarios.length === 0) {
    // Only extension scenarios were asked for.
  } else if (values.scenario) {
    for (const scenario of scenarios) {
      const { output } = await run(NODE22, [suite.cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', revision, '-o', outDir]);
      outputs.push(output);
    }
  } else {
    const { output } = await run(NODE22, [suite.cli, 'server', '--url', url, '--suite', 'all', '--spec-version', revision, '-o', outDir], {
      timeoutMs: 600_000,
    });
    outputs.push(output);
  }
  if (values.timings) console.log(`  ${suite.name} @ ${revision}: ${Date.now() - started} ms`);
  const found = collectChecks(outDir);
  return [...scenarios, ...extensions].map((scenario) => ({
    scenario,
    checks: found.get(scenario) ?? [
      { id: `${scenario}-did-not-run`, status: 'FAILURE', errorMessage: `no results were written:\n${outputs.join('\n').slice(-2000)}` },
    ],
  }));
}

/**
 * What runs: every suite release at each of its revisions against the
 * default fixture (legacy sessions on), then the legacy revisions once more
 * against the fixture in stateless legacy mode (`sessions: false`). The
 * stateless pass has its own baselines, `<release>/stateless-<revision>.yaml`.
 */
const fixture = await startFixture();
const statelessFixture = await startFixture(['--stateless']);
const NEXT = SUITES[1];
const RUNS = [
  ...SUITES.flatMap((suite) => suite.revisions.map((revision) => ({ suite, revision, fixture, mode: '' }))),
  ...['2025-06-18', '2025-11-25'].map((revision) => ({ suite: NEXT, revision, fixture: statelessFixture, mode: 'stateless' })),
];
const outRoot = mkdtempSync(join(tmpdir(), 'skillport-conformance-'));
let failed = false;
const summary = [];
try {
  console.log(`Fixtures at ${fixture.url} (sessions) and ${statelessFixture.url} (stateless legacy mode)`);
  for (const { suite, revision, fixture: target, mode } of RUNS) {
    {
      const available = await applicable(suite, revision);
      const scenarios = IN_SCOPE.filter(
        (s) => available.has(s) && !(mode === 'stateless' && NEEDS_SESSIONS.has(s)) && (!values.scenario || values.scenario.includes(s)),
      );
      const extensions =
        suite === NEXT && revision === '2026-07-28' && !mode ? EXTENSION_SCENARIOS.filter((s) => !values.scenario || values.scenario.includes(s)) : [];
      const outDir = mkdtempSync(join(outRoot, `${revision}-`));
      const results = await runRevision(suite, revision, scenarios, target.url, outDir, extensions);
      const baseline = loadBaseline(suite, mode ? `${mode}-${revision}` : revision);
      const counts = { passed: 0, failed: 0, baselined: 0, warnings: 0, skipped: 0 };
      const problems = [];
      for (const { scenario, checks } of results) {
        for (const check of checks) {
          const entry = baseline.find((b) => b.scenario === scenario && (b.check === undefined || b.check === check.id));
          if (check.status === 'SUCCESS') {
            counts.passed++;
            if (entry?.check !== undefined) problems.push(`STALE baseline entry (now passes): ${entry.text}`);
          } else if (check.status === 'FAILURE') {
            if (entry) counts.baselined++;
            else {
              counts.failed++;
              problems.push(`FAIL ${scenario}:${check.id}: ${check.errorMessage ?? ''}`);
            }
          } else if (check.status === 'WARNING') {
            counts.warnings++;
            problems.push(`warn ${scenario}:${check.id}: ${check.errorMessage ?? ''}`);
          } else if (check.status === 'SKIPPED') counts.skipped++;
        }
      }
      const stale = problems.filter((p) => p.startsWith('STALE')).length;
      if (counts.failed > 0 || stale > 0) failed = true;
      const line = `${suite.name} @ ${revision}${mode ? ` (${mode} legacy mode)` : ''}: ${scenarios.length + extensions.length} scenarios, ${counts.passed} checks passed, ${counts.failed} failed, ${counts.baselined} baselined failures, ${counts.warnings} warnings, ${counts.skipped} skipped`;
      summary.push(line);
      console.log(`\n${line}`);
      for (const problem of problems) console.log(`  ${problem.replace(/\s+/g, ' ').slice(0, 400)}`);
      const missing = IN_SCOPE.filter((s) => !available.has(s));
      if (missing.length > 0) console.log(`  not in this release at ${revision}: ${missing.join(', ')}`);
    }
  }
} finally {
  for (const server of [fixture, statelessFixture]) {
    const code = await server.stop();
    if (code !== 0) {
      failed = true;
      console.log(`\nThe fixture server ${server.url} exited with ${code} on SIGTERM:\n${server.stderr()}`);
    } else if (server.stderr().includes('error:')) {
      console.log(`\nThe fixture server ${server.url} logged errors:\n${server.stderr()}`);
    }
  }
  if (values.keep) console.log(`\nResults kept in ${outRoot}`);
  else rmSync(outRoot, { recursive: true, force: true });
}
console.log(
  `\n${summary.join('\n')}\n${failed ? 'Conformance: FAILED' : 'Conformance: passed (in-scope scenarios; baselined failures listed in test/conformance/expected-failures/)'}`,
);
process.exit(failed ? 1 : 0);
