/**
 * Resources: the provider interface, and helpers to declare fixed resources
 * and URI-template families (`defineResource`, `defineResourceTemplate`,
 * `staticResources`, `liveResources`).
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { createEmitter } from '../util/emitter.js';
import { parseUriTemplate, type TemplateVariableNames, type TemplateVariables, type UriTemplate } from '../util/uri-template.js';
import { type CompletionSource, type ResolvedCompleter, resolveCompleter } from './completers.js';
import type { Awaitable, HandlerContext, Principal, RequestContext } from './context.js';
import { ResourceNotFoundError } from './errors.js';
import { handlerContext } from './handler-context.js';
import type { Completion, CompletionArgument, CompletionContext, ReadResourceResult, Resource, ResourceTemplate } from './model.js';
import { type ResourceOutput, toReadResult } from './resource-output.js';

export { type ResourceOutput, toBase64 } from './resource-output.js';

/** A change a resource provider reports. */
export type ResourceEvent = { type: 'listChanged' } | { type: 'updated'; uri: string };

/**
 * A source of resources. As with prompts, the server caches `list()` and
 * `templates()` until `watch` reports `listChanged`. `read` throws
 * {@link ResourceNotFoundError} for a URI it does not serve.
 */
export interface ResourceProvider {
  list(): Awaitable<readonly Resource[]>;
  templates?(): Awaitable<readonly ResourceTemplate[]>;
  read(uri: string, ctx: RequestContext): Awaitable<ReadResourceResult>;
  /**
   * Whether `principal` may read `uri` (core/audience.ts), for what is said of
   * it outside a read (a subscription's updates). Absent: anyone may.
   */
  mayRead?(uri: string, principal: Principal): boolean;
  /** Suggests values for one variable of a listed template (`uriTemplate` is the template string). */
  complete?(uriTemplate: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Awaitable<Completion>;
  /** Present when resources can change or be updated; enables subscriptions and `listChanged`. */
  watch?(listener: (event: ResourceEvent) => void): () => void;
}

/** The descriptive fields resources and templates share. */
type DescriptorFields = Omit<ResourceTemplate, 'uriTemplate'>;

/** The input of {@link defineResource}. */
export interface ResourceDefinitionInput extends DescriptorFields {
  uri: string;
  size?: number;
  read(ctx: HandlerContext): Awaitable<ResourceOutput>;
}

/**
 * The input of {@link defineResourceTemplate}. `T` is the template string:
 * a literal types `read`'s variables and `complete`'s keys by the template's
 * own names; a `string` leaves them any names.
 */
export interface ResourceTemplateDefinitionInput<T extends string = string> extends DescriptorFields {
  uriTemplate: T;
  /** Completion sources per template variable. */
  complete?: string extends T ? Record<string, CompletionSource> : { [K in TemplateVariableNames<T>]?: CompletionSource };
  /** Reads one matching URI; throw {@link ResourceNotFoundError} when the values name nothing. */
  read(uri: string, variables: TemplateVariables<T>, ctx: HandlerContext): Awaitable<ResourceOutput>;
}

/** A declared fixed resource. */
export interface ResourceDefinition {
  readonly resource: Resource;
  read(ctx: RequestContext): Promise<ReadResourceResult>;
}

/** A declared template family. */
export interface ResourceTemplateDefinition {
  readonly template: ResourceTemplate;
  readonly parsed: UriTemplate;
  read(uri: string, variables: Record<string, string>, ctx: RequestContext): Promise<ReadResourceResult>;
  complete(argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion>;
}

function copyDescriptor<T extends DescriptorFields>(input: T, target: Partial<DescriptorFields>): void {
  for (const key of ['title', 'description', 'mimeType', 'annotations', 'icons', '_meta'] as const) {
    if (input[key] !== undefined) (target as Record<string, unknown>)[key] = input[key];
  }
}

/** Declares one resource at a fixed URI. */
export function defineResource(input: ResourceDefinitionInput): ResourceDefinition {
  const resource: Resource = { uri: input.uri, name: input.name };
  copyDescriptor(input, resource);
  if (input.size !== undefined) resource.size = input.size;
  return {
    resource,
    async read(ctx) {
      return toReadResult(input.uri, input.mimeType, await input.read(handlerContext(ctx)));
    },
  };
}

/**
 * Declares a family of resources under an RFC 6570 template (`{name}` and
 * `{+name}` expressions). A literal template string types `read`'s variables
 * (`{ topic: string }` for `notes://{topic}`) and `complete`'s keys. Throws
 * at once on an unsupported template, or on a completion source for a
 * variable the template does not have.
 *
 * @example
 * const notes = defineResourceTemplate({
 *   uriTemplate: 'notes://{topic}',
 *   name: 'notes',
 *   mimeType: 'text/markdown',
 *   complete: { topic: ['design', 'roadmap'] },
 *   read: (uri, { topic }) => `# Notes on ${topic}`,
 * });
 */
export function defineResourceTemplate<const T extends string>(input: ResourceTemplateDefinitionInput<T>): ResourceTemplateDefinition {
  const parsed = parseUriTemplate(input.uriTemplate);
  const template: ResourceTemplate = { uriTemplate: input.uriTemplate, name: input.name };
  copyDescriptor(input, template);
  const completers = new Map<string, ResolvedCompleter>();
  // Checked here too: plain JavaScript, or a template string typed `string`, may name any variable.
  for (const [variable, source] of Object.entries(input.complete ?? {}) as [string, CompletionSource][]) {
    if (!parsed.variables.includes(variable)) {
      throw new TypeError(`Template "${input.uriTemplate}" has no variable "${variable}" to complete`);
    }
    completers.set(variable, resolveCompleter(source));
  }
  return {
    template,
    parsed,
    async read(uri, variables, ctx) {
      return toReadResult(uri, input.mimeType, await input.read(uri, variables as TemplateVariables<T>, handlerContext(ctx)));
    },
    async complete(argument, context, ctx) {
      const completer = completers.get(argument.name);
      if (!completer) {
        if (parsed.variables.includes(argument.name)) return { values: [] };
        throw new InvalidParamsError(`Template "${input.uriTemplate}" has no variable "${argument.name}"`, { name: argument.name });
      }
      return completer(argument.value, context, ctx);
    },
  };
}

/** One declaration of a resource set: a fixed resource or a template family. */
export type AnyResourceDefinition = ResourceDefinition | ResourceTemplateDefinition;

/**
 * The declarations a resource set is made of, kept apart.
 * @deprecated Pass one array mixing both: `staticResources([readme, notes])`.
 */
export interface ResourceSet {
  resources?: readonly ResourceDefinition[];
  templates?: readonly ResourceTemplateDefinition[];
}

/**
 * One array split by the member each definition carries (`resource` or
 * `template`); anything else is refused here, at start-up, rather than
 * failing a read later.
 */
function splitSet(input: readonly AnyResourceDefinition[] | ResourceSet, caller: string): ResourceSet {
  if (!Array.isArray(input)) {
    if (typeof (input as { read?: unknown } | null)?.read === 'function') throw new TypeError(`${caller}() takes an array: ${caller}([definition])`);
    return input as ResourceSet;
  }
  const resources: ResourceDefinition[] = [];
  const templates: ResourceTemplateDefinition[] = [];
  input.forEach((definition: unknown, index) => {
    const found = definition as Partial<ResourceDefinition & ResourceTemplateDefinition> | null;
    if (typeof found?.read === 'function' && typeof found.resource === 'object') resources.push(found as ResourceDefinition);
    else if (typeof found?.read === 'function' && typeof found.template === 'object') templates.push(found as ResourceTemplateDefinition);
    else throw new TypeError(`${caller}() takes defineResource and defineResourceTemplate definitions; item ${index + 1} is neither`);
  });
  return { resources, templates };
}

interface ResourceState {
  list: readonly Resource[];
  templates: readonly ResourceTemplate[];
  byUri: Map<string, ResourceDefinition>;
  families: readonly ResourceTemplateDefinition[];
  byTemplate: Map<string, ResourceTemplateDefinition>;
}

function stateOf(set: ResourceSet): ResourceState {
  const byUri = new Map<string, ResourceDefinition>();
  for (const definition of set.resources ?? []) {
    if (byUri.has(definition.resource.uri)) throw new TypeError(`Duplicate resource URI "${definition.resource.uri}"`);
    byUri.set(definition.resource.uri, definition);
  }
  const byTemplate = new Map<string, ResourceTemplateDefinition>();
  for (const definition of set.templates ?? []) {
    if (byTemplate.has(definition.template.uriTemplate)) {
      throw new TypeError(`Duplicate resource template "${definition.template.uriTemplate}"`);
    }
    byTemplate.set(definition.template.uriTemplate, definition);
  }
  return {
    list: [...byUri.values()].map((d) => d.resource),
    templates: [...byTemplate.values()].map((d) => d.template),
    byUri,
    families: [...byTemplate.values()],
    byTemplate,
  };
}

function providerOver(current: () => ResourceState): ResourceProvider {
  return {
    list: () => current().list,
    templates: () => current().templates,
    async read(uri, ctx) {
      const state = current();
      const fixed = state.byUri.get(uri);
      if (fixed) return fixed.read(ctx);
      for (const family of state.families) {
        const variables = family.parsed.match(uri);
        if (variables) return family.read(uri, variables, ctx);
      }
      throw new ResourceNotFoundError(uri);
    },
    complete(uriTemplate, argument, context, ctx) {
      const family = current().byTemplate.get(uriTemplate);
      if (!family) throw new InvalidParamsError(`Unknown resource template: ${uriTemplate}`, { uri: uriTemplate });
      return family.complete(argument, context, ctx);
    },
  };
}

/**
 * A fixed set of resources and templates, given as one array in any order.
 * Fixed URIs are matched before templates. Throws on a duplicate URI or
 * template, and on an item that is not a definition.
 */
export function staticResources(definitions: readonly AnyResourceDefinition[]): ResourceProvider;
/** @deprecated Pass one array mixing both: `staticResources([...resources, ...templates])`. */
export function staticResources(set: ResourceSet): ResourceProvider;
export function staticResources(input: readonly AnyResourceDefinition[] | ResourceSet): ResourceProvider {
  const state = stateOf(splitSet(input, 'staticResources'));
  return providerOver(() => state);
}

/** A resource set that can change while serving. */
export interface LiveResources extends ResourceProvider {
  watch(listener: (event: ResourceEvent) => void): () => void;
  /** Replaces the whole set atomically and reports `listChanged`. */
  set(next: readonly AnyResourceDefinition[]): void;
  /** @deprecated Pass one array mixing both: `set([...resources, ...templates])`. */
  set(next: ResourceSet): void;
  /** Reports that the content at `uri` changed, for subscribed clients. */
  updated(uri: string): void;
}

/** Creates a {@link LiveResources} starting with `definitions`, one array of resources and templates in any order. */
export function liveResources(definitions?: readonly AnyResourceDefinition[]): LiveResources;
/** @deprecated Pass one array mixing both: `liveResources([...resources, ...templates])`. */
export function liveResources(set: ResourceSet): LiveResources;
export function liveResources(input: readonly AnyResourceDefinition[] | ResourceSet = []): LiveResources {
  let state = stateOf(splitSet(input, 'liveResources'));
  const changes = createEmitter<ResourceEvent>();
  return {
    ...providerOver(() => state),
    watch: (listener) => changes.watch(listener),
    set(next: readonly AnyResourceDefinition[] | ResourceSet) {
      state = stateOf(splitSet(next, 'set'));
      changes.emit({ type: 'listChanged' });
    },
    updated(uri) {
      changes.emit({ type: 'updated', uri });
    },
  };
}
