/**
 * The engine's prompts: the catalogue, built once per change of the provider,
 * its pages, gets checked against it before the provider runs (an unknown
 * prompt or a missing required argument is -32602 here), prompt-argument
 * completion, and the output cap. Without a provider the catalogue is empty;
 * whether the server serves prompts at all is the revision's to answer.
 */
import type { Encoded } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { mayUse } from './audience.js';
import { namedCatalogue } from './cached.js';
import type { CompletionProvider } from './completers.js';
import { type Logger, type Principal, type RequestContext, throwIfCancelled } from './context.js';
import { isOutputLimitError } from './errors.js';
import type { Completion, CompletionArgument, CompletionContext, Prompt, PromptResult } from './model.js';
import { overLimit, promptSizeOver } from './output-size.js';
import { createPager, type Page } from './paginate.js';
import { lacksArguments, requiredArguments } from './prompt-arguments.js';
import type { PromptProvider } from './prompts.js';
import { pageFor } from './visible-page.js';

export interface PromptOperations {
  listPrompts(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Prompt>>>;
  getPrompt(name: string, args: Record<string, string>, ctx: RequestContext): Promise<PromptResult>;
  /** The whole prompt catalogue, e.g. for a CLI listing. */
  prompts(): Promise<readonly Prompt[]>;
}

/** Completes argument `argument` of prompt `name`. */
export type PromptCompleter = (name: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext) => Promise<Completion>;

export interface PromptSettings {
  pageSize: number;
  maxPromptBytes: number;
  logger: Logger;
  /** The server's completion provider, asked before the prompt provider's own `complete`. */
  completions: CompletionProvider | undefined;
  /** Runs when the provider reports a change, after the catalogue was dropped. */
  changed(): void;
}

const PROMPT_TOO_LARGE = 'The prompt is larger than this server allows';

/** The prompt `name` in a built catalogue, if `principal` may use it; throws the -32602 an unknown one gets. */
function found(byName: Map<string, Prompt>, name: string, principal: Principal | undefined): Prompt {
  const prompt = byName.get(name);
  // One the caller may not use is answered exactly as one that does not exist.
  if (!prompt || !mayUse(prompt, principal)) throw new InvalidParamsError(`Unknown prompt: "${name}"`, { name });
  return prompt;
}

/** Throws the -32602 a completion of an argument the prompt does not declare gets. */
function checkArgument(prompt: Prompt, argument: CompletionArgument): void {
  if (!prompt.arguments?.some((a) => a.name === argument.name)) {
    throw new InvalidParamsError(`Prompt "${prompt.name}" has no argument "${argument.name}"`, { name: argument.name });
  }
}

/** The provider's prompt, within the output cap; throws (not rejects) only for a cancelled request. */
function render(provider: PromptProvider, settings: PromptSettings, name: string, args: Record<string, string>, ctx: RequestContext): Promise<PromptResult> {
  const { logger, maxPromptBytes } = settings;
  // A request cancelled while the catalogue was loading never reaches the provider.
  throwIfCancelled(ctx);
  let pending: Promise<PromptResult>;
  try {
    pending = Promise.resolve(provider.get(name, args, ctx));
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.then(
    (result) => {
      // Encoding every text to count its bytes would cost more than the rest of
      // the request for a large prompt; only one near the limit is encoded.
      const size = promptSizeOver(result, maxPromptBytes);
      if (size > maxPromptBytes) throw overLimit(logger, `Prompt "${name}" produced ${size} bytes, over the ${maxPromptBytes}-byte limit`, PROMPT_TOO_LARGE);
      return result;
    },
    (error: unknown) => {
      if (isOutputLimitError(error)) throw overLimit(logger, `Prompt "${name}": ${error.message}`, PROMPT_TOO_LARGE);
      throw error;
    },
  );
}

/** Operations over `provider`, plus the completion of a prompt's argument and a stop for the watch. */
export function promptOperations(
  provider: PromptProvider | undefined,
  settings: PromptSettings,
): PromptOperations & { completePrompt: PromptCompleter; stop(): void } {
  const { completions } = settings;
  // One pager per list: a client paging while a reload swaps the catalogue finishes on the one it started with.
  const pages = createPager(settings.pageSize);
  const catalogue = namedCatalogue(provider && (() => provider.list()));
  const stop = provider?.watch?.(() => {
    catalogue.invalidate();
    settings.changed();
  });

  async function find(name: string, principal: Principal | undefined): Promise<Prompt> {
    return found((await catalogue.get()).byName, name, principal);
  }

  /** The prompt provider's completion (there is one when a prompt was found). */
  function providerCompletion(name: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion> {
    return Promise.resolve(provider?.complete ? provider.complete(name, argument, context, ctx) : { values: [] });
  }

  // Not async, as getPrompt: with the catalogue built and no server-wide completions to ask
  // first, the provider is asked in the same turn.
  function completePrompt(name: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion> {
    const built = catalogue.now();
    if (built === undefined || completions !== undefined) return completePromptLater(name, argument, context, ctx);
    try {
      checkArgument(found(built.byName, name, ctx.principal), argument);
      return providerCompletion(name, argument, context, ctx);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async function completePromptLater(name: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion> {
    checkArgument(await find(name, ctx.principal), argument);
    const answer = await completions?.complete({ type: 'prompt', name }, argument, context, ctx);
    return answer ? answer : providerCompletion(name, argument, context, ctx);
  }

  // Not an async function: a request that finds the catalogue built and every required argument
  // given reaches the provider in the same turn, and each await it saves is a promise and a turn.
  function getPrompt(name: string, args: Record<string, string>, ctx: RequestContext): Promise<PromptResult> {
    const built = catalogue.now();
    if (built === undefined) return getPromptLater(name, args, ctx);
    try {
      const prompt = found(built.byName, name, ctx.principal);
      return lacksArguments(prompt, args) ? getPromptLater(name, args, ctx) : render(provider as PromptProvider, settings, name, args, ctx);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** getPrompt once the catalogue is built, and the missing required arguments asked for. */
  async function getPromptLater(name: string, args: Record<string, string>, ctx: RequestContext): Promise<PromptResult> {
    const prompt = await find(name, ctx.principal);
    if (lacksArguments(prompt, args)) {
      args = await requiredArguments(prompt, args, ctx, (argument) => completePrompt(name, { name: argument, value: '' }, { arguments: args }, ctx));
    }
    return render(provider as PromptProvider, settings, name, args, ctx);
  }

  return {
    listPrompts: async (cursor, principal) => pageFor(pages, (await catalogue.get()).list, cursor, principal),
    prompts: async () => (await catalogue.get()).list,
    getPrompt,
    completePrompt,
    stop: () => stop?.(),
  };
}
