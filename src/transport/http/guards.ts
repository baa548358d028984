/**
 * The guards every request passes before a `guarded` or `authorized` route
 * (or the 404) sees it, in this order: the shutdown (503 once the handler
 * drains: transport/lifecycle.ts), the `Host` allow-list, then the `Origin`
 * allow-list (DNS rebinding: 2025-06-18 basic/transports §Security Warning),
 * and CORS for pages on allowed origins (cors.ts). What a POST to the MCP
 * endpoint passes besides (media types, the body cap) is the endpoint's
 * (mcp-endpoint.ts).
 */
import { remembering } from '../../util/remember.js';
import { preflight, withCors } from './cors.js';
import { Rejections, reject } from './errors.js';
import { HEADER } from './headers.js';
import type { HttpOptions } from './options.js';
import { createHostCheck, createOriginCheck } from './origin.js';
import type { HttpRequest, Reply, Route } from './request.js';

/** The guards of one handler. */
export interface Guards {
  readonly hostAllowed: (host: string) => boolean;
  readonly originAllowed: (origin: string) => boolean;
  /** The methods a preflight may name. */
  readonly methods: string;
  /** False once the handler drains. */
  serving(): boolean;
}

/**
 * Most header values a check remembers. Every request of a client sends the
 * same `Host` (and a page the same `Origin`); a verdict depends on the value
 * alone, so a remembered one is the one the check would give.
 */
const REMEMBERED = 64;

export function createGuards(options: HttpOptions, methods: string, serving: () => boolean): Guards {
  return {
    hostAllowed: remembering(createHostCheck(options.allowedHosts), REMEMBERED),
    originAllowed: remembering(createOriginCheck(options.allowedOrigins), REMEMBERED),
    methods,
    serving,
  };
}

/** Where a request that passed the guards goes: its route (undefined: none at its path). */
export type Pass = (request: HttpRequest, route: Route | undefined) => Reply;

/** Runs the guards, then `pass`; a page's answer is made readable to it (CORS). */
export function guard(guards: Guards, request: HttpRequest, route: Route | undefined, pass: Pass): Reply {
  if (!guards.serving()) return reject(Rejections.ShuttingDown);
  // DNS-rebinding defence first, before anything else is revealed.
  if (!guards.hostAllowed(request.host)) return reject(Rejections.HostNotAllowed);
  const origin = request.headers.get(HEADER.origin);
  if (origin === null) return pass(request, route);
  if (!guards.originAllowed(origin)) return reject(Rejections.OriginNotAllowed);
  // A browser page on an allowed origin: answer its preflight, and let it read the answers.
  if (request.method === 'OPTIONS') return preflight(request, origin, guards.methods);
  const answer = pass(request, route);
  return answer instanceof Promise ? answer.then((reply) => withCors(reply, origin)) : withCors(answer, origin);
}
