/**
 * Where the official MCP JSON Schemas are, decided the same way by every part
 * of a test run: vitest.config.ts (which stops a misconfigured run before it
 * starts), test/_schema-setup.ts (which skips the tests tagged `schema` when
 * there are none) and test/_schema.ts (the referee that loads them). The
 * schemas are not part of the repository: they live beside the clone in
 * ../shared/mcp-schema, or wherever MCP_SCHEMA_DIR says. Deliberately free of
 * vitest and ajv imports, so the config can load it.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The revisions whose schemas the tests validate against; all must be present. */
export const SCHEMA_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** The vitest tag of every test that uses the schema referee. */
export const SCHEMA_TAG = 'schema';

/** Why schema tests were skipped, for the one line the reporter prints. */
export const NO_SCHEMAS = 'no official MCP JSON Schemas at $MCP_SCHEMA_DIR or ../shared/mcp-schema (see docs/testing.md)';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The schema folder (holding `<revision>/schema.json` for every revision in
 * SCHEMA_REVISIONS), or undefined when there is none to be had. Throws where
 * a skip would hide a mistake: MCP_SCHEMA_DIR set to a folder without the
 * schemas, a ../shared/mcp-schema that lacks some, or no schemas at all under
 * SKILLPORT_REQUIRE_SCHEMAS=1 (set by .ci/run, where they must be present).
 */
export function locateSchemas(): string | undefined {
  const env = process.env;
  const named = env.MCP_SCHEMA_DIR;
  const dir = named ? resolve(named) : resolve(ROOT, '../shared/mcp-schema');
  const from = named ? `MCP_SCHEMA_DIR=${named}` : `${dir} (../shared/mcp-schema beside the clone)`;
  if (!named && !existsSync(dir)) {
    if (env.SKILLPORT_REQUIRE_SCHEMAS === '1') throw new Error(`SKILLPORT_REQUIRE_SCHEMAS=1 but there are ${NO_SCHEMAS}: nothing at ${from}`);
    return undefined;
  }
  if (!existsSync(dir)) throw new Error(`${from} does not hold the official MCP JSON Schemas: there is no ${dir}`);
  const missing = SCHEMA_REVISIONS.filter((revision) => !existsSync(join(dir, revision, 'schema.json')));
  if (missing.length > 0) {
    throw new Error(`${from} does not hold the official MCP JSON Schemas: no ${missing.map((r) => `${r}/schema.json`).join(', ')} in ${dir}`);
  }
  return `${dir}/`;
}
