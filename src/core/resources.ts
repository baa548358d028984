/**
 * Resources: the provider interface, and helpers to declare fixed resources
 * and URI-template families (`defineResource`, `defineResourceTemplate`,
 * `staticResources`, `liveResources`).
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { createEmitter } from '../util/emitter.js';
import { parseUriTemplate, type UriTemplate } from '../util/uri-template.js';
import { type CompletionSource, type ResolvedCompleter, resolveCompleter } from './completers.js';
import type { Awaitable, HandlerContext, Principal, RequestContext } from './context.js';
import { ResourceNotFoundError } from './errors.js';
import { handlerContext } from './handler-context.js';
import type { Completion, CompletionArgument, CompletionContext, ReadResourceResult, Resource, ResourceContents, ResourceTemplate } from './model.js';

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

/** What a read function may return: text, bytes, one contents entry, or a full result. */
export type ResourceOutput = string | Uint8Array | ResourceContents | ReadResourceResult;

/** The descriptive fields resources and templates share. */
type DescriptorFields = Omit<ResourceTemplate, 'uriTemplate'>;

/** The input of {@link defineResource}. */
export interface ResourceDefinitionInput extends DescriptorFields {
  uri: string;
  size?: number;
  read(ctx: HandlerContext): Awaitable<ResourceOutput>;
}

/** The input of {@link defineResourceTemplate}. */
export interface ResourceTemplateDefinitionInput extends DescriptorFields {
  uriTemplate: string;
  /** Completion sources per template variable. */
  complete?: Record<string, CompletionSource>;
  /** Reads one matching URI; throw {@link ResourceNotFoundError} when the values name nothing. */
  read(uri: string, variables: Record<string, string>, ctx: HandlerContext): Awaitable<ResourceOutput>;
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

const BASE64 = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const ASCII = new TextDecoder();

/**
 * Encodes bytes as base64 without node:buffer, so the core stays
 * runtime-neutral. The digits go into bytes, decoded to a string once: the
 * former `btoa` over a binary string took half a second per 3 MiB on Node 20
 * (a 16 MiB resource read held the event loop for nearly three), and built a
 * string as long as the input on the way.
 */
export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o++] = BASE64[n >>> 18] as number;
    out[o++] = BASE64[(n >>> 12) & 63] as number;
    out[o++] = BASE64[(n >>> 6) & 63] as number;
    out[o++] = BASE64[n & 63] as number;
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const n = ((bytes[whole] as number) << 16) | (two ? (bytes[whole + 1] as number) << 8 : 0);
    out[o++] = BASE64[n >>> 18] as number;
    out[o++] = BASE64[(n >>> 12) & 63] as number;
    out[o++] = two ? (BASE64[(n >>> 6) & 63] as number) : 61;
    out[o++] = 61;
  }
  return ASCII.decode(out);
}

function toReadResult(uri: string, mimeType: string | undefined, output: ResourceOutput): ReadResourceResult {
  if (typeof output === 'string') {
    return { contents: [mimeType === undefined ? { uri, text: output } : { uri, mimeType, text: output }] };
  }
  if (output instanceof Uint8Array) {
    const blob = toBase64(output);
    return { contents: [mimeType === undefined ? { uri, blob } : { uri, mimeType, blob }] };
  }
  if ('contents' in output) return output;
  return { contents: [output] };
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
 * `{+name}` expressions). Throws at once on an unsupported template, or on a
 * completion source for a variable the template does not have.
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
export function defineResourceTemplate(input: ResourceTemplateDefinitionInput): ResourceTemplateDefinition {
  const parsed = parseUriTemplate(input.uriTemplate);
  const template: ResourceTemplate = { uriTemplate: input.uriTemplate, name: input.name };
  copyDescriptor(input, template);
  const completers = new Map<string, ResolvedCompleter>();
  for (const [variable, source] of Object.entries(input.complete ?? {})) {
    if (!parsed.variables.includes(variable)) {
      throw new TypeError(`Template "${input.uriTemplate}" has no variable "${variable}" to complete`);
    }
    completers.set(variable, resolveCompleter(source));
  }
  return {
    template,
    parsed,
    async read(uri, variables, ctx) {
      return toReadResult(uri, input.mimeType, await input.read(uri, variables, handlerContext(ctx)));
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

/** The declarations a resource set is made of. */
export interface ResourceSet {
  resources?: readonly ResourceDefinition[];
  templates?: readonly ResourceTemplateDefinition[];
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

/** A fixed set of resources and templates. Fixed URIs are matched before templates. */
export function staticResources(set: ResourceSet): ResourceProvider {
  const state = stateOf(set);
  return providerOver(() => state);
}

/** A resource set that can change while serving. */
export interface LiveResources extends ResourceProvider {
  watch(listener: (event: ResourceEvent) => void): () => void;
  /** Replaces the whole set atomically and reports `listChanged`. */
  set(next: ResourceSet): void;
  /** Reports that the content at `uri` changed, for subscribed clients. */
  updated(uri: string): void;
}

/** Creates a {@link LiveResources} starting with `set`. */
export function liveResources(set: ResourceSet = {}): LiveResources {
  let state = stateOf(set);
  const changes = createEmitter<ResourceEvent>();
  return {
    ...providerOver(() => state),
    watch: (listener) => changes.watch(listener),
    set(next) {
      state = stateOf(next);
      changes.emit({ type: 'listChanged' });
    },
    updated(uri) {
      changes.emit({ type: 'updated', uri });
    },
  };
}
