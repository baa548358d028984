/**
 * CORS for browser clients on allowed origins (such as the MCP Inspector at
 * http://localhost:6274). The Origin allow-list has already decided who may
 * call; this only lets such a page read the answers and send the MCP headers
 * (Fetch standard §3.2, CORS protocol). Requests without `Origin` (every
 * non-browser client) get no CORS headers.
 */
import { HEADER } from './headers.js';
import type { HttpReply, HttpRequest } from './request.js';

/** Request headers an MCP client sends (2025-06-18 and 2026-07-28 transports). */
const ALLOWED_HEADERS = [
  HEADER.contentType,
  HEADER.accept,
  HEADER.authorization,
  HEADER.protocolVersion,
  HEADER.sessionId,
  HEADER.method,
  HEADER.name,
  HEADER.lastEventId,
].join(', ');

/** Response headers a page must be able to read (ETag: a route's validator, e.g. the discovery index's, is not CORS-safelisted). */
const EXPOSED_HEADERS = [HEADER.sessionId, HEADER.wwwAuthenticate, HEADER.protocolVersion, 'ETag'].join(', ');

/** The answer to a preflight (`OPTIONS` with an allowed `Origin`). */
export function preflight(request: HttpRequest, origin: string, methods: string): HttpReply {
  // Echo what the page asks for (e.g. Mcp-Param-* tool headers), else the MCP set.
  const requested = request.headers.get('Access-Control-Request-Headers');
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': requested ?? ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    },
  };
}

/** Lets a page on an allowed `origin` read `reply`. */
export function withCors(reply: HttpReply, origin: string): HttpReply {
  const headers: Record<string, string> = { ...reply.headers };
  const vary = Object.keys(headers).find((name) => name.toLowerCase() === 'vary');
  if (vary !== undefined) {
    headers[vary] = `${headers[vary]}, Origin`;
  } else {
    headers.Vary = 'Origin';
  }
  headers['Access-Control-Allow-Origin'] = origin;
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  return { ...reply, headers };
}
