/**
 * A vitest reporter that adds one line to the end of a run in which schema
 * tests were skipped for want of the official MCP JSON Schemas, so a fresh
 * clone's green run says what it did not check and how to check it:
 *
 *   skipped 82 schema tests: no official MCP JSON Schemas at $MCP_SCHEMA_DIR or ../shared/mcp-schema (see docs/testing.md)
 *
 * It counts the tests that test/_schema-setup.ts skipped (their skip note says
 * why), not every skipped `schema` test: one left out by -t was not skipped
 * for want of schemas. Registered beside the default reporter in
 * vitest.config.ts; a run with its own --reporter flags (.ci/run) names it too.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { NO_SCHEMAS, SCHEMA_TAG } from './_schema-dir.js';

export default class SchemaSkipReporter implements Reporter {
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        if (test.tags.includes(SCHEMA_TAG) && result.state === 'skipped' && result.note === NO_SCHEMAS) skipped++;
      }
    }
    if (skipped > 0) this.#vitest?.logger.log(`skipped ${skipped} schema test${skipped === 1 ? '' : 's'}: ${NO_SCHEMAS}`);
  }
}
