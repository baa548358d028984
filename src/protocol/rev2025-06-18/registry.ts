/**
 * The 2025-06-18 method registry, built from a {@link Shape} so that
 * 2025-11-25 can reuse it with icons switched on.
 */

import { isPerCaller, perCaller } from '../../core/audience.js';
import { LOG_LEVELS, type LogLevel } from '../../core/context.js';
import type { EngineEvent } from '../../core/engine.js';
import { isToolArgumentsError } from '../../core/errors.js';
import type { InputRequest } from '../../core/input.js';
import type { Completion, Prompt, PromptResult, Resource, ResourceTemplate, Tool } from '../../core/model.js';
import type { Page } from '../../core/paginate.js';
import { derive, type Encoded, encodeOnce, isEncoded } from '../../jsonrpc/encoded.js';
import { InvalidParamsError, MethodNotFoundError } from '../../jsonrpc/errors.js';
import type { JsonRpcNotification } from '../../jsonrpc/messages.js';
import { checkSubscriptionUri, type Lane, type MethodHandler, type RequestEvent, type Wire } from '../revision.js';
import { decodeCompletion, optionalObject, optionalString, requireString, stringMap } from './decode.js';
import {
  encodeCapabilities,
  encodeContents,
  encodeImplementation,
  encodePrompt,
  encodePromptResult,
  encodeResource,
  encodeSkill,
  encodeTemplate,
  encodeTool,
  encodeToolResult,
  type Shape,
} from './encode.js';

/**
 * Encodes a value the core shares between requests (a list page, a fixed
 * prompt's result, a remembered completion answer) once per encoder, and the
 * result is shared too, so the transports serialize it once. Anything else is
 * encoded for its request alone. An answer the core made for its caller
 * (core/audience.ts `perCaller`) stays one in its wire form.
 */
function encoder<K extends object>(encode: (value: K) => Wire): (value: K) => Wire {
  const once = (value: K): Encoded<Wire> => encodeOnce(encode(value));
  return (value) => sameScope(isEncoded(value) ? derive(value, encode, once) : encode(value), value);
}

/** `wire`, marked as its caller's answer when `answer`, what it encodes, is. */
function sameScope(wire: Wire, answer: object): Wire {
  return isPerCaller(answer) ? perCaller(wire) : wire;
}

