/**
 * MCP revision 2026-07-28: stateless. No handshake; every request carries the
 * `_meta` envelope; `server/discover` replaces initialize; every result has
 * `resultType`; cacheable results carry `ttlMs` and `cacheScope`; change
 * notifications flow only on `subscriptions/listen`; a missing resource is
 * -32602. `initialize`, `ping`, `logging/setLevel`, `resources/subscribe` and
 * `resources/unsubscribe` were removed (2026-07-28 changelog), so they are
 * absent from this registry and answer -32601.
 */

import { isPerCaller } from '../../core/audience.js';
import { isMissingClientCapabilityError } from '../../core/input.js';
import { derive, type Encoded, encodeOnce, isEncoded } from '../../jsonrpc/encoded.js';
import { ErrorCode, ProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcErrorObject } from '../../jsonrpc/messages.js';
import {
  encodeCapabilities,
  encodeErrorWith,
  encodeImplementation,
  LEGACY_LANES,
  requestEvent,
  SHAPE_2025_11_25,
  sharedHandlers,
} from '../rev2025-11-25/index.js';
import type { Lane, MethodHandler, Revision, ServerDescription, Wire } from '../revision.js';
import { checkParamHeaders, http } from './http.js';
import { INPUT_METHODS, withInput } from './input-required.js';
import { listen } from './listen.js';
import { META_KEYS } from './meta.js';
import { createStateCodec, type StateCodec } from './request-state.js';
import { SHAPE } from './shape.js';
import { TASKS_EXTENSION, taskCall, taskMethods } from './tasks.js';

export const VERSION = '2026-07-28';

