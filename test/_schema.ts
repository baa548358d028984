/**
 * Validation against the official JSON Schemas in ../shared/mcp-schema: the
 * referee for everything the server sends.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => void;

export const REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type RevisionName = (typeof REVISIONS)[number];

const SCHEMA_DIR = fileURLToPath(new URL('../../shared/mcp-schema/', import.meta.url));

const validators = new Map<string, { ajv: Ajv | Ajv2020; defs: string }>();

function load(revision: RevisionName): { ajv: Ajv | Ajv2020; defs: string } {
  let entry = validators.get(revision);
  if (!entry) {
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
  const { ajv, defs } = load(revision);
  return ajv.getSchema(`mcp#/${defs}/${name}`) !== undefined;
}
