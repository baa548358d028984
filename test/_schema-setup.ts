/**
 * Setup file (vitest.config.ts `setupFiles`): where the official MCP JSON
 * Schemas are absent, every test tagged `schema` is skipped before it starts,
 * with NO_SCHEMAS as its skip note. Skipping here rather than through the
 * tag's `skip` option keeps the reporter's count exact: a test left out by
 * `-t` or `--tags-filter` is skipped too, but carries no such note.
 */
import { beforeEach } from 'vitest';
import { locateSchemas, NO_SCHEMAS, SCHEMA_TAG } from './_schema-dir.js';

const found = locateSchemas() !== undefined;

beforeEach((context) => {
  if (!found && context.task.tags?.includes(SCHEMA_TAG)) context.skip(NO_SCHEMAS);
});
