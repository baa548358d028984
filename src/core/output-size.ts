/**
 * How large a prompt or resource result is on the wire, measured without
 * encoding it when it cannot be over a limit: the engine checks every result
 * against the server's output limits (`maxPromptBytes`, `maxResourceBytes`).
 */
import { ErrorCode, ProtocolError } from '../jsonrpc/errors.js';
import type { Logger } from './context.js';
import type { PromptResult, ReadResourceResult } from './model.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a text. */
const utf8Bytes = (text: string): number => encoder.encode(text).length;
/** An upper bound of a text's UTF-8 bytes that needs no encoding: at most 3 per UTF-16 code unit. */
const utf8Bound = (text: string): number => text.length * 3;

/** UTF-8 bytes of a prompt result's content (texts measured with `text`): texts, base64 data and embedded resources. */
function promptBytes(result: PromptResult, text: (value: string) => number): number {
  let total = 0;
  for (const { content } of result.messages) {
    if (content.type === 'text') total += text(content.text);
    else if (content.type === 'image' || content.type === 'audio') total += content.data.length;
    else if (content.type === 'resource') total += 'text' in content.resource ? text(content.resource.text) : content.resource.blob.length;
    else total += content.uri.length;
  }
  return total;
}

/** Raw bytes of a read's contents: texts as UTF-8 (measured with `text`), blobs decoded from base64. */
function resourceBytes(result: ReadResourceResult, text: (value: string) => number): number {
  let total = 0;
  for (const contents of result.contents) total += 'text' in contents ? text(contents.text) : Math.floor((contents.blob.length * 3) / 4);
  return total;
}

/**
 * The UTF-8 size of a prompt result when it may be over `max` (texts are
 * encoded only when their bound, 3 bytes per UTF-16 code unit, passes it);
 * 0 when it cannot be.
 */
export function promptSizeOver(result: PromptResult, max: number): number {
  return promptBytes(result, utf8Bound) > max ? promptBytes(result, utf8Bytes) : 0;
}

/** {@link promptSizeOver} for a resource read's contents (blobs counted decoded). */
export function resourceSizeOver(result: ReadResourceResult, max: number): number {
  return resourceBytes(result, utf8Bound) > max ? resourceBytes(result, utf8Bytes) : 0;
}

/**
 * The answer to a result over an output cap, whether the provider stopped
 * itself (OutputLimitError) or the engine measured it: a generic -32603, as
 * for any failure on the server's side; the reason goes to the logger.
 */
export function overLimit(logger: Logger, reason: string, answer: string): ProtocolError {
  logger.warn(reason);
  return new ProtocolError(ErrorCode.InternalError, answer);
}
