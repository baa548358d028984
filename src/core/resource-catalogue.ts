/**
 * The engine's resources: the resource and template catalogues, built once
 * per change of the provider, their pages, reads within the output cap, and
 * the completion of a template's variables. Without a provider the catalogues
 * are empty and every URI is unknown; whether the server serves resources at
 * all is the revision's to answer.
 */
import type { Encoded } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { mayUse } from './audience.js';
import { cached } from './cached.js';
import type { CompletionProvider } from './completers.js';
import type { Logger, Principal, RequestContext } from './context.js';
import { isOutputLimitError, ResourceNotFoundError } from './errors.js';
import type { Completion, CompletionArgument, CompletionContext, ReadResourceResult, Resource, ResourceTemplate } from './model.js';
import { overLimit, resourceSizeOver } from './output-size.js';
import { createPager, type Page } from './paginate.js';
import type { ResourceProvider } from './resources.js';
import { pageFor } from './visible-page.js';

export interface ResourceOperations {
  listResources(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Resource>>>;
  listResourceTemplates(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<ResourceTemplate>>>;
  readResource(uri: string, ctx: RequestContext): Promise<ReadResourceResult>;
  /** Whether `principal` may read the resource at `uri` (the resource provider's `mayRead`; true without one). */
  mayRead(uri: string, principal: Principal | undefined): boolean;
}

/** Completes variable `argument` of the template (or resource) at `uri`. */
export type ResourceCompleter = (uri: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext) => Promise<Completion>;

export interface ResourceSettings {
  pageSize: number;
  maxResourceBytes: number;
  logger: Logger;
  /** The server's completion provider, asked before the resource provider's own `complete`. */
  completions: CompletionProvider | undefined;
  /** Runs when the provider reports that its list changed, after the catalogues were dropped. */
  listChanged(): void;
  /** Runs when the provider reports that a resource changed. */
  updated(uri: string): void;
}

const RESOURCE_TOO_LARGE = 'The resource is larger than this server serves';

/** Operations over `provider`, plus the completion of a template's variables and a stop for the watch. */
export function resourceOperations(
  provider: ResourceProvider | undefined,
  settings: ResourceSettings,
): ResourceOperations & { completeResource: ResourceCompleter; stop(): void } {
  const { logger, maxResourceBytes, completions } = settings;
  const resourcePages = createPager(settings.pageSize);
  const templatePages = createPager(settings.pageSize);
  // Each build copies the provider's array: a rebuilt catalogue is always a new
  // list to the pagers, even from a provider that changed its array in place,
  // so pages (and their encodings, memoized by identity) are never stale.
  const resourceCatalogue = cached(async () => (provider ? [...(await provider.list())] : []));
  const templateCatalogue = cached(async () => (provider?.templates ? [...(await provider.templates())] : []));
  const stop = provider?.watch?.((event) => {
    if (event.type === 'listChanged') {
      resourceCatalogue.invalidate();
      templateCatalogue.invalidate();
      settings.listChanged();
    } else {
      settings.updated(event.uri);
    }
  });

  async function completeResource(uri: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion> {
    const templates = await templateCatalogue.get();
    const known =
      templates.some((t) => t.uriTemplate === uri && mayUse(t, ctx.principal)) ||
      (await resourceCatalogue.get()).some((r) => r.uri === uri && mayUse(r, ctx.principal));
    if (!known) throw new InvalidParamsError(`Unknown resource or template: ${uri}`, { uri });
    const answer = await completions?.complete({ type: 'resource', uri }, argument, context, ctx);
    if (answer) return answer;
    if (provider?.complete && templates.some((t) => t.uriTemplate === uri)) return provider.complete(uri, argument, context, ctx);
    return { values: [] };
  }

  async function readResource(uri: string, ctx: RequestContext): Promise<ReadResourceResult> {
    if (!provider) throw new ResourceNotFoundError(uri);
    let result: ReadResourceResult;
    try {
      result = await provider.read(uri, ctx);
    } catch (error) {
      if (isOutputLimitError(error)) throw overLimit(logger, `Resource ${uri}: ${error.message}`, RESOURCE_TOO_LARGE);
      throw error;
    }
    // A provider that read it all anyway: at least it is not encoded and sent.
    const size = resourceSizeOver(result, maxResourceBytes);
    if (size > maxResourceBytes) throw overLimit(logger, `Resource ${uri} has ${size} bytes, over the ${maxResourceBytes}-byte limit`, RESOURCE_TOO_LARGE);
    return result;
  }

  return {
    listResources: async (cursor, principal) => pageFor(resourcePages, await resourceCatalogue.get(), cursor, principal),
    listResourceTemplates: async (cursor, principal) => pageFor(templatePages, await templateCatalogue.get(), cursor, principal),
    readResource,
    mayRead: (uri, principal) => principal === undefined || provider?.mayRead === undefined || provider.mayRead(uri, principal),
    completeResource,
    stop: () => stop?.(),
  };
}
