/**
 * An elicitation whose `requestedSchema` is a Standard Schema (zod 4,
 * valibot, arktype): `ctx.input` sends the client the JSON Schema the
 * library gives for it, cut to what a client may receive, and checks an
 * accepted answer with the library's own validation, so the handler gets the
 * schema's output, typed. A JSON Schema object goes as it is and its answer
 * is only checked for shape (core/input.ts `isAnswerTo`), as before.
 *
 * It does not cache conversions: only requests that ask pay, once per ask.
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import type { InputRequest } from './input.js';
import type { JsonSchema } from './model.js';
import { isStandard, issuesOf, type StandardSchema } from './tool-schema.js';

/** How a question reaches the client (a revision's broker, a task's record). */
export type Ask = (key: string, request: InputRequest) => Promise<Record<string, unknown>>;

/**
 * What each kind of form field may say: the members of the schema's
 * `PrimitiveSchemaDefinition` kinds, across 2025-06-18, 2025-11-25 and
 * 2026-07-28 (`StringSchema`, `NumberSchema`, `BooleanSchema`, the enum
 * schemas; 2025-11-25 added `default` everywhere and the titled and
 * multi-select enums). Anything else a library emits (zod's `pattern` for
 * an email, `$schema`) is left out: the answer is validated with the
 * library anyway.
 */
const FIELD_KEYS: Readonly<Record<string, readonly string[]>> = {
  string: ['type', 'title', 'description', 'default', 'minLength', 'maxLength', 'format', 'enum', 'enumNames', 'oneOf'],
  number: ['type', 'title', 'description', 'default', 'minimum', 'maximum'],
  integer: ['type', 'title', 'description', 'default', 'minimum', 'maximum'],
  boolean: ['type', 'title', 'description', 'default'],
  array: ['type', 'title', 'description', 'default', 'minItems', 'maxItems', 'items'],
};

/** `StringSchema.format` (client/elicitation §Supported Schema Types): other formats are dropped, not sent. */
const FORMATS: ReadonlySet<string> = new Set(['date', 'date-time', 'email', 'uri']);

/**
 * Asks `request` through `ask`. An elicitation with a Standard Schema goes
 * with its JSON Schema, and resolves with the validated output as `content`
 * when accepted (without `content` when declined or cancelled). Rejects with
 * a TypeError when the schema is not one a client may receive, and with an
 * InvalidParamsError (-32602: the answer is the client's input) when an
 * accepted answer does not match it.
 */
export function askWith(ask: Ask, key: string, request: InputRequest): Promise<Record<string, unknown>> {
  if (request.method !== 'elicitation/create' || !isStandard(request.params.requestedSchema)) return ask(key, request);
  const schema = request.params.requestedSchema;
  let requestedSchema: JsonSchema;
  try {
    requestedSchema = formSchemaOf(schema, key);
  } catch (error) {
    return Promise.reject(error);
  }
  return ask(key, { method: request.method, params: { ...request.params, requestedSchema } }).then((answer) => checked(schema, key, answer));
}

async function checked(schema: StandardSchema, key: string, answer: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { content, ...rest } = answer;
  if (answer.action !== 'accept') return rest;
  const result = await schema['~standard'].validate(content ?? {});
  if (result.issues) {
    const issues = issuesOf(result.issues);
    throw new InvalidParamsError(`The client's answer to "${key}" does not match its requestedSchema: ${issues.join('; ')}`, { input: key, issues });
  }
  return { ...rest, content: result.value };
}

/**
 * The JSON Schema a client gets for `schema`: a flat object of primitive
 * fields (client/elicitation §Requested Schema: "only top-level properties
 * are allowed, without nesting"), with only the members the official schema
 * lists (`type`, `properties`, `required`). Throws a TypeError naming the
 * question and the field otherwise.
 */
export function formSchemaOf(schema: StandardSchema, key: string): JsonSchema {
  const standard = schema['~standard'];
  const where = `ctx.input("${key}")`;
  if (!standard.jsonSchema) {
    throw new TypeError(`${where}: the ${standard.vendor} requestedSchema gives no JSON Schema (Standard JSON Schema); pass a JSON Schema object instead`);
  }
  // The form is what the client fills in: the schema's input side.
  const json = standard.jsonSchema.input({ target: 'draft-2020-12' });
  if (json.type !== 'object' || typeof json.properties !== 'object' || json.properties === null || Array.isArray(json.properties)) {
    throw new TypeError(`${where}: an elicitation's requestedSchema must be an object schema with properties (client/elicitation §Requested Schema)`);
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(json.properties as Record<string, unknown>)) properties[name] = fieldOf(field, `${where}: field "${name}"`);
  const form: JsonSchema = { type: 'object', properties };
  if (Array.isArray(json.required) && json.required.length > 0) form.required = json.required;
  return form;
}

/** One field as a primitive schema, with only the members its kind lists. */
function fieldOf(field: unknown, where: string): JsonSchema {
  const type = typeof field === 'object' && field !== null ? (field as JsonSchema).type : undefined;
  const keys = typeof type === 'string' && Object.hasOwn(FIELD_KEYS, type) ? FIELD_KEYS[type] : undefined;
  if (!keys) {
    throw new TypeError(
      `${where} is not a string, number, integer, boolean or multi-select field; an elicitation form has no nested objects, unions or nullable fields (client/elicitation §Supported Schema Types)`,
    );
  }
  const source = field as JsonSchema;
  const out: JsonSchema = {};
  for (const name of keys) if (source[name] !== undefined) out[name] = source[name];
  if (typeof out.format === 'string' && !FORMATS.has(out.format)) delete out.format;
  if (type === 'array') {
    const items = out.items as JsonSchema | undefined;
    // Only a multi-select is an array field: string items from a fixed list (2025-11-25 `UntitledMultiSelectEnumSchema`, `TitledMultiSelectEnumSchema`).
    if (!items || !(Array.isArray(items.enum) || Array.isArray(items.anyOf))) {
      throw new TypeError(`${where} is an array whose items are not a fixed list of strings (an enum); an elicitation form has no other lists`);
    }
    out.items = Array.isArray(items.enum) ? { type: 'string', enum: items.enum } : { anyOf: items.anyOf };
  }
  return out;
}
