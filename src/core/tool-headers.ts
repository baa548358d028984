/**
 * Tool parameters mirrored into HTTP headers: the `x-mcp-header` annotation
 * on a property of a tool's `inputSchema` (MCP 2026-07-28 server/tools
 * §x-mcp-header). Which parameters a tool mirrors is a fact of the tool, read
 * here from its schema; comparing the headers with the arguments is the
 * Streamable HTTP binding's (protocol/rev2026-07-28/http.ts).
 */
import type { JsonSchema } from './model.js';

/** The annotation's key, as the spec spells it. */
export const HEADER_ANNOTATION = 'x-mcp-header';

/** A parameter whose value a client copies into `Mcp-Param-{header}`. */
export interface MirroredParam {
  /** The chain of `properties` keys from the schema's root to the parameter. */
  readonly path: readonly string[];
  /** The annotation's value: the header is `Mcp-Param-{header}`. */
  readonly header: string;
  readonly type: 'string' | 'integer' | 'boolean';
}

/** RFC 9110 §5.1 field-name token: `1*tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, never schemas: an annotation-looking key inside is data. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The property's type when it is one the annotation may sit on: a single
 * `type` string (the official client drops a tool whose annotated property
 * has a type list, `["boolean", "null"]` included, so none is accepted here).
 */
function primitiveType(schema: JsonSchema): MirroredParam['type'] | undefined {
  return typeof schema.type === 'string' && PRIMITIVE.has(schema.type) ? (schema.type as MirroredParam['type']) : undefined;
}

/**
 * The parameters `schema` mirrors, and what is wrong with its annotations
 * (server/tools §x-mcp-header constraints: a non-empty token, unique without
 * regard to case, on a string, integer or boolean property reached from the
 * root through `properties` alone). A client must drop a tool with any
 * problem (basic/transports/streamable-http §Schema Extension), so
 * `defineTool` refuses one.
 */
export function mirroredParams(schema: JsonSchema): { params: MirroredParam[]; problems: string[] } {
  const params: MirroredParam[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();

  function visit(node: unknown, path: string[], reachable: boolean): void {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, path, false);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const object = node as JsonSchema;
    if (HEADER_ANNOTATION in object) annotation(object, path, reachable);
    for (const [key, value] of Object.entries(object)) {
      if (DATA_KEYWORDS.has(key) || key === HEADER_ANNOTATION) continue;
      if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value)) visit(child, [...path, name], reachable);
      } else {
        visit(value, path, false);
      }
    }
  }

  function annotation(object: JsonSchema, path: string[], reachable: boolean): void {
    const header = object[HEADER_ANNOTATION];
    const where = path.length === 0 ? 'the schema root' : `/${path.join('/')}`;
    if (!reachable || path.length === 0) {
      problems.push(`${HEADER_ANNOTATION} at ${where} is not on a property reached through "properties" alone`);
      return;
    }
    if (typeof header !== 'string' || !TOKEN.test(header)) {
      problems.push(`${HEADER_ANNOTATION} at ${where} must be a non-empty HTTP token (RFC 9110 §5.1)`);
      return;
    }
    const type = primitiveType(object);
    if (!type) {
      problems.push(`${HEADER_ANNOTATION} at ${where} must be on a string, integer or boolean property`);
      return;
    }
    const key = header.toLowerCase();
    if (seen.has(key)) {
      problems.push(`${HEADER_ANNOTATION} "${header}" at ${where} repeats another (header names ignore case)`);
      return;
    }
    seen.add(key);
    params.push({ path, header, type });
  }

  visit(schema, [], true);
  return { params, problems };
}
