/**
 * An elicitation's form as 2025-06-18 can carry it (client/elicitation
 * §Supported Schema Types; schema.json `PrimitiveSchemaDefinition`): strings,
 * numbers, booleans and enums of strings with `enumNames` for their titles.
 * What 2025-11-25 added is cut to that: a titled single-select (`oneOf` of
 * `const` and `title`) becomes `enum` with `enumNames`, a `default` goes but
 * on a boolean, and a multi-select (an array field) cannot be asked at all:
 * the handler's `ctx.input` rejects with an InputUnavailableError it may
 * catch, as it does wherever a question cannot reach the client.
 */
import { InputUnavailableError } from '../../core/input.js';

type Field = Record<string, unknown>;

/** The members each field keeps (StringSchema, NumberSchema, BooleanSchema, EnumSchema). */
const KEPT = ['type', 'title', 'description', 'minLength', 'maxLength', 'format', 'minimum', 'maximum', 'enum', 'enumNames'];

/** `requestedSchema` cut to 2025-06-18's fields; throws InputUnavailableError for a field it has no form for. */
export function formFor2025_06_18(requestedSchema: unknown): unknown {
  if (typeof requestedSchema !== 'object' || requestedSchema === null) return requestedSchema;
  const schema = requestedSchema as Field;
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return requestedSchema;
  const cut: Field = {};
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) cut[name] = fieldFor(name, value);
  return { ...schema, properties: cut };
}

function fieldFor(name: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const field = value as Field;
  if (field.type === 'array')
    throw new InputUnavailableError(`The form field "${name}" is a multi-select, which a 2025-06-18 client cannot be asked for (it came in 2025-11-25)`);
  const out: Field = {};
  for (const key of KEPT) if (key in field) out[key] = field[key];
  if (field.type === 'boolean' && 'default' in field) out.default = field.default;
  const titled = titledOptions(field.oneOf);
  if (titled && !('enum' in field)) {
    out.type = 'string';
    out.enum = titled.map((option) => option.const);
    out.enumNames = titled.map((option) => option.title);
  }
  return out;
}

/** The options of a titled single-select, when `oneOf` is one. */
function titledOptions(oneOf: unknown): Array<{ const: string; title: string }> | undefined {
  if (!Array.isArray(oneOf) || oneOf.length === 0) return undefined;
  const options = oneOf.map((option: unknown) => {
    const { const: value, title } = (option ?? {}) as Field;
    return typeof value === 'string' ? { const: value, title: typeof title === 'string' ? title : value } : undefined;
  });
  return options.every((option) => option !== undefined) ? (options as Array<{ const: string; title: string }>) : undefined;
}
