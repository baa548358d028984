/**
 * Prompts: the provider interface the server reads, and the helpers that make
 * the common case one call (`definePrompt`, `staticPrompts`, `livePrompts`).
 */
import { type Encoded, encodeOnce } from '../jsonrpc/encoded.js';
import { type CompletionSource, type ResolvedCompleter, resolveCompleter } from './completers.js';
import { type Awaitable, type HandlerContext, isThenable, type RequestContext } from './context.js';
import { handlerContext } from './handler-context.js';
import type { Completion, CompletionArgument, CompletionContext, Icon, Meta, Prompt, PromptArgument, PromptMessage, PromptResult } from './model.js';
import { findNamed, liveSet, type NamedSet, namedSet } from './named.js';

/**
 * A source of prompts. The server calls `list()` to build its catalogue and
 * keeps that catalogue until `watch` reports a change, so `list()` should
 * return the whole current set, not a per-request view.
 *
 * The server validates every `prompts/get` against the catalogue first (the
 * prompt exists, required arguments are present and not empty), so `get`
 * only runs for a listed prompt with its required arguments.
 */
export interface PromptProvider {
  list(): Awaitable<readonly Prompt[]>;
  get(name: string, args: Record<string, string>, ctx: RequestContext): Awaitable<PromptResult>;
  /** Suggests values for one argument of a listed prompt. */
  complete?(name: string, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Awaitable<Completion>;
  /** Present when the set can change; the server then advertises `listChanged`. */
  watch?(listener: () => void): () => void;
}

/** A prompt argument as declared, with an optional completion source. */
export interface PromptArgumentDefinition<N extends string = string> extends PromptArgument {
  name: N;
  /** Values to suggest: a fixed list (ranked prefix, substring, then fuzzy) or a function. */
  complete?: CompletionSource;
}

/** The argument values `get` receives: required ones are strings, others may be missing. */
export type PromptArgs<A extends readonly PromptArgumentDefinition[]> = {
  [K in A[number] as K['name']]: K extends { required: true } ? string : string | undefined;
};

/** What `get` may return: a full result, a list of messages, or one user text. */
export type PromptOutput = PromptResult | PromptMessage[] | string;

/** What every {@link definePrompt} input declares. */
interface PromptDeclaration<A extends readonly PromptArgumentDefinition[]> {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  arguments?: A;
}

/**
 * The input of {@link definePrompt}: a `get` that builds the prompt for each
 * request, or a fixed `output`, the same for every request, which the server
 * builds, encodes and serializes once.
 */
export type PromptDefinitionInput<A extends readonly PromptArgumentDefinition[]> = PromptDeclaration<A> &
  ({ get(args: PromptArgs<A>, ctx: HandlerContext): Awaitable<PromptOutput>; output?: never } | { output: PromptOutput; get?: never });

/** A defined prompt: its listing entry, how to get it, how to complete its arguments. */
export interface PromptDefinition {
  readonly prompt: Prompt;
  get(args: Record<string, string>, ctx: RequestContext): Promise<PromptResult>;
  complete(argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Promise<Completion>;
}

/**
 * A fixed output as a result of its own: copied (the caller keeps theirs) and
 * encoded once, so every request gets the same result and its wire form is
 * made once per revision.
 */
function fixedResult(output: PromptOutput): Encoded<PromptResult> {
  return encodeOnce(structuredClone(toResult(output)), true);
}

function toResult(output: PromptOutput): PromptResult {
  if (typeof output === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  if (Array.isArray(output)) return { messages: output };
  return output as PromptResult;
}

/**
 * Declares one prompt. Argument names are checked for duplicates here, so a
 * mistake fails at start-up rather than on the first request.
 *
 * @example
 * const review = definePrompt({
 *   name: 'code_review',
 *   description: 'Review code in a given language.',
 *   arguments: [{ name: 'language', required: true, complete: ['go', 'python', 'typescript'] }] as const,
 *   get: ({ language }) => `Review this ${language} code for bugs and style.`,
 * });
 * // The same for every request: built once.
 * const standup = definePrompt({ name: 'standup', output: 'Summarise what I did yesterday.' });
 */
export function definePrompt<const A extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[]>(
  input: PromptDefinitionInput<A>,
): PromptDefinition {
  const prompt: Prompt = { name: input.name };
  if (input.title !== undefined) prompt.title = input.title;
  if (input.description !== undefined) prompt.description = input.description;
  if (input.icons !== undefined) prompt.icons = input.icons;
  if (input._meta !== undefined) prompt._meta = input._meta;

  const completers = new Map<string, ResolvedCompleter>();
  if (input.arguments && input.arguments.length > 0) {
    prompt.arguments = input.arguments.map((definition) => {
      const argument: PromptArgument = { name: definition.name };
      if (definition.title !== undefined) argument.title = definition.title;
      if (definition.description !== undefined) argument.description = definition.description;
      if (definition.required !== undefined) argument.required = definition.required;
      if (definition.complete !== undefined) completers.set(definition.name, resolveCompleter(definition.complete));
      return argument;
    });
    const seen = new Set<string>();
    for (const { name } of prompt.arguments) {
      if (seen.has(name)) throw new TypeError(`Prompt "${input.name}" declares the argument "${name}" twice`);
      seen.add(name);
    }
  }

  const { get, output } = input as { get?: PromptDefinitionInput<A>['get']; output?: PromptOutput };
  if ((get === undefined) === (output === undefined)) throw new TypeError(`Prompt "${input.name}" needs exactly one of get and output`);
  const fixed = output === undefined ? undefined : fixedResult(output);

  return {
    prompt,
    // Not async: a `get` that answers at once (most do) costs no turn of its own.
    get(args, ctx) {
      if (fixed) return Promise.resolve(fixed);
      try {
        const made = (get as NonNullable<typeof get>)(args as PromptArgs<A>, handlerContext(ctx));
        return isThenable(made) ? Promise.resolve(made).then(toResult) : Promise.resolve(toResult(made));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    complete(argument, context, ctx) {
      const completer = completers.get(argument.name);
      return completer ? completer(argument.value, context, ctx) : Promise.resolve({ values: [] });
    },
  };
}

const entryOf = (definition: PromptDefinition): Prompt => definition.prompt;

function providerOver(current: () => NamedSet<PromptDefinition, Prompt>): PromptProvider {
  return {
    list: () => current().list,
    get: (name, args, ctx) => findNamed(current(), name, 'prompt').get(args, ctx),
    complete: (name, argument, context, ctx) => findNamed(current(), name, 'prompt').complete(argument, context, ctx),
  };
}

/** A fixed set of prompts. Throws on a duplicate name. */
export function staticPrompts(definitions: readonly PromptDefinition[]): PromptProvider {
  const state = namedSet(definitions, entryOf, 'prompt');
  return providerOver(() => state);
}

/** A prompt set that can be replaced while serving; clients are told of each change. */
export interface LivePrompts extends PromptProvider {
  watch(listener: () => void): () => void;
  /** Replaces the whole set atomically and notifies watchers. Throws on a duplicate name. */
  set(definitions: readonly PromptDefinition[]): void;
}

/** Creates a {@link LivePrompts} starting with `definitions`. */
export function livePrompts(definitions: readonly PromptDefinition[] = []): LivePrompts {
  const live = liveSet(definitions, entryOf, 'prompt');
  return { ...providerOver(live.current), watch: live.watch, set: live.replace };
}
