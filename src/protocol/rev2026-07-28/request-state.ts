/**
 * The `requestState` of an InputRequiredResult (2026-07-28 basic/patterns/mrtr):
 * the answers a request has collected so far, which the client echoes on its
 * retry. The client holds it, so it is attacker-controlled: it is sealed with
 * HMAC-SHA256 (Web Crypto, no crypto of our own) and bound to the method, a
 * digest of the request's params and an expiry; anything else is refused with
 * -32602, as the spec's SHOULDs and the official SDK's codec do. When the
 * request was authenticated, the state is also bound to the caller (its
 * token's client and subject, core/context.ts `principalId`;
 * basic/patterns/mrtr: SHOULD bind the principal), so one caller's state is
 * refused for another. Any process
 * that holds the same key can take the retry (replicas share it).
 *
 *   v1.<base64url(payload JSON)>.<base64url(mac)>
 */

import { InvalidParamsError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/messages.js';
import { trimEndOf } from '../../util/trim.js';

const PREFIX = 'v1.';
const utf8 = new TextEncoder();

/** What a sealed state says. */
interface Payload {
  /** The method it was issued for. */
  m: string;
  /** SHA-256 of the request's own params (base64url). */
  d: string;
  /** Expiry, ms since the epoch. */
  e: number;
  /** The answers so far, by key. */
  a: Record<string, Record<string, unknown>>;
  /** The caller it was issued to (`principalId`), when the request was authenticated. */
  s?: string;
}

export interface StateCodec {
  seal(method: string, params: Record<string, unknown>, answers: Record<string, Record<string, unknown>>, subject?: string): Promise<string>;
  /** The answers a state carries, or -32602 when it was altered, expired, or issued for another request or caller. */
  open(state: unknown, method: string, params: Record<string, unknown>, subject?: string): Promise<Record<string, Record<string, unknown>>>;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return trimEndOf(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_'), '=');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted, so equal params give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The params a retry repeats: all but the envelope and the input it carries. */
async function digest(params: Record<string, unknown>): Promise<string> {
  const { _meta: _m, inputResponses: _r, requestState: _s, ...own } = params;
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(canonical(own)))));
}

const INVALID = 'Invalid or expired requestState';

/** A codec with `secret` (at least 32 bytes), states valid for `ttlMs`. */
export function createStateCodec(secret: Uint8Array, ttlMs: number, now: () => number = Date.now): StateCodec {
  const key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return {
    async seal(method, params, answers, subject) {
      const payload: Payload = { m: method, d: await digest(params), e: now() + ttlMs, a: answers };
      if (subject !== undefined) payload.s = subject;
      const body = toBase64Url(utf8.encode(JSON.stringify(payload)));
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, utf8.encode(body)));
      return `${PREFIX}${body}.${toBase64Url(mac)}`;
    },
    async open(state, method, params, subject) {
      const refuse = (): never => {
        throw new InvalidParamsError(INVALID, { field: 'requestState' });
      };
      if (typeof state !== 'string' || !state.startsWith(PREFIX)) return refuse();
      const [body, macText, extra] = state.slice(PREFIX.length).split('.');
      const mac = macText === undefined || extra !== undefined ? undefined : fromBase64Url(macText);
      // Verified in constant time by Web Crypto, before anything in the payload is read.
      if (body === undefined || !mac || !(await crypto.subtle.verify('HMAC', await key, mac, utf8.encode(body)))) return refuse();
      const bytes = fromBase64Url(body);
      let payload: Payload;
      try {
        payload = JSON.parse(new TextDecoder().decode(bytes)) as Payload;
      } catch {
        return refuse();
      }
      if (payload.m !== method || payload.e < now() || payload.s !== subject || payload.d !== (await digest(params)) || !isPlainObject(payload.a))
        return refuse();
      return payload.a;
    },
  };
}
