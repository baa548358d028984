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
  // What nearly every client sends, settled without splitting and lowercasing (per request).
  if (header === MEDIA.json) return true;
  return header.split(';')[0]?.trim().toLowerCase() === MEDIA.json;
}