/** A list page's result (and per shape: each registry has its own encoders). */
function lister<T>(key: string, encode: (item: T) => Wire): (page: Page<T>) => Wire {
  return encoder((page: Page<T>) => {
    const result: Wire = { [key]: Object.freeze(page.items.map((item) => encode(item))) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  });
}

const completionResult = encoder((completion: Completion): Wire => {
  const wire: Wire = { values: completion.values };
  if (completion.total !== undefined) wire.total = completion.total;
  if (completion.hasMore !== undefined) wire.hasMore = completion.hasMore;
  return { completion: wire };
});

/**
 * Handlers for the methods every revision serves in the same way, returning
 * bare results; 2026-07-28 wraps these with `resultType` and cache hints.
 */
export function sharedHandlers(shape: Shape): Map<string, MethodHandler> {
  const promptPage = lister('prompts', (p: Prompt) => encodePrompt(p, shape));
  const resourcePage = lister('resources', (r: Resource) => encodeResource(r, shape));
  const templatePage = lister('resourceTemplates', (t: ResourceTemplate) => encodeTemplate(t, shape));
  const toolPage = lister('tools', (t: Tool) => encodeTool(t, shape));
  const skillPage = lister('skills', encodeSkill);
  const directoryPage = lister('resources', (r: Resource) => encodeResource(r, shape));
  const promptResult = encoder((result: PromptResult) => encodePromptResult(result, shape));
  return new Map<string, MethodHandler>([
    ['prompts/list', async (params, { engine, principal }) => promptPage(await engine.listPrompts(optionalString(params, 'cursor'), principal))],
    [
      'prompts/get',
      async (params, ctx) => {
        const name = requireString(params, 'name');
        const args = stringMap(params.arguments, 'arguments');
        const result = await ctx.engine.getPrompt(name, args, ctx);
        return promptResult(result);
      },
    ],
    ['tools/list', async (params, { engine, principal }) => toolPage(await engine.listTools(optionalString(params, 'cursor'), principal))],
    [
      'tools/call',
      async (params, ctx) => {
        const name = requireString(params, 'name');
        const args = optionalObject(params, 'arguments') ?? {};
        try {
          return encodeToolResult(await ctx.engine.callTool(name, args, ctx), shape);
        } catch (error) {
          if (shape.toolArgumentErrors === 'result' && isToolArgumentsError(error)) {
            return encodeToolResult({ content: [{ type: 'text', text: error.message }], isError: true }, shape);
          }
          throw error;
        }
      },
    ],
    [
      'completion/complete',
      async (params, ctx) => {
        const { ref, argument, context } = decodeCompletion(params);
        return completionResult(await ctx.engine.complete(ref, argument, context, ctx));
      },
    ],
    ['resources/list', async (params, { engine, principal }) => resourcePage(await engine.listResources(optionalString(params, 'cursor'), principal))],
    [
      'resources/templates/list',
      async (params, { engine, principal }) => templatePage(await engine.listResourceTemplates(optionalString(params, 'cursor'), principal)),
    ],
    ['skills/list', async (params, { engine, principal }) => skillPage(await engine.listSkills(optionalString(params, 'cursor'), principal))],
    [
      'skills/get',
      async (params, { engine, principal }) => {
        const entry = await engine.getSkill(requireString(params, 'uri'), principal);
        return sameScope({ skill: encodeSkill(entry) }, entry);
      },
    ],
    [
      'resources/directory/read',
      async (params, { engine, principal }) =>
        directoryPage(await engine.readDirectory(requireString(params, 'uri'), optionalString(params, 'cursor'), principal)),
    ],
    [
      'resources/read',
      async (params, ctx) => {
        const result = await ctx.engine.readResource(requireString(params, 'uri'), ctx);
        const wire: Wire = { contents: result.contents.map(encodeContents) };
        if (result._meta) wire._meta = result._meta;
        return sameScope(wire, result);
      },
    ],
  ]);
}

/**
 * The lanes of the session revisions (protocol/revision.ts `Lane`): a
 * cancellation (basic/utilities/cancellation) must reach the request it names
 * while that request runs, or before its turn comes, so it never waits.
 */
export const LEGACY_LANES: ReadonlyMap<string, Lane> = new Map<string, Lane>([['notifications/cancelled', 'control']]);

/** The initialize-era registry: shared handlers plus the handshake, ping and subscriptions. */
export function legacyHandlers(shape: Shape): Map<string, MethodHandler> {
  const handlers = sharedHandlers(shape);
  handlers.set('initialize', async (_params, { engine, server, session }) => {
    const result: Wire = {
      protocolVersion: session?.version,
      capabilities: encodeCapabilities(engine.features),
      serverInfo: encodeImplementation(server.info, shape),
    };
    if (server.instructions !== undefined) result.instructions = server.instructions;
    return result;
  });
  handlers.set('ping', async () => ({}));
  // resources/subscribe exists only when the server declared `subscribe`
  // (2025-06-18 server/resources §Subscriptions); otherwise -32601.
  // A session keeps its subscriptions for as long as it lives: they are capped
  // in number and URI length (ServerDescription.subscriptions), over either -32602.
  handlers.set('resources/subscribe', async (params, { engine, session, server }) => {
    if (!engine.features.resources?.subscribe) throw new MethodNotFoundError('resources/subscribe');
    const uri = requireString(params, 'uri');
    checkSubscriptionUri(uri, server.subscriptions, 'uri');
    if (!session || session.subscriptions.has(uri)) return {};
    const { max } = server.subscriptions;
    if (session.subscriptions.size >= max) {
      throw new InvalidParamsError(`A session may hold at most ${max} subscriptions; unsubscribe from one first`, { field: 'uri', max });
    }
    session.subscriptions.add(uri);
    return {};
  });
  handlers.set('resources/unsubscribe', async (params, { engine, session }) => {
    if (!engine.features.resources?.subscribe) throw new MethodNotFoundError('resources/unsubscribe');
    session?.subscriptions.delete(requireString(params, 'uri'));
    return {};
  });
  // server/utilities/logging: the session's least severe level, for the
  // requests of the session from now on; an unknown level is -32602. Without
  // the logging capability the method is not served (-32601).
  handlers.set('logging/setLevel', async (params, { engine, session }) => {
    if (!engine.features.logging) throw new MethodNotFoundError('logging/setLevel');
    const level = requireLogLevel(params.level, 'level');
    if (session) session.logLevel = level;
    return {};
  });
  return handlers;
}

/** `value` as a log level, or -32602 naming `field`. */
export function requireLogLevel(value: unknown, field: string): LogLevel {
  if (typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new InvalidParamsError(`"${field}" must be one of ${LOG_LEVELS.join(', ')}`, { field });
}

/**
 * The notification for something a handler reports about its request: a log
 * message (server/utilities/logging) or progress (basic/utilities/progress).
 * The same in every revision served.
 */
export function requestEvent(event: RequestEvent): JsonRpcNotification {
  if (event.type === 'log') {
    const params: Wire = { level: event.level };
    if (event.logger !== undefined) params.logger = event.logger;
    params.data = event.data;
    return { jsonrpc: '2.0', method: 'notifications/message', params };
  }
  const params: Wire = { progressToken: event.progressToken, progress: event.progress };
  if (event.total !== undefined) params.total = event.total;
  if (event.message !== undefined) params.message = event.message;
  return { jsonrpc: '2.0', method: 'notifications/progress', params };
}

/**
 * A question for the client as a request of the server's own (2025-06-18
 * client/elicitation, client/sampling, client/roots). 2025-06-18's
 * elicitation has no `mode` (form is all there is; 2025-11-25 adds it).
 */
export function inputRequestWith(modes: boolean): (request: InputRequest) => { method: string; params: Record<string, unknown> } {
  return (request) => {
    const params: Record<string, unknown> = { ...(request.params ?? {}) };
    if (request.method === 'elicitation/create' && !modes) delete params.mode;
    return { method: request.method, params };
  };
}

/**
 * The notification a legacy session gets for an engine event. Resource
 * updates are filtered per session by the caller, which knows the
 * subscriptions.
 */
export function legacyEvent(event: EngineEvent): JsonRpcNotification {
  switch (event.type) {
    case 'promptsListChanged':
      return { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' };
    case 'toolsListChanged':
      return { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    case 'resourcesListChanged':
      return { jsonrpc: '2.0', method: 'notifications/resources/list_changed' };
    case 'resourceUpdated':
      return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri } };
  }
}
