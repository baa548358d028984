/**
 * The 2025-06-18 method registry, built from a {@link Shape} so that
 * 2025-11-25 can reuse it with icons switched on.
 */

import { isPerCaller, perCaller } from '../../core/audience.js';
import type { Principal } from '../../core/context.js';
import { LOG_LEVELS, type LogLevel } from '../../core/context.js';
import type { Engine, Features } from '../../core/engine.js';
import { isToolArgumentsError } from '../../core/errors.js';
import type { CallToolResult, Completion, Prompt, PromptResult, Resource, ResourceTemplate, Tool } from '../../core/model.js';
import type { Page } from '../../core/paginate.js';
import { derive, type Encoded, encodeOnce, isEncoded } from '../../jsonrpc/encoded.js';
import { InvalidParamsError, MethodNotFoundError } from '../../jsonrpc/errors.js';
import { checkSubscriptionUri, type Lane, type MethodHandler, type Wire } from '../revision.js';
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
 * A method is served only when the server has the feature behind it, the one
 * it declares as a capability (core/engine.ts `Features`; 2025-06-18
 * server/prompts, server/resources, server/tools, server/utilities/completion
 * §Capabilities; SEP-2640 for the Skills extension): otherwise -32601, after
 * its params are read and before the engine is called.
 */
function served(feature: unknown, method: string): void {
  if (!feature) throw new MethodNotFoundError(method);
}

/** A list method: its cursor read, its feature checked, the engine's page encoded. */
function listing<T>(
  method: string,
  feature: (features: Features) => unknown,
  list: (engine: Engine, cursor: string | undefined, principal: Principal | undefined) => Promise<Page<T>>,
  page: (page: Page<T>) => Wire,
): [string, MethodHandler] {
  return [
    method,
    async (params, { engine, principal }) => {
      const cursor = optionalString(params, 'cursor');
      served(feature(engine.features), method);
      return page(await list(engine, cursor, principal));
    },
  ];
}

/** tools/call: a tool's bad arguments are -32602, or from 2025-11-25 on an `isError` result (`Shape.toolArgumentErrors`). */
function callTool(shape: Shape): MethodHandler {
  return async (params, ctx) => {
    const name = requireString(params, 'name');
    const args = optionalObject(params, 'arguments') ?? {};
    served(ctx.engine.features.tools, 'tools/call');
    try {
      return encodeToolResult(await ctx.engine.callTool(name, args, ctx), shape);
    } catch (error) {
      const refused = shape.toolArgumentErrors === 'result' ? refusal(error) : undefined;
      if (refused) return encodeToolResult(refused, shape);
      throw error;
    }
  };
}

/**
 * The `isError` result that answers arguments the tool refused, where a
 * revision answers them with a result (2025-11-25 server/tools §Error
 * Handling: "Input validation errors"); undefined for any other error.
 */
export function refusal(error: unknown): CallToolResult | undefined {
  return isToolArgumentsError(error) ? { content: [{ type: 'text', text: error.message }], isError: true } : undefined;
}

/** The handlers that read one item (a prompt, a completion, a skill, a resource). */
function getters(shape: Shape): Array<[string, MethodHandler]> {
  const promptResult = encoder((result: PromptResult) => encodePromptResult(result, shape));
  return [
    [
      'prompts/get',
      // Not async: the engine's promise carries the result, one turn and one promise less per get.
      (params, ctx) => {
        try {
          const name = requireString(params, 'name');
          const args = stringMap(params.arguments, 'arguments');
          served(ctx.engine.features.prompts, 'prompts/get');
          return ctx.engine.getPrompt(name, args, ctx).then(promptResult);
        } catch (error) {
          return Promise.reject(error);
        }
      },
    ],
    [
      'completion/complete',
      (params, ctx) => {
        try {
          const { ref, argument, context } = decodeCompletion(params);
          served(ctx.engine.features.completions, 'completion/complete');
          return ctx.engine.complete(ref, argument, context, ctx).then(completionResult);
        } catch (error) {
          return Promise.reject(error);
        }
      },
    ],
    [
      'skills/get',
      async (params, { engine, principal }) => {
        const uri = requireString(params, 'uri');
        served(engine.features.skills, 'skills/get');
        const entry = await engine.getSkill(uri, principal);
        return sameScope({ skill: encodeSkill(entry) }, entry);
      },
    ],
    [
      'resources/read',
      async (params, ctx) => {
        const uri = requireString(params, 'uri');
        served(ctx.engine.features.resources, 'resources/read');
        const result = await ctx.engine.readResource(uri, ctx);
        const wire: Wire = { contents: result.contents.map(encodeContents) };
        if (result._meta) wire._meta = result._meta;
        return sameScope(wire, result);
      },
    ],
  ];
}

/**
 * Handlers for the methods every revision serves in the same way, returning
 * bare results; 2026-07-28 wraps these with `resultType` and cache hints.
 */
export function sharedHandlers(shape: Shape): Map<string, MethodHandler> {
  const directoryPage = lister('resources', (r: Resource) => encodeResource(r, shape));
  return new Map<string, MethodHandler>([
    listing(
      'prompts/list',
      (f) => f.prompts,
      (engine, cursor, principal) => engine.listPrompts(cursor, principal),
      lister('prompts', (p: Prompt) => encodePrompt(p, shape)),
    ),
    listing(
      'tools/list',
      (f) => f.tools,
      (engine, cursor, principal) => engine.listTools(cursor, principal),
      lister('tools', (t: Tool) => encodeTool(t, shape)),
    ),
    ['tools/call', callTool(shape)],
    listing(
      'resources/list',
      (f) => f.resources,
      (engine, cursor, principal) => engine.listResources(cursor, principal),
      lister('resources', (r: Resource) => encodeResource(r, shape)),
    ),
    listing(
      'resources/templates/list',
      (f) => f.resources,
      (engine, cursor, principal) => engine.listResourceTemplates(cursor, principal),
      lister('resourceTemplates', (t: ResourceTemplate) => encodeTemplate(t, shape)),
    ),
    listing(
      'skills/list',
      (f) => f.skills,
      (engine, cursor, principal) => engine.listSkills(cursor, principal),
      lister('skills', encodeSkill),
    ),
    [
      'resources/directory/read',
      async (params, { engine, principal }) => {
        const uri = requireString(params, 'uri');
        const cursor = optionalString(params, 'cursor');
        served(engine.features.skills?.directoryRead, 'resources/directory/read');
        return directoryPage(await engine.readDirectory(uri, cursor, principal));
      },
    ],
    ...getters(shape),
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
    served(engine.features.resources?.subscribe, 'resources/subscribe');
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
    served(engine.features.resources?.subscribe, 'resources/unsubscribe');
    session?.subscriptions.delete(requireString(params, 'uri'));
    return {};
  });
  // server/utilities/logging: the session's least severe level, for the
  // requests of the session from now on; an unknown level is -32602. Without
  // the logging capability the method is not served (-32601).
  handlers.set('logging/setLevel', async (params, { engine, session }) => {
    served(engine.features.logging, 'logging/setLevel');
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
