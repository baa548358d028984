/**
 * What a session keeps of its client's `initialize` (2025-06-18
 * basic/lifecycle §Initialization): the capabilities the server can use,
 * and the client's name, title and version cut short. Nothing else a client
 * sends there is kept: a session lives for its idle time (30 minutes by
 * default, 1,000 at once), in this process and, for replicas, in Redis, and
 * `initialize` may carry megabytes (80 sessions of 3.9 MB of capabilities
 * held about 600 MiB of a replica and 320 MiB of Redis when kept whole).
 *
 * The budget: what is kept of one handshake serializes to at most
 * {@link HANDSHAKE_BUDGET_BYTES} (1 KiB) of JSON, so 1,000 sessions hold at
 * most 1 MiB of it. Real clients send a name and a version of a few dozen
 * bytes and a handful of capability flags: the cut never touches them.
 */
import { isPlainObject } from '../jsonrpc/messages.js';

/** Most bytes of JSON one session's kept handshake takes (capabilities and client info). */
export const HANDSHAKE_BUDGET_BYTES = 1024;
/** Most bytes of JSON kept of each client info string: three of them and the capabilities stay within the budget. */
export const INFO_STRING_BYTES = 256;

/**
 * The client capabilities the server uses or a handler may ask about
 * (`ctx.client.capabilities`), as a tree of the members each may declare
 * (2025-11-25 schema `ClientCapabilities`): `{}` keeps a member's presence
 * (its settings are the client's own business), `true` a boolean flag.
 * `experimental` and `tasks` are left out: nothing here uses them.
 */
type Known = { readonly [member: string]: Known | true };
const KNOWN_CAPABILITIES: Known = {
  elicitation: { form: {}, url: {} },
  sampling: { context: {}, tools: {} },
  roots: { listChanged: true },
};

/** The members of `value` that `known` names, each as the tree says; nothing else. */
function project(value: Record<string, unknown>, known: Known): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [member, shape] of Object.entries(known)) {
    const given = value[member];
    if (shape === true) {
      if (typeof given === 'boolean') kept[member] = given;
    } else if (isPlainObject(given)) kept[member] = project(given, shape);
  }
  return kept;
}

/** The capabilities kept of an `initialize`'s `capabilities`: at most the known tree, whatever was sent. */
export function keptCapabilities(capabilities: unknown): Record<string, unknown> {
  return isPlainObject(capabilities) ? project(capabilities, KNOWN_CAPABILITIES) : {};
}

/** Bytes a character takes in JSON text (UTF-8, escaped as JSON.stringify escapes it). */
function jsonBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  // \b \t \n \f \r, or \u00XX.
  if (code < 0x20) return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  // A lone surrogate (not a character) is written as \uXXXX.
  if (code >= 0xd800 && code <= 0xdfff) return 6;
  return code < 0x10000 ? 3 : 4;
}

/** `text` cut so that it takes at most `maxBytes` in JSON text (quotes aside), never inside a character. */
export function cutForJson(text: string, maxBytes: number): string {
  // Every UTF-16 unit takes at least one byte: look no further than maxBytes units.
  const head = text.length > maxBytes ? text.slice(0, maxBytes) : text;
  let bytes = 0;
  let end = 0;
  for (const char of head) {
    const size = jsonBytes(char.codePointAt(0) as number);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return head.slice(0, end);
}

/** The client info kept of an `initialize`'s `clientInfo`: its name, title and version strings, each cut short. */
export function keptClientInfo(info: unknown): Record<string, string> | undefined {
  if (!isPlainObject(info)) return undefined;
  const kept: Record<string, string> = {};
  for (const field of ['name', 'title', 'version'] as const) {
    const value = info[field];
    if (typeof value === 'string') kept[field] = cutForJson(value, INFO_STRING_BYTES);
  }
  return kept;
}
