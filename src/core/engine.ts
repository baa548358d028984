/**
 * The neutral request engine: joins the providers, keeps their catalogues
 * cached between changes, validates requests against those catalogues and
 * answers in neutral terms. It knows no revision and no transport; revision
 * adapters call it and encode what it returns. Its parts, one per kind of
 * provider: prompt-catalogue.ts, resource-catalogue.ts, tool-catalogue.ts,
 * skill-catalogue.ts.
 */
import { createEmitter } from '../util/emitter.js';
import type { CompletionProvider } from './completers.js';
import type { Logger, OutputLimits, RequestContext } from './context.js';
import { silentLogger } from './context.js';
import type { Completion, CompletionArgument, CompletionContext, CompletionRef } from './model.js';
import { type PromptOperations, promptOperations } from './prompt-catalogue.js';
import type { PromptProvider } from './prompts.js';
import { MAX_COMPLETION_VALUES } from './rank.js';
import { type ResourceOperations, resourceOperations } from './resource-catalogue.js';
import type { ResourceProvider } from './resources.js';
import { type SkillOperations, skillOperations } from './skill-catalogue.js';
import type { SkillsProvider } from './skills.js';
import { type ToolOperations, toolOperations } from './tool-catalogue.js';
import type { ToolProvider } from './tools.js';

export type { CompletionProvider } from './completers.js';

/**
 * What the registered providers make the server able to do: the engine's
 * neutral description of itself, from which each revision declares its
 * capabilities and decides which of its methods it serves.
 */
export interface Features {
  prompts?: { listChanged: boolean };
  tools?: { listChanged: boolean };
  resources?: { subscribe: boolean; listChanged: boolean };
  completions: boolean;
  /** Log messages to the client (`ctx.log`); declared as the `logging` capability. */
  logging?: boolean;
  /** The Skills extension, and whether `resources/directory/read` is served. */
  skills?: { directoryRead: boolean };
  /** Some tool may run as a task (core/tasks.ts): 2025-11-25 `tasks`, the 2026-07-28 Tasks extension. */
  tasks?: boolean;
}

/** A change the engine reports to connections. */
export type EngineEvent =
  | { type: 'promptsListChanged' }
  | { type: 'toolsListChanged' }
  | { type: 'resourcesListChanged' }
  | { type: 'resourceUpdated'; uri: string };

export interface EngineOptions {
  prompts?: PromptProvider;
  tools?: ToolProvider;
  resources?: ResourceProvider;
  completions?: CompletionProvider;
  skills?: SkillsProvider;
  /** Items per page of every list method. Default 50. */
  pageSize?: number;
  /** Whether handlers may send log messages to clients. */
  logging?: boolean;
  /** Largest prompt result, in UTF-8 bytes of its content; larger ones fail with -32603. */
  maxPromptBytes?: number;
  /** Largest resource read, in bytes of its raw content; larger ones fail with -32603. */
  maxResourceBytes?: number;
  logger?: Logger;
}

/**
 * The neutral operations every revision adapter maps onto. Lists, gets and
 * reads take the request's principal: a caller sees only what it may use
 * (core/audience.ts), and what it may not is answered as if unknown. A
 * provider that is not registered is an empty one here (nothing listed, every
 * name and URI unknown): which methods the server serves is the revisions'
 * to answer, from `features`.
 */
export interface Engine extends ToolOperations, PromptOperations, ResourceOperations, SkillOperations {
  readonly features: Features;
  /** The output caps, handed to providers with each request (`ctx.limits`). */
  readonly limits: OutputLimits;
  complete(ref: CompletionRef, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion>;
  watch(listener: (event: EngineEvent) => void): () => void;
  /** Stops watching the providers. */
  close(): void;
}

/** The features of a set of providers. */
function featuresOf(options: EngineOptions): Features {
  const { prompts, tools, resources, completions, skills } = options;
  const features: Features = {
    completions: Boolean(completions || prompts?.complete || resources?.complete),
  };
  if (prompts) features.prompts = { listChanged: Boolean(prompts.watch) };
  if (tools) features.tools = { listChanged: Boolean(tools.watch) };
  // Tasks run tools only (2025-11-25 basic/utilities/tasks; SEP-2663 §Supported Methods).
  if (tools?.tasks) features.tasks = true;
  if (options.logging) features.logging = true;
  if (resources) features.resources = { subscribe: Boolean(resources.watch), listChanged: Boolean(resources.watch) };
  if (skills) features.skills = { directoryRead: Boolean(skills.readDirectory) };
  return features;
}

/** Creates the engine for a set of providers: a part per kind of provider, and completion across prompts and resources. */
export function createEngine(options: EngineOptions): Engine {
  const { completions } = options;
  const logger = options.logger ?? silentLogger;
  const pageSize = options.pageSize ?? 50;
  const maxPromptBytes = options.maxPromptBytes ?? Number.POSITIVE_INFINITY;
  const maxResourceBytes = options.maxResourceBytes ?? Number.POSITIVE_INFINITY;
  const limits: OutputLimits = Object.freeze({ maxPromptBytes, maxResourceBytes });
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new TypeError('pageSize must be a positive integer');

  const events = createEmitter<EngineEvent>((error) => logger.error('A change listener failed', error));
  const toolOps = toolOperations(options.tools, pageSize, () => events.emit({ type: 'toolsListChanged' }));
  const promptOps = promptOperations(options.prompts, {
    pageSize,
    maxPromptBytes,
    logger,
    completions,
    changed: () => events.emit({ type: 'promptsListChanged' }),
  });
  const resourceOps = resourceOperations(options.resources, {
    pageSize,
    maxResourceBytes,
    logger,
    completions,
    listChanged: () => events.emit({ type: 'resourcesListChanged' }),
    updated: (uri) => events.emit({ type: 'resourceUpdated', uri }),
  });
  const skillOps = skillOperations(options.skills, pageSize);
  const stops = [toolOps.stop, promptOps.stop, resourceOps.stop, skillOps.stop];

  return {
    features: featuresOf(options),
    limits,
    listTools: toolOps.listTools,
    callTool: toolOps.callTool,
    prepareTool: toolOps.prepareTool,
    taskSupport: toolOps.taskSupport,
    tools: toolOps.tools,
    mirroredParams: toolOps.mirroredParams,
    listPrompts: promptOps.listPrompts,
    getPrompt: promptOps.getPrompt,
    prompts: promptOps.prompts,
    complete(ref, argument, context, ctx) {
      const raw =
        ref.type === 'prompt' ? promptOps.completePrompt(ref.name, argument, context, ctx) : resourceOps.completeResource(ref.uri, argument, context, ctx);
      return raw.then(atMostOnePage);
    },
    listResources: resourceOps.listResources,
    listResourceTemplates: resourceOps.listResourceTemplates,
    readResource: resourceOps.readResource,
    mayRead: resourceOps.mayRead,
    listSkills: skillOps.listSkills,
    getSkill: skillOps.getSkill,
    readDirectory: skillOps.readDirectory,
    watch: (listener) => events.watch(listener),
    close() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** MCP server/utilities/completion: at most 100 values per response. */
function atMostOnePage(raw: Completion): Completion {
  if (raw.values.length <= MAX_COMPLETION_VALUES) return raw;
  return { values: raw.values.slice(0, MAX_COMPLETION_VALUES), total: raw.total ?? raw.values.length, hasMore: true };
}
