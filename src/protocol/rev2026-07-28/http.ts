/**
 * The Streamable HTTP binding of 2026-07-28 (basic/transports/streamable-http
 * §Standard Request Headers, §Server Validation, §Status Codes): the metadata
 * headers that mirror the body, how their values are encoded, and the status
 * an answer is sent with.
 */
import type { MirroredParam } from '../../core/tool-headers.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../../jsonrpc/messages.js';
import type { HeaderReader, HttpBinding, HttpRefusal } from '../revision.js';

/** The metadata headers, as the spec spells them (names compare case-insensitively). */
export const METADATA_HEADERS = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
} as const;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Visible ASCII plus space and tab: what may appear in a plain header value. */
const PLAIN_VALUE = /^[\x20-\x7e\t]*$/;

/** The result of reading a metadata header: its decoded value, absent, or malformed. */
export type HeaderValue = { kind: 'absent' } | { kind: 'invalid'; reason: string } | { kind: 'value'; value: string };

/**
 * Reads a metadata header. Surrounding whitespace is dropped (RFC 9110 §5.5:
 * OWS is not part of the value), and a value written as `=?base64?…?=` is
 * decoded from Base64 UTF-8 before it is compared with the body (§Value
 * Encoding). Only a value with both markers is encoded (the sentinel pattern
 * "starts with `=?base64?` and ends with `?=`"); one with a single marker is
 * a literal. An encoded value that is not valid Base64 of valid UTF-8 is invalid.
 */
export function readMetadataHeader(headers: HeaderReader, name: string): HeaderValue {
  const raw = headers.get(name);
  if (raw === null) return { kind: 'absent' };
  const value = raw.trim();
  if (!PLAIN_VALUE.test(value)) return { kind: 'invalid', reason: `${name} carries characters that are not allowed in a header value` };
  if (value.length < BASE64_PREFIX.length + BASE64_SUFFIX.length || !value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)) {
    return { kind: 'value', value };
  }
  const base64 = value.slice(BASE64_PREFIX.length, -BASE64_SUFFIX.length);
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) return { kind: 'invalid', reason: `${name} carries malformed Base64` };
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return { kind: 'value', value: UTF8.decode(bytes) };
  } catch {
    return { kind: 'invalid', reason: `${name} carries Base64 that is not UTF-8 text` };
  }
}

/** A header that disagrees with the body: 400 with -32020 (HeaderMismatch). */
export function headerMismatch(request: JsonRpcRequest, message: string): HttpRefusal {
  return { status: 400, response: errorResponse(request.id, ErrorCode.HeaderMismatch, `Header mismatch: ${message}`) };
}

/** The header a mirrored tool parameter travels in (§Custom Headers from Tool Parameters). */
export function paramHeader(param: MirroredParam): string {
  return `Mcp-Param-${param.header}`;
}

/** The value at `path` in `args`, or undefined where the chain of objects stops. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** Whether a decoded header says the same as the body's value (integers compare as numbers: §Server Validation). */
function sameValue(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  if (typeof value === 'number') return /^[+-]?\d+(\.\d+)?$/.test(header) && Number(header) === value;
  return false;
}

/**
 * Checks a tools/call's `Mcp-Param-*` headers against its arguments
 * (§Server Behavior for Custom Headers): a value in the body needs its header,
 * equal after decoding; a header with no value in the body (absent or null:
 * the client must omit it) disagrees with it too. Headers the tool does not
 * declare are not this server's and are ignored. Returns what is wrong, if anything.
 */
export function checkParamHeaders(headers: HeaderReader, params: readonly MirroredParam[], args: unknown): string | undefined {
  for (const param of params) {
    const name = paramHeader(param);
    const value = valueAt(args, param.path);
    const header = readMetadataHeader(headers, name);
    const where = `params.arguments.${param.path.join('.')}`;
    if (header.kind === 'invalid') return header.reason;
    if (value === undefined || value === null) {
      if (header.kind === 'value') return `${name} is given but ${where} has no value`;
      continue;
    }
    if (header.kind === 'absent') return `missing ${name} header for ${where}`;
    if (!sameValue(header.value, value)) return `${name} differs from ${where}`;
  }
  return undefined;
}

/** Where `Mcp-Name` comes from, per method. */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'prompts/get': 'name',
  'tools/call': 'name',
  'resources/read': 'uri',
  // The Tasks extension (SEP-2663 §Streamable HTTP: Routing Headers): the task id, so a balancer can route by it.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * Steps 5 and 6 of the validation order the official conformance fixture
 * applies (the version steps come first, in the resolver, since they decide
 * the revision): `Mcp-Method` missing or different from `method`, then
 * `Mcp-Name` missing or different from `params.name` (prompts/get,
 * tools/call) or `params.uri` (resources/read).
 */
function check(headers: HeaderReader, request: JsonRpcRequest): HttpRefusal | undefined {
  const method = readMetadataHeader(headers, METADATA_HEADERS.method);
  if (method.kind === 'absent') return headerMismatch(request, `missing ${METADATA_HEADERS.method} header`);
  if (method.kind === 'invalid') return headerMismatch(request, method.reason);
  if (method.value !== request.method) {
    return headerMismatch(request, `${METADATA_HEADERS.method} "${method.value}" differs from method "${request.method}"`);
  }
  const field = NAME_SOURCE[request.method];
  const bodyName = field === undefined ? undefined : request.params?.[field];
  // A body without the field is the server's to reject (-32602); there is nothing to mirror.
  if (typeof bodyName === 'string') {
    const name = readMetadataHeader(headers, METADATA_HEADERS.name);
    if (name.kind === 'absent') return headerMismatch(request, `missing ${METADATA_HEADERS.name} header`);
    if (name.kind === 'invalid') return headerMismatch(request, name.reason);
    if (name.value !== bodyName) return headerMismatch(request, `${METADATA_HEADERS.name} differs from params.${field}`);
  }
  return undefined;
}

/**
 * The status of an answer sent as one JSON body: 404 for -32601 (the
 * JSON-RPC body is what tells it from a plain 404), 400 for the header,
 * capability, version and request-shape errors, 200 otherwise (the spec names
 * no status for other errors; the conformance fixture uses 200).
 */
function statusOf(response: JsonRpcResponse): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
    case ErrorCode.InvalidRequest:
    case ErrorCode.ParseError:
      return 400;
    default:
      return 200;
  }
}

export const http: HttpBinding = { check, statusOf };
