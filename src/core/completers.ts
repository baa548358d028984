/**
 * How a prompt argument or a template variable gets its completions: from a
 * fixed list (ranked by {@link createCompletionIndex}) or from a function.
 */
import type { Awaitable, RequestContext } from './context.js';
import type { Completion, CompletionContext } from './model.js';
import { createCompletionIndex } from './rank.js';

/**
 * A function that suggests values for a partial input. It may return plain
 * values (used in the order given) or a {@link Completion} with `total` and
 * `hasMore`. `context.arguments` holds the values already chosen for the
 * other arguments, so one argument's suggestions can depend on another's.
 */
export type Completer = (value: string, context: CompletionContext, ctx: RequestContext) => Awaitable<readonly string[] | Completion>;

/** A completion source as declared: a fixed list or a {@link Completer}. */
export type CompletionSource = readonly string[] | Completer;

/** A source turned into one function, with the fixed list indexed once. */
export type ResolvedCompleter = (value: string, context: CompletionContext, ctx: RequestContext) => Promise<Completion>;

/** Turns a declared source into a {@link ResolvedCompleter}. */
export function resolveCompleter(source: CompletionSource): ResolvedCompleter {
  if (typeof source !== 'function') {
    const index = createCompletionIndex(source as readonly string[]);
    return async (value) => index.complete(value);
  }
  const completer = source as Completer;
  return async (value, context, ctx) => {
    const result = await completer(value, context, ctx);
    return Array.isArray(result) ? { values: [...(result as readonly string[])] } : (result as Completion);
  };
}