/** Results that must carry cache hints (2026-07-28 server/utilities/caching). */
const CACHEABLE = new Set([
  'server/discover',
  'prompts/list',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  // SEP-2640: Skills-extension results are CacheableResult too. The SEP's
  // text gives resources/directory/read no cache hints, but the official SDK's
  // SkillsClient requires them; extra fields are allowed, so both are satisfied.
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/** The `_meta` of a result that brings none of its own: the server's identity. */
function encodeServerMeta(server: ServerDescription): Wire {
  return Object.freeze({ [META_KEYS.serverInfo]: Object.freeze(encodeImplementation(server.info, SHAPE_2025_11_25)) });
}

/** {@link encodeServerMeta}, made once per server. */
function serverMeta(server: Encoded<ServerDescription>): Wire {
  return derive(server, encodeServerMeta, encodeServerMeta);
}

/**
 * Adds `resultType`, the server's identity in `_meta` (basic/index §_meta:
 * SHOULD be on every result) and, for cacheable methods, the cache hints.
 * The envelope depends only on the server and the result, so a stable result
 * (a list page, the same for every request of a catalogue version) is wrapped
 * once per server and its wrapper is stable too.
 */
function modern(method: string, handler: MethodHandler): MethodHandler {
  const cacheable = CACHEABLE.has(method);

  /**
   * Adds the envelope to `wire` in place, after the result's own keys (a
   * `_meta` of its own keeps its place), as `{ ...result, resultType, _meta }`
   * would. `forCaller`: the answer was made for its caller (core/audience.ts
   * `perCaller`), decided where it was made.
   */
  function envelop(wire: Wire, server: Encoded<ServerDescription>, forCaller: boolean): Wire {
    const own = wire._meta as Wire | undefined;
    // An InputRequiredResult names its own type, and is no answer to cache.
    const complete = wire.resultType === undefined;
    if (complete) wire.resultType = 'complete';
    wire._meta = own === undefined ? serverMeta(server) : { ...own, ...serverMeta(server) };
    if (cacheable && complete) {
      wire.ttlMs = server.cache.ttlMs;
      // server/utilities/caching: "public" may be served across authorization contexts; an
      // answer another caller may be given otherwise (audiences, a principal) is "private".
      wire.cacheScope = forCaller ? 'private' : server.cache.cacheScope;
    }
    return wire;
  }

  /** The envelopes of one encoded result, one per server. */
  const envelopes = (): WeakMap<ServerDescription, Encoded<Wire>> => new WeakMap();

  // Every handler of this registry builds a result for its request alone
  // unless it is encoded (shared, frozen): only a shared one is copied, and
  // that copy is encoded and kept with it.
  function wrap(result: Wire, server: Encoded<ServerDescription>): Wire {
    const forCaller = isPerCaller(result);
    if (!isEncoded(result)) return envelop(result, server, forCaller);
    const byServer = derive(result, envelopes, envelopes);
    let wire = byServer.get(server);
    if (!wire) {
      wire = encodeOnce(envelop({ ...result }, server, forCaller));
      byServer.set(server, wire);
    }
    return wire;
  }

  // Not an async function: one would keep `params` until the handler settles,
  // and a listen request stays open for as long as the client likes.
  return (params, ctx) => handler(params, ctx).then((result) => wrap(result, ctx.server));
}

/** The Skills extension's id (SEP-2640), declared in `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

const discover: MethodHandler = async (_params, { engine, server }) => {
  const extensions = { ...server.extensions };
  // SEP-2640: settings inline, `directoryRead` only when resources/directory/read is served.
  if (engine.features.skills) extensions[SKILLS_EXTENSION] = engine.features.skills.directoryRead ? { directoryRead: true } : {};
  // SEP-2663 §Capability Negotiation: no settings; an empty object says the server supports it.
  if (engine.features.tasks) extensions[TASKS_EXTENSION] = {};
  const result: Record<string, unknown> = {
    supportedVersions: server.supportedVersions,
    capabilities: encodeCapabilities(engine.features, extensions),
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return result;
};

/** The requestState codec of a server, made once (its key and lifetime come from createServer). */
function codecOf(ctx: Parameters<MethodHandler>[1]): StateCodec {
  return derive(ctx.server, createStateCodec, (server) => createStateCodec(server.requestState.secret, server.requestState.ttlMs));
}

/**
 * tools/call over Streamable HTTP: the tool's `Mcp-Param-*` headers must say
 * what its arguments say, or the request is refused with 400 and -32020
 * before the tool runs (streamable-http §Server Behavior for Custom Headers).
 * Every round of an input-required call is checked, since each is a request.
 */
function withParamHeaders(handler: MethodHandler): MethodHandler {
  return async (params, ctx) => {
    const { headers } = ctx.facts;
    if (headers && typeof params.name === 'string') {
      const problem = checkParamHeaders(headers, await ctx.engine.mirroredParams(params.name), params.arguments);
      if (problem !== undefined) throw new ProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${problem}`);
    }
    return handler(params, ctx);
  };
}

const handlers = new Map<string, MethodHandler>();
for (const [method, shared] of sharedHandlers(SHAPE)) {
  // A tools/call may become a task once its input-required rounds are done (SEP-2663 §Task Creation).
  const own = method === 'tools/call' ? taskCall(shared, () => revision) : shared;
  const handler = INPUT_METHODS.has(method) ? withInput(method, own, codecOf) : own;
  handlers.set(method, modern(method, method === 'tools/call' ? withParamHeaders(handler) : handler));
}
handlers.set('server/discover', modern('server/discover', discover));
handlers.set('subscriptions/listen', modern('subscriptions/listen', listen));
for (const [method, handler] of taskMethods()) handlers.set(method, modern(method, handler));

/**
 * A listen request (basic/patterns/subscriptions) stays open as long as the
 * client likes, holding next to nothing: the transports give it a cap of its
 * own instead of a place among the requests that build answers. A
 * cancellation is control, as in the session revisions (over stdio; over
 * HTTP closing the stream cancels).
 */
const lanes: ReadonlyMap<string, Lane> = new Map<string, Lane>([...LEGACY_LANES, ['subscriptions/listen', 'stream']]);

const legacyEncode = encodeErrorWith(ErrorCode.InvalidParams);

/**
 * A missing resource is -32602 with `data.uri` (server/resources §Error
 * Handling). 2026-07-28 basic/index §Error Codes forbids -32002 and any
 * undefined code in -32020..-32099, so such codes from a provider are mapped.
 */
function encodeError(error: unknown, logger: Parameters<Revision['encodeError']>[1]): JsonRpcErrorObject {
  // basic/index §Error Codes: -32021 names the capabilities the request needs (and is 400 over HTTP).
  if (isMissingClientCapabilityError(error)) {
    const requiredCapabilities = error.capabilities ?? Object.fromEntries(error.required.map((capability) => [capability, {}]));
    return { code: ErrorCode.MissingRequiredClientCapability, message: error.message, data: { requiredCapabilities } };
  }
  const wire = legacyEncode(error, logger);
  if (wire.code === ErrorCode.ResourceNotFound) return { ...wire, code: ErrorCode.InvalidParams };
  const defined: number[] = [ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion];
  if (wire.code <= -32020 && wire.code >= -32099 && !defined.includes(wire.code)) {
    logger.error(`A provider used the reserved error code ${wire.code}`, error);
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  }
  return wire;
}

export const revision: Revision = {
  version: VERSION,
  http,
  methods: handlers,
  lanes,
  encodeError,
  encodeEvent: () => undefined,
  encodeRequestEvent: requestEvent,
};

export { headerMismatch, METADATA_HEADERS, readMetadataHeader } from './http.js';
export { META_KEYS, type RequestMeta, readRequestMeta } from './meta.js';
