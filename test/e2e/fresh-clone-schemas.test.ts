/**
 * The schema tests on a fresh clone with nothing beside it: the README's test
 * command passes there, skipping the tests that need the official MCP JSON
 * Schemas with one line saying how many and why; with MCP_SCHEMA_DIR they all
 * run; a wrong MCP_SCHEMA_DIR, or no schemas under SKILLPORT_REQUIRE_SCHEMAS=1
 * (what .ci/run sets), stops the run; and .ci/run's check fails a report in
 * which a schema test was skipped. Each case runs vitest on one test file of
 * the clone (the in-process HTTP suites: schema tests and others, no build).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, cleanClone } from '../_clean-clone.js';
import { locateSchemas, NO_SCHEMAS, SCHEMA_TAG } from '../_schema-dir.js';

const FILE = 'test/transport/http/http-handler.test.ts';
const SKIP_LINE = /^skipped (\d+) schema tests?: (.*)$/gm;

interface Report {
  testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string; tags?: string[] }> }>;
}

let work: string;
let clone: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'skillport-fresh-'));
  clone = cleanClone(work);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** vitest on FILE in the clone; with `json`, also .ci/run's reporters and the report they write. */
function vitest(env: Record<string, string>, json = false): { status: number | null; output: string; report?: Report; reportPath: string } {
  const reportPath = join(work, `report-${Math.random().toString(36).slice(2)}.json`);
  const reporters = json ? ['--reporter=default', '--reporter=./test/_schema-reporter.ts', '--reporter=json', `--outputFile.json=${reportPath}`] : [];
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', FILE, ...reporters], {
    cwd: clone,
    env: childEnv(env),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${run.stdout}${run.stderr}`;
  return { status: run.status, output, reportPath, ...(json && run.status !== null ? { report: JSON.parse(readFileSync(reportPath, 'utf8')) as Report } : {}) };
}

/** Tests of a report by whether they carry the schema tag, with their statuses. */
function statuses(report: Report | undefined): { schema: string[]; other: string[] } {
  const tests = report?.testResults.flatMap((file) => file.assertionResults) ?? [];
  return {
    schema: tests.filter((t) => t.tags?.includes(SCHEMA_TAG)).map((t) => t.status),
    other: tests.filter((t) => !t.tags?.includes(SCHEMA_TAG)).map((t) => t.status),
  };
}

/** .ci/run's check of a report: exit status and output. */
function ciCheck(reportPath: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, ['.ci/schema-tests-ran.mjs', reportPath], { cwd: clone, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('a fresh clone with no schemas beside it', () => {
  it('passes, skipping the schema tests with one line saying how many and why', () => {
    const plain = vitest({});
    expect(plain.status, plain.output).toBe(0);
    const lines = [...plain.output.matchAll(SKIP_LINE)];
    expect(lines.map((m) => m[2])).toEqual([NO_SCHEMAS]);

    const reported = vitest({}, true);
    expect(reported.status, reported.output).toBe(0);
    const { schema, other } = statuses(reported.report);
    // The count in the line is the number of schema tests, none of which ran; the others all passed.
    expect(schema.length).toBeGreaterThan(0);
    expect(Number(lines[0]?.[1])).toBe(schema.length);
    expect(schema.every((s) => s === 'skipped')).toBe(true);
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((s) => s === 'passed')).toBe(true);
    expect([...reported.output.matchAll(SKIP_LINE)].map((m) => Number(m[1]))).toEqual([schema.length]);

    // .ci/run fails such a report.
    const check = ciCheck(reported.reportPath);
    expect(check.status).toBe(1);
    expect(check.output).toContain(`${schema.length} schema tests did not run`);
  });

  it('stops with the reason under SKILLPORT_REQUIRE_SCHEMAS=1, as .ci/run sets it', () => {
    const run = vitest({ SKILLPORT_REQUIRE_SCHEMAS: '1' });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(`SKILLPORT_REQUIRE_SCHEMAS=1 but there are ${NO_SCHEMAS}`);
    expect(run.output).not.toMatch(SKIP_LINE);
  });

  it('stops with the reason when MCP_SCHEMA_DIR names a folder without the schemas', () => {
    const empty = join(work, 'not-schemas');
    mkdirSync(join(empty, '2025-06-18'), { recursive: true });
    const run = vitest({ MCP_SCHEMA_DIR: empty });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(`MCP_SCHEMA_DIR=${empty} does not hold the official MCP JSON Schemas`);
    expect(run.output).toContain('2026-07-28/schema.json');
  });

  // Needs the schemas itself, to hand them to the clone.
  it('runs every schema test when MCP_SCHEMA_DIR names the schemas', { tags: ['schema'] }, () => {
    const dir = locateSchemas();
    expect(dir).toBeDefined();
    const run = vitest({ MCP_SCHEMA_DIR: dir ?? '' }, true);
    expect(run.status, run.output).toBe(0);
    expect(run.output).not.toMatch(SKIP_LINE);
    const { schema, other } = statuses(run.report);
    expect(schema.length).toBeGreaterThan(0);
    expect(schema.every((s) => s === 'passed')).toBe(true);
    expect(other.every((s) => s === 'passed')).toBe(true);
    expect(ciCheck(run.reportPath)).toEqual({ status: 0, output: `schema tests: all ${schema.length} ran\n` });
  });
});
