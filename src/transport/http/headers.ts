/**
 * Header names and header-value helpers of the Streamable HTTP transport.
 * Names are compared case-insensitively by the `Headers` API; values are
 * case-sensitive (2026-07-28 basic/transports/streamable-http §Case
 * Sensitivity).
 */

/** Request and response header names, as the spec spells them. */
export const HEADER = {
  protocolVersion: 'MCP-Protocol-Version',
  sessionId: 'Mcp-Session-Id',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  lastEventId: 'Last-Event-ID',
  accept: 'Accept',
  contentType: 'Content-Type',
  origin: 'Origin',
  host: 'Host',
  authorization: 'Authorization',
  wwwAuthenticate: 'WWW-Authenticate',
  allow: 'Allow',
} as const;

/** Media types the transport speaks. */
export const MEDIA = {
  json: 'application/json',
  sse: 'text/event-stream',
} as const;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** Visible ASCII plus space and tab: what may appear in a plain header value. */
const PLAIN_VALUE = /^[\x20-\x7e\t]*$/;

/** The result of reading a metadata header: its decoded value, absent, or malformed. */
export type HeaderValue = { kind: 'absent' } | { kind: 'invalid'; reason: string } | { kind: 'value'; value: string };

/**
 * Reads an MCP metadata header (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`).
 * Surrounding whitespace is dropped (RFC 9110 §5.5: OWS is not part of the
 * value), and a value written as `=?base64?…?=` is decoded from Base64 UTF-8
 * before it is compared with the body (2026-07-28 streamable-http §Value
 * Encoding). A sentinel that is not valid Base64 of valid UTF-8 is invalid.
 */
export function readMetadataHeader(headers: { get(name: string): string | null }, name: string): HeaderValue {
  const raw = headers.get(name);
  if (raw === null) return { kind: 'absent' };
  const value = raw.trim();
  const encoded = BASE64_SENTINEL.exec(value);
  if (encoded) {
    const base64 = encoded[1] as string;
    if (base64.length % 4 !== 0) return { kind: 'invalid', reason: `${name} carries malformed Base64` };
    try {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return { kind: 'value', value: UTF8.decode(bytes) };
    } catch {
      return { kind: 'invalid', reason: `${name} carries Base64 that is not UTF-8 text` };
    }
  }
  if (value.startsWith('=?base64?')) return { kind: 'invalid', reason: `${name} carries a malformed Base64 sentinel` };
  if (!PLAIN_VALUE.test(value)) return { kind: 'invalid', reason: `${name} carries characters that are not allowed in a header value` };
  return { kind: 'value', value };
}

/** What the client's `Accept` header allows. A missing header allows anything. */
export interface Acceptable {
  json: boolean;
  sse: boolean;
}

/** The last `Accept` value parsed: clients send the same one on every request. */
let lastAccept: { header: string; parsed: Acceptable } | undefined;

/** Parses `Accept` into the two media types this transport can answer with. */
export function parseAccept(header: string | null): Acceptable {
  if (header === null || header.trim() === '') return { json: true, sse: true };
  if (lastAccept?.header === header) return { ...lastAccept.parsed };
  const parsed = parseAcceptValue(header);
  lastAccept = { header, parsed };
  return { ...parsed };
}

function parseAcceptValue(header: string): Acceptable {
  const types = header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      // "q=0" means "not acceptable" (RFC 9110 §12.4.2).
      const refused = params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
      return refused ? '' : type;
    })
    .filter(Boolean);
  const has = (...candidates: string[]): boolean => types.some((t) => candidates.includes(t));
  return {
    json: has(MEDIA.json, 'application/*', '*/*'),
    sse: has(MEDIA.sse, 'text/*', '*/*'),
  };
}

/** True when the request body is declared as JSON (parameters such as charset allowed). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  return header.split(';')[0]?.trim().toLowerCase() === MEDIA.json;
}
