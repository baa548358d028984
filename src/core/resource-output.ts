/**
 * What a resource read returns, as the read's result: text, bytes (sent
 * base64), one contents entry or a whole result (`defineResource`,
 * `defineResourceTemplate`; the skills folder encodes its files' bytes here too).
 */
import type { ReadResourceResult, ResourceContents } from './model.js';

/** What a read function may return: text, bytes, one contents entry, or a full result. */
export type ResourceOutput = string | Uint8Array | ResourceContents | ReadResourceResult;

const BASE64 = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const ASCII = new TextDecoder();

/**
 * Encodes bytes as base64 without node:buffer, so the core stays
 * runtime-neutral. The digits go into bytes, decoded to a string once: the
 * former `btoa` over a binary string took half a second per 3 MiB on Node 20
 * (a 16 MiB resource read held the event loop for nearly three), and built a
 * string as long as the input on the way.
 */
export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o++] = BASE64[n >>> 18] as number;
    out[o++] = BASE64[(n >>> 12) & 63] as number;
    out[o++] = BASE64[(n >>> 6) & 63] as number;
    out[o++] = BASE64[n & 63] as number;
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const n = ((bytes[whole] as number) << 16) | (two ? (bytes[whole + 1] as number) << 8 : 0);
    out[o++] = BASE64[n >>> 18] as number;
    out[o++] = BASE64[(n >>> 12) & 63] as number;
    out[o++] = two ? (BASE64[(n >>> 6) & 63] as number) : 61;
    out[o++] = 61;
  }
  return ASCII.decode(out);
}

/** A read function's output as the read's result, `mimeType` on each entry it makes. */
export function toReadResult(uri: string, mimeType: string | undefined, output: ResourceOutput): ReadResourceResult {
  if (typeof output === 'string') {
    return { contents: [mimeType === undefined ? { uri, text: output } : { uri, mimeType, text: output }] };
  }
  if (output instanceof Uint8Array) {
    const blob = toBase64(output);
    return { contents: [mimeType === undefined ? { uri, blob } : { uri, mimeType, blob }] };
  }
  if ('contents' in output) return output;
  return { contents: [output] };
}
