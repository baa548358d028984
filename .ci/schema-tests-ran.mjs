#!/usr/bin/env node
// Fails (exit 1) when a vitest JSON report shows a test tagged `schema` that
// did not run. CI has the official MCP JSON Schemas beside the clone, so there
// every schema test must run; a skip there would hide a missing or moved
// ../shared/mcp-schema behind a green build. Usage: schema-tests-ran.mjs REPORT
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const notRun = [];
let ran = 0;
for (const file of report.testResults) {
  for (const test of file.assertionResults) {
    if (!test.tags?.includes('schema')) continue;
    if (test.status === 'passed' || test.status === 'failed') ran++;
    else notRun.push(`${file.name}: ${test.fullName} (${test.status})`);
  }
}
if (notRun.length > 0) {
  console.log(`${notRun.length} schema test${notRun.length === 1 ? '' : 's'} did not run, and all must here:`);
  for (const line of notRun) console.log(`  ${line}`);
  process.exit(1);
}
console.log(`schema tests: all ${ran} ran`);
