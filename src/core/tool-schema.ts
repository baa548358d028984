/**
 * A tool's argument schema: a JSON Schema object, or any Standard Schema
 * library's schema (zod 4, valibot, arktype), which gives its JSON Schema for
 * the listing through the Standard JSON Schema interface and validates with
 * its own code. Either way, arguments are checked before the tool runs.
 */
import type { JsonSchema } from './model.js';

/** One problem a validator found, as a model can act on it: where, and what. */
export type SchemaIssue = string;

/** The Standard Schema interface (standardschema.dev), as far as tools use it. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: the schema as JSON Schema, for a target dialect. */
    readonly jsonSchema?:
      | {
          input(options: { target: string }): Record<string, unknown>;
          output(options: { target: string }): Record<string, unknown>;
        }
      | undefined;
  };
}

type StandardPath = ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: StandardPath | undefined }> };

/** A schema a tool may declare. */
export type ToolSchema = JsonSchema | StandardSchema;

/** The value a schema's validation yields: its output type for a Standard Schema, a JSON object otherwise. */
export type SchemaOutput<S> = S extends StandardSchema<unknown, infer O> ? O : Record<string, unknown>;

/** A declared schema, made ready: its JSON Schema for listings and a validator. */
export interface CompiledSchema {
  readonly json: JsonSchema;
  /** The value to use (a Standard Schema may transform it), or what is wrong with it. */
  validate(value: unknown): Promise<{ ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] }>;
}

const MAX_ISSUES = 10;

/** Whether `schema` is a Standard Schema library's schema rather than a JSON Schema object. */
export function isStandard(schema: unknown): schema is StandardSchema {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    typeof (schema as StandardSchema)['~standard'] === 'object' &&
    (schema as StandardSchema)['~standard'] !== null
  );
}

function pathText(path: StandardPath | undefined): string {
  if (!path || path.length === 0) return '';
  return `/${path.map((part) => String(typeof part === 'object' ? part.key : part)).join('/')}: `;
}

/** A Standard Schema's issues as text (at most {@link MAX_ISSUES}): where, and what. */
export function issuesOf(issues: ReadonlyArray<{ readonly message: string; readonly path?: StandardPath | undefined }>): SchemaIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => `${pathText(issue.path)}${issue.message}`);
}

/**
 * Readies `schema` for a tool named `tool`. Throws a TypeError for a schema
 * a client could not use: not an object schema at its root (MCP tools: an
 * `inputSchema` is `{ "type": "object", ... }`), or a Standard Schema whose
 * library gives no JSON Schema.
 */
export function compileSchema(schema: ToolSchema, tool: string, which: 'inputSchema' | 'outputSchema'): CompiledSchema {
  if (isStandard(schema)) {
    const standard = schema['~standard'];
    const convert = which === 'inputSchema' ? standard.jsonSchema?.input : standard.jsonSchema?.output;
    if (!convert) {
      throw new TypeError(
        `Tool "${tool}": the ${standard.vendor} schema of ${which} gives no JSON Schema (Standard JSON Schema); pass a JSON Schema object, or a library version that implements it`,
      );
    }
    const json = convert({ target: 'draft-2020-12' });
    requireObjectSchema(json, tool, which);
    return {
      json,
      async validate(value) {
        const result = await standard.validate(value);
        if (!result.issues) return { ok: true, value: result.value };
        return { ok: false, issues: issuesOf(result.issues) };
      },
    };
  }
  requireObjectSchema(schema, tool, which);
  let validator:
    | Promise<{ validate(value: unknown): { valid: boolean; errors: Array<{ instanceLocation: string; keyword: string; error: string }> } }>
    | undefined;
  return {
    json: schema,
    async validate(value) {
      // Loaded on first use: a server without JSON Schema tools never pays for it. The
      // validator marks the schema it is given, so it gets a copy: the listed one stays the user's.
      validator ??= import('@cfworker/json-schema').then(
        ({ Validator }) => new Validator(withoutUnsafeFormats(structuredClone(schema)), draftOf(schema), false),
      );
      const result = (await validator).validate(value);
      if (result.valid) return { ok: true, value };
      // "properties" and "false" only repeat, less precisely, what the errors under them say.
      const issues = result.errors.filter((e) => e.keyword !== 'properties' && e.keyword !== 'false' && e.keyword !== 'items');
      return { ok: false, issues: issues.slice(0, MAX_ISSUES).map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'}: ${e.error}`) };
    },
  };
}

function requireObjectSchema(schema: unknown, tool: string, which: string): asserts schema is JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as JsonSchema).type !== 'object') {
    throw new TypeError(`Tool "${tool}": ${which} must be a JSON Schema object with "type": "object"`);
  }
}

/** The dialect a schema names with `$schema`; MCP's default is 2020-12 (2025-11-25 basic §JSON Schema Usage). */
function draftOf(schema: JsonSchema): '4' | '7' | '2019-09' | '2020-12' {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (named.includes('draft-04')) return '4';
  if (named.includes('draft-07')) return '7';
  if (named.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/**
 * Formats the validator must not assert: its pattern for each is worse than
 * linear over attacker-chosen text (`url`: exponential, 40 KB of argument
 * took a second; test/reliability/regex-linear.test.ts checks the rest). JSON
 * Schema 2020-12 makes `format` an annotation unless a schema opts into
 * assertion (Validation §7.2.1), and `url` is no format it defines, so
 * leaving it unchecked is what the dialect says anyway.
 */
export const UNASSERTED_FORMATS: ReadonlySet<string> = new Set(['url']);

/** `schema` (a copy the caller owns) with the unasserted formats removed, at any depth. */
function withoutUnsafeFormats(schema: unknown): never {
  if (Array.isArray(schema)) for (const item of schema) withoutUnsafeFormats(item);
  else if (typeof schema === 'object' && schema !== null) {
    const object = schema as Record<string, unknown>;
    if (typeof object.format === 'string' && UNASSERTED_FORMATS.has(object.format)) delete object.format;
    for (const value of Object.values(object)) withoutUnsafeFormats(value);
  }
  return schema as never;
}
