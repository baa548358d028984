/**
 * Param decoders shared by every revision: each checks one field's type and
 * throws -32602 naming the field, so a malformed request never reaches a
 * provider.
 */
import type { CompletionArgument, CompletionContext, CompletionRef } from '../../core/model.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/messages.js';

/** A required string field. */
export function requireString(params: Record<string, unknown>, field: string): string {
  const value = params[field];
  if (typeof value !== 'string') throw new InvalidParamsError(`"${field}" must be a string`, { field });
  return value;
}

/** An optional string field. */
export function optionalString(params: Record<string, unknown>, field: string): string | undefined {
  const value = params[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidParamsError(`"${field}" must be a string`, { field });
  return value;
}

/** An optional object field. */
export function optionalObject(params: Record<string, unknown>, field: string): Record<string, unknown> | undefined {
  const value = params[field];
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw new InvalidParamsError(`"${field}" must be an object`, { field });
  return value;
}

/**
 * A map of string values, such as prompt arguments. Every revision types
 * argument values as strings (`{ [key: string]: string }`).
 */
export function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new InvalidParamsError(`"${field}" must be an object of strings`, { field });
  const out: Record<string, string> = {};
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (typeof entry !== 'string') throw new InvalidParamsError(`"${field}.${key}" must be a string`, { field: `${field}.${key}` });
    out[key] = entry;
  }
  return out;
}

/** The `ref`, `argument` and `context` of a completion/complete request. */
export function decodeCompletion(params: Record<string, unknown>): {
  ref: CompletionRef;
  argument: CompletionArgument;
  context: CompletionContext;
} {
  const ref = params.ref;
  if (!isPlainObject(ref)) throw new InvalidParamsError('"ref" must be an object', { field: 'ref' });
  let decodedRef: CompletionRef;
  if (ref.type === 'ref/prompt') decodedRef = { type: 'prompt', name: requireString(ref, 'name') };
  else if (ref.type === 'ref/resource') decodedRef = { type: 'resource', uri: requireString(ref, 'uri') };
  else throw new InvalidParamsError('"ref.type" must be "ref/prompt" or "ref/resource"', { field: 'ref.type' });

  const argument = params.argument;
  if (!isPlainObject(argument)) throw new InvalidParamsError('"argument" must be an object', { field: 'argument' });
  const context = optionalObject(params, 'context');
  return {
    ref: decodedRef,
    argument: { name: requireString(argument, 'name'), value: requireString(argument, 'value') },
    context: { arguments: stringMap(context?.arguments, 'context.arguments') },
  };
}
