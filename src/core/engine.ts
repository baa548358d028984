/**
 * The neutral request engine: joins the providers, keeps their catalogues
 * cached between changes, validates requests against those catalogues and
 * answers in neutral terms. It knows no revision and no transport; revision
 * adapters call it and encode what it returns.
 */
import type { Encoded } from '../jsonrpc/encoded.js';
import { ErrorCode, InvalidParamsError, MethodNotFoundError, ProtocolError } from '../jsonrpc/errors.js';
import { createEmitter } from '../util/emitter.js';
import { audienceKey, mayUse, perCaller, viewOf, visibleTo } from './audience.js';
import { cached, namedCatalogue } from './cached.js';
import type { Awaitable, Logger, OutputLimits, Principal, RequestContext } from './context.js';
import { silentLogger, throwIfCancelled } from './context.js';
import { isOutputLimitError } from './errors.js';
import type {
  Completion,
  CompletionArgument,
  CompletionContext,
  CompletionRef,
  Prompt,
  PromptResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from './model.js';
import { promptSizeOver, resourceSizeOver } from './output-size.js';
import { createPager, type Page, type Pager } from './paginate.js';
import { lacksArguments, requiredArguments } from './prompt-arguments.js';
import type { PromptProvider } from './prompts.js';
import { MAX_COMPLETION_VALUES } from './rank.js';
import type { ResourceProvider } from './resources.js';
import type { SkillEntry, SkillsProvider } from './skills.js';
import { type ToolOperations, toolOperations } from './tool-catalogue.js';
import type { ToolProvider } from './tools.js';

/**
 * Answers completion requests for any reference. Return undefined to fall
 * back to the prompt or resource provider's own `complete`.
 */
export interface CompletionProvider {
  complete(ref: CompletionRef, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Awaitable<Completion | undefined>;
}

/** What the registered providers make the server able to do. */
export interface Features {
  prompts?: { listChanged: boolean };
  tools?: { listChanged: boolean };
  resources?: { subscribe: boolean; listChanged: boolean };
  completions: boolean;
  /** Log messages to the client (`ctx.log`); declared as the `logging` capability. */
  logging?: boolean;
  /** The Skills extension, and whether `resources/directory/read` is served. */
  skills?: { directoryRead: boolean };
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

/** The neutral operations every revision adapter maps onto. */
export interface Engine extends ToolOperations {
  readonly features: Features;
  /** The output caps, handed to providers with each request (`ctx.limits`). */
  readonly limits: OutputLimits;
  /**
   * Lists, gets and reads take the request's principal: a caller sees only
   * what it may use (core/audience.ts), and what it may not is answered as
   * if unknown.
   */
  listPrompts(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Prompt>>>;
  getPrompt(name: string, args: Record<string, string>, ctx: RequestContext): Promise<PromptResult>;
  complete(ref: CompletionRef, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion>;
  listResources(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Resource>>>;
  listResourceTemplates(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<ResourceTemplate>>>;
  readResource(uri: string, ctx: RequestContext): Promise<ReadResourceResult>;
  listSkills(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<SkillEntry>>>;
  getSkill(uri: string, principal?: Principal): Promise<SkillEntry>;
  readDirectory(uri: string, cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Resource>>>;
  /** Whether `principal` may read the resource at `uri` (the resource provider's `mayRead`; true without one). */
  mayRead(uri: string, principal: Principal | undefined): boolean;
  /** The whole prompt catalogue, e.g. for a CLI listing. */
  prompts(): Promise<readonly Prompt[]>;
  watch(listener: (event: EngineEvent) => void): () => void;
  /** Stops watching the providers. */
  close(): void;
}

/** Creates the engine for a set of providers. */
export function createEngine(options: EngineOptions): Engine {
  const { prompts, tools, resources, completions, skills } = options;
  const logger = options.logger ?? silentLogger;
  const pageSize = options.pageSize ?? 50;
  const maxPromptBytes = options.maxPromptBytes ?? Number.POSITIVE_INFINITY;
  const maxResourceBytes = options.maxResourceBytes ?? Number.POSITIVE_INFINITY;
  const limits: OutputLimits = Object.freeze({ maxPromptBytes, maxResourceBytes });
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new TypeError('pageSize must be a positive integer');

  // One pager per list: a client paging while a reload swaps the catalogue finishes on the one it started with.
  const promptPages = createPager(pageSize);
  const resourcePages = createPager(pageSize);
  const templatePages = createPager(pageSize);
  const skillPages = createPager(pageSize);
  const directoryPages = createPager(pageSize, 64);

  const events = createEmitter<EngineEvent>((error) => logger.error('A change listener failed', error));
  // Each build copies the provider's array: a rebuilt catalogue is always a new
  // list to the pagers, even from a provider that changed its array in place,
  // so pages (and their encodings, memoized by identity) are never stale.
  const promptCatalogue = namedCatalogue(prompts && (() => prompts.list()));
  const resourceCatalogue = cached(async () => (resources ? [...(await resources.list())] : []));
  const templateCatalogue = cached(async () => (resources?.templates ? [...(await resources.templates())] : []));
  const skillCatalogue = cached(async () => (skills ? [...(await skills.listSkills())] : []));

  /**
   * The page of what `principal` may see of `list`; a filtered list's cursors
   * are its view's alone, and its pages are answers for that caller.
   */
  function pageFor<T extends object>(pager: Pager, list: readonly T[], cursor: string | undefined, principal: Principal | undefined): Encoded<Page<T>> {
    const visible = visibleTo(list, principal);
    if (visible === list || principal === undefined) return pager.page(list, cursor);
    return perCaller(pager.page(visible, cursor, audienceKey(principal)));
  }

  const toolOps = toolOperations(tools, pageSize, () => events.emit({ type: 'toolsListChanged' }));
  const stops: Array<() => void> = [toolOps.stop];
  if (prompts?.watch) {
    stops.push(
      prompts.watch(() => {
        promptCatalogue.invalidate();
        events.emit({ type: 'promptsListChanged' });
      }),
    );
  }
  if (resources?.watch) {
    stops.push(
      resources.watch((event) => {
        if (event.type === 'listChanged') {
          resourceCatalogue.invalidate();
          templateCatalogue.invalidate();
          events.emit({ type: 'resourcesListChanged' });
        } else {
          events.emit({ type: 'resourceUpdated', uri: event.uri });
        }
      }),
    );
  }

  if (skills?.watch) stops.push(skills.watch(() => skillCatalogue.invalidate()));

  const features: Features = {
    completions: Boolean(completions || prompts?.complete || resources?.complete),
  };
  if (prompts) features.prompts = { listChanged: Boolean(prompts.watch) };
  if (tools) features.tools = { listChanged: Boolean(tools.watch) };
  if (options.logging) features.logging = true;
  if (resources) features.resources = { subscribe: Boolean(resources.watch), listChanged: Boolean(resources.watch) };
  if (skills) features.skills = { directoryRead: Boolean(skills.readDirectory) };

  function needPrompts(method: string): PromptProvider {
    if (!prompts) throw new MethodNotFoundError(method);
    return prompts;
  }
  function needSkills(method: string): SkillsProvider {
    if (!skills) throw new MethodNotFoundError(method);
    return skills;
  }
  function needResources(method: string): ResourceProvider {
    if (!resources) throw new MethodNotFoundError(method);
    return resources;
  }

  /**
   * The answer to a result over an output cap, whether the provider stopped
   * itself (OutputLimitError) or the engine measured it: a generic -32603, as
   * for any failure on the server's side; the reason goes to the logger.
   */
  function overLimit(reason: string, answer: string): ProtocolError {
    logger.warn(reason);
    return new ProtocolError(ErrorCode.InternalError, answer);
  }
  const PROMPT_TOO_LARGE = 'The prompt is larger than this server allows';
  const RESOURCE_TOO_LARGE = 'The resource is larger than this server serves';

  async function findPrompt(name: string, principal: Principal | undefined): Promise<Prompt> {
    const prompt = (await promptCatalogue.get()).byName.get(name);
    // One the caller may not use is answered exactly as one that does not exist.
    if (!prompt || !mayUse(prompt, principal)) throw new InvalidParamsError(`Unknown prompt: "${name}"`, { name });
    return prompt;
  }

  async function completeRaw(ref: CompletionRef, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion> {
    if (ref.type === 'prompt') {
      const prompt = await findPrompt(ref.name, ctx.principal);
      if (!prompt.arguments?.some((a) => a.name === argument.name)) {
        throw new InvalidParamsError(`Prompt "${ref.name}" has no argument "${argument.name}"`, { name: argument.name });
      }
      const answer = await completions?.complete(ref, argument, context, ctx);
      if (answer) return answer;
      return prompts?.complete ? prompts.complete(ref.name, argument, context, ctx) : { values: [] };
    }
    const templates = await templateCatalogue.get();
    const known =
      templates.some((t) => t.uriTemplate === ref.uri && mayUse(t, ctx.principal)) ||
      (await resourceCatalogue.get()).some((r) => r.uri === ref.uri && mayUse(r, ctx.principal));
    if (!known) throw new InvalidParamsError(`Unknown resource or template: ${ref.uri}`, { uri: ref.uri });
    const answer = await completions?.complete(ref, argument, context, ctx);
    if (answer) return answer;
    if (resources?.complete && templates.some((t) => t.uriTemplate === ref.uri)) {
      return resources.complete(ref.uri, argument, context, ctx);
    }
    return { values: [] };
  }

  return {
    features,
    limits,
    listTools: toolOps.listTools,
    callTool: toolOps.callTool,
    tools: toolOps.tools,
    mirroredParams: toolOps.mirroredParams,
    async listPrompts(cursor, principal) {
      needPrompts('prompts/list');
      return pageFor(promptPages, (await promptCatalogue.get()).list, cursor, principal);
    },
    async prompts() {
      return prompts ? (await promptCatalogue.get()).list : [];
    },
    async getPrompt(name, args, ctx) {
      const provider = needPrompts('prompts/get');
      const prompt = await findPrompt(name, ctx.principal);
      if (lacksArguments(prompt, args)) {
        args = await requiredArguments(prompt, args, ctx, (argument) =>
          completeRaw({ type: 'prompt', name }, { name: argument, value: '' }, { arguments: args }, ctx),
        );
      }
      // A request cancelled while the catalogue was loading never reaches the provider.
      throwIfCancelled(ctx);
      let result: PromptResult;
      try {
        result = await provider.get(name, args, ctx);
      } catch (error) {
        if (isOutputLimitError(error)) throw overLimit(`Prompt "${name}": ${error.message}`, PROMPT_TOO_LARGE);
        throw error;
      }
      // Encoding every text to count its bytes would cost more than the rest of
      // the request for a large prompt; only one near the limit is encoded.
      const size = promptSizeOver(result, maxPromptBytes);
      if (size > maxPromptBytes) throw overLimit(`Prompt "${name}" produced ${size} bytes, over the ${maxPromptBytes}-byte limit`, PROMPT_TOO_LARGE);
      return result;
    },
    async complete(ref, argument, context, ctx) {
      if (!features.completions) throw new MethodNotFoundError('completion/complete');
      const raw = await completeRaw(ref, argument, context, ctx);
      // MCP server/utilities/completion: at most 100 values per response.
      if (raw.values.length <= MAX_COMPLETION_VALUES) return raw;
      return {
        values: raw.values.slice(0, MAX_COMPLETION_VALUES),
        total: raw.total ?? raw.values.length,
        hasMore: true,
      };
    },
    async listResources(cursor, principal) {
      needResources('resources/list');
      return pageFor(resourcePages, await resourceCatalogue.get(), cursor, principal);
    },
    async listResourceTemplates(cursor, principal) {
      needResources('resources/templates/list');
      return pageFor(templatePages, await templateCatalogue.get(), cursor, principal);
    },
    async readResource(uri, ctx) {
      const provider = needResources('resources/read');
      let result: ReadResourceResult;
      try {
        result = await provider.read(uri, ctx);
      } catch (error) {
        if (isOutputLimitError(error)) throw overLimit(`Resource ${uri}: ${error.message}`, RESOURCE_TOO_LARGE);
        throw error;
      }
      // A provider that read it all anyway: at least it is not encoded and sent.
      const size = resourceSizeOver(result, maxResourceBytes);
      if (size > maxResourceBytes) throw overLimit(`Resource ${uri} has ${size} bytes, over the ${maxResourceBytes}-byte limit`, RESOURCE_TOO_LARGE);
      return result;
    },
    async listSkills(cursor, principal) {
      needSkills('skills/list');
      return pageFor(skillPages, await skillCatalogue.get(), cursor, principal);
    },
    async getSkill(uri, principal) {
      const entry = await needSkills('skills/get').getSkill(uri);
      // SEP-2640 skills/get: an unknown URI is -32602; one the caller may not use, the same.
      if (!entry || !mayUse(entry, principal)) throw new InvalidParamsError(`No skill is served at ${uri}`, { uri });
      // Its manifest without the files of a skill nested in it that the caller may not use;
      // a view made for the caller's audiences is marked as such (core/audience.ts).
      return viewOf(entry, principal);
    },
    async readDirectory(uri, cursor, principal) {
      const provider = needSkills('resources/directory/read');
      if (!provider.readDirectory) throw new MethodNotFoundError('resources/directory/read');
      const children = await provider.readDirectory(uri);
      // SEP-2640 resources/directory/read: missing or not a directory is -32602; a listing the
      // caller may not see (restricted as a whole, core/audience.ts) the same.
      if (!children || !mayUse(children, principal)) throw new InvalidParamsError(`${uri} is not a directory resource`, { uri });
      return pageFor(directoryPages, children, cursor, principal);
    },
    mayRead: (uri, principal) => principal === undefined || resources?.mayRead === undefined || resources.mayRead(uri, principal),
    watch: (listener) => events.watch(listener),
    close() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
