/**
 * Validation against the official JSON Schemas (../shared/mcp-schema beside
 * the clone, or $MCP_SCHEMA_DIR; see test/_schema-dir.ts): the referee for
 * everything the server sends.
 *
 * A test that calls it must be tagged `schema` (`it(name, { tags: ['schema'] },
 * fn)`, or on its describe): where the schemas are absent, test/_schema-setup.ts
 * skips those tests, and test/_schema-reporter.ts counts them in one line. The referee
 * refuses to run for an untagged test, so a missing tag fails with the
 * schemas present instead of turning into a failure on a fresh clone.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { TestRunner } from 'vitest';
import { locateSchemas, NO_SCHEMAS, SCHEMA_REVISIONS, SCHEMA_TAG } from './_schema-dir.js';

declare module 'vitest' {
  // Typed tag names: a misspelt tag is a type error, not only a runtime one.
  interface TestTags {
    tags: typeof SCHEMA_TAG;
  }
}

const addFormats = addFormatsModule as unknown as (ajv: unknown) => void;

export const REVISIONS = SCHEMA_REVISIONS;
export type RevisionName = (typeof REVISIONS)[number];

const SCHEMA_DIR = locateSchemas();

/** Throws unless the running test is tagged `schema` (see the module header). */
function assertSchemaTest(): void {
  const test = TestRunner.getCurrentTest();
  if (test?.tags?.includes(SCHEMA_TAG)) return;
  const who = test ? `The test "${test.fullName}"` : 'Code outside any test';
  throw new Error(
    `${who} uses the schema referee but is not tagged '${SCHEMA_TAG}': add { tags: ['${SCHEMA_TAG}'] } so it is skipped, not failed, where there are ${NO_SCHEMAS}`,
  );
}

const validators = new Map<string, { ajv: Ajv | Ajv2020; defs: string }>();

function load(revision: RevisionName): { ajv: Ajv | Ajv2020; defs: string } {
  let entry = validators.get(revision);
  if (!entry) {
    // Only reachable without test/_schema-setup.ts, which skips tagged tests when there are none.
    if (SCHEMA_DIR === undefined) throw new Error(`Schema tests ran although there are ${NO_SCHEMAS}`);
    const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}${revision}/schema.json`, 'utf8')) as Record<string, unknown>;
    // 2025-06-18 is draft-07 with "definitions"; later ones are 2020-12 with "$defs".
    const draft07 = revision === '2025-06-18';
    const ajv = draft07 ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(schema, 'mcp');
    entry = { ajv, defs: draft07 ? 'definitions' : '$defs' };
    validators.set(revision, entry);
  }
  return entry;
}

const compiled = new Map<string, ValidateFunction>();

/** Errors of `value` against definition `name` of the revision's schema; empty when valid. */
export function schemaErrors(revision: RevisionName, name: string, value: unknown): string[] {
  assertSchemaTest();
  const key = `${revision}#${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const { ajv, defs } = load(revision);
    const found = ajv.getSchema(`mcp#/${defs}/${name}`);
    if (!found) throw new Error(`No definition ${name} in the ${revision} schema`);
    validate = found;
    compiled.set(key, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Whether a definition exists in a revision's schema. */
export function hasDefinition(revision: RevisionName, name: string): boolean {
  assertSchemaTest();
  const { ajv, defs } = load(revision);
  return ajv.getSchema(`mcp#/${defs}/${name}`) !== undefined;
}
