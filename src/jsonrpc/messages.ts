/**
 * JSON-RPC 2.0 message shapes, a classifier for parsed input, and response
 * builders. Nothing here knows about MCP.
 */

import { type Encoded, isEncoded, jsonBytes, jsonText } from './encoded.js';
import { ErrorCode } from './errors.js';

/** A request id: JSON-RPC allows strings and numbers (MCP forbids null). */
export type RequestId = string | number;

/** A request: it carries an id and expects one response. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

/** A notification: no id, no response. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

/** The error member of an error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful response. */
export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

/**
 * An error response. `id` is null when the request's id could not be read
 * (JSON-RPC 2.0 §5: "If there was an error in detecting the id ... it MUST be
 * Null").
 */
export interface JsonRpcError {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Any message this side may write. */
export type JsonRpcResponse = JsonRpcResult | JsonRpcError;
export type JsonRpcOutgoing = JsonRpcResponse | JsonRpcNotification;

/** What a parsed JSON value turned out to be. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; id: RequestId | null; result?: Record<string, unknown>; error?: JsonRpcErrorObject }
  | { kind: 'invalid'; id: RequestId | null; reason: string };

/** MCP narrows JSON-RPC ids to strings and integers (schema `RequestId`); 1.5 is not one. */
function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sorts one parsed JSON value into request, notification, response or invalid.
 * Arrays are invalid: batching was removed in MCP 2025-06-18 (changelog item 1)
 * and none of the served revisions accepts one.
 */
export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    return { kind: 'invalid', id: null, reason: 'Batch requests are not supported' };
  }
  if (!isPlainObject(value)) {
    return { kind: 'invalid', id: null, reason: 'A JSON-RPC message must be an object' };
  }
  const id = 'id' in value && isRequestId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') {
    return { kind: 'invalid', id, reason: 'The jsonrpc member must be "2.0"' };
  }
  if (!('method' in value)) {
    if ('result' in value || 'error' in value) {
      // Kept for the server's own requests to the client (elicitation, sampling, roots), which await it.
      const response: Classified = { kind: 'response', id };
      if (isPlainObject(value.result)) response.result = value.result;
      else if (isPlainObject(value.error)) response.error = value.error as unknown as JsonRpcErrorObject;
      return response;
    }
    return { kind: 'invalid', id, reason: 'A message needs a method, a result or an error' };
  }
  if (typeof value.method !== 'string') {
    return { kind: 'invalid', id, reason: 'The method member must be a string' };
  }
  if ('params' in value && value.params !== undefined && !isPlainObject(value.params)) {
    return { kind: 'invalid', id, reason: 'The params member must be an object' };
  }
  const params = value.params as Record<string, unknown> | undefined;
  if (!('id' in value)) {
    const message: JsonRpcNotification = { jsonrpc: '2.0', method: value.method };
    if (params !== undefined) message.params = params;
    return { kind: 'notification', message };
  }
  if (id === null) {
    // MCP: "the ID MUST NOT be null" and must be a string or integer.
    return { kind: 'invalid', id: null, reason: 'The id must be a string or a number' };
  }
  const message: JsonRpcRequest = { jsonrpc: '2.0', id, method: value.method };
  if (params !== undefined) message.params = params;
  return { kind: 'request', message };
}

/** Builds a success response. */
export function resultResponse(id: RequestId, result: Record<string, unknown>): JsonRpcResult {
  return { jsonrpc: '2.0', id, result };
}

/** True when `message` has exactly the own keys jsonrpc, id, result, in that order (as {@link resultResponse} builds it). */
function isPlainResult(message: object): boolean {
  let index = 0;
  for (const key in message) {
    if (key !== (index === 0 ? 'jsonrpc' : index === 1 ? 'id' : index === 2 ? 'result' : '')) return false;
    index++;
  }
  return index === 3;
}

/** The encoded result of a success response whose JSON text may be reused, or undefined. */
function encodedResult(message: JsonRpcOutgoing): Encoded<object> | undefined {
  if (!('result' in message)) return undefined;
  const { id, result } = message;
  return isEncoded(result) && (typeof id === 'string' || typeof id === 'number') && message.jsonrpc === '2.0' && isPlainResult(message) ? result : undefined;
}

/** A success response split around its encoded result, see {@link splitEncodedMessage}. */
export interface EncodedMessageParts {
  /** `{"jsonrpc":"2.0","id":…,"result":` */
  head: string;
  /** The result's JSON text as UTF-8, encoded once and shared by every response that carries it. */
  result: Uint8Array;
  /** `}` */
  tail: string;
}

/**
 * For a success response whose result is {@link Encoded}: the response as
 * the bytes {@link serializeMessage} would produce, in three parts, so a
 * transport can write a large shared result without encoding it again for
 * every request. Undefined for any other message.
 */
export function splitEncodedMessage(message: JsonRpcOutgoing): EncodedMessageParts | undefined {
  const result = encodedResult(message);
  if (!result) return undefined;
  return { head: `{"jsonrpc":"2.0","id":${JSON.stringify((message as JsonRpcResult).id)},"result":`, result: jsonBytes(result), tail: '}' };
}

/**
 * The JSON text of an outgoing message, byte-identical to
 * `JSON.stringify(message)`. An {@link Encoded} result is stringified once
 * and its text reused, which turns a large list response into a string
 * concatenation.
 */
export function serializeMessage(message: JsonRpcOutgoing): string {
  const result = encodedResult(message);
  if (!result) return JSON.stringify(message);
  return `{"jsonrpc":"2.0","id":${JSON.stringify((message as JsonRpcResult).id)},"result":${jsonText(result)}}`;
}

/** Builds an error response; `data` is left out when undefined. */
export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcError {
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** The reply to text that is not JSON at all. */
export function parseErrorResponse(): JsonRpcError {
  return errorResponse(null, ErrorCode.ParseError, 'Parse error: the message is not valid JSON');
}

/**
 * How deeply `text` nests arrays and objects, scanning at most until `limit`
 * is passed. Brackets inside strings do not count. This runs before
 * JSON.parse so a deeply nested message costs a linear scan, not a parse.
 */
export function nestingDepthExceeds(text: string, limit: number): boolean {
  // Depth never exceeds the number of opening brackets, which native indexOf
  // counts faster than the scan below walks: most messages stop here.
  let openings = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) openings++;
  }
  if (openings <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses one message's text with a nesting limit: the parsed value, or the
 * error response to send (-32700 for malformed JSON, -32600 for nesting
 * deeper than `maxDepth`, both with id null since no id could be read).
 */
export function parseMessage(text: string, maxDepth: number): { ok: true; value: unknown } | { ok: false; response: JsonRpcError } {
  if (nestingDepthExceeds(text, maxDepth)) {
    return { ok: false, response: errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: nested deeper than ${maxDepth} levels`) };
  }
  const parsed = parseJson(text);
  return parsed.ok ? parsed : { ok: false, response: parseErrorResponse() };
}

/** Parses one message's text; undefined on malformed JSON. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
