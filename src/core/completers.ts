/**
 * How a prompt argument or a template variable gets its completions: from a
 * fixed list (ranked by {@link createCompletionIndex}) or from a function.
 */
import { encodeOnce } from '../jsonrpc/encoded.js';
import type { Awaitable, RequestContext } from './context.js';
import type { Completion, CompletionArgument, CompletionContext, CompletionRef } from './model.js';
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

/**
 * Answers completion requests for any reference. Return undefined to fall
 * back to the prompt or resource provider's own `complete`.
 */
export interface CompletionProvider {
  complete(ref: CompletionRef, argument: CompletionArgument, context: CompletionContext, ctx: RequestContext): Awaitable<Completion | undefined>;
}

/** Answers remembered per fixed list: enough for the prefixes several clients are typing at once. */
const REMEMBERED_ANSWERS = 256;

/**
 * The longest partial value (UTF-16 code units) whose answer is remembered.
 * What a user types is short; a longer value is answered but not kept, so the
 * memory of a list's answers stays within 256 values of this length (plus the
 * answers, which hold the list's own strings) whatever clients send. Keyed on
 * the raw value, 256 distinct values near the 4 MiB message cap held 1 GiB.
 */
export const REMEMBERED_VALUE_LENGTH = 256;

/**
 * A fixed list's answer to a partial value, remembered (least recently used
 * out first): the list never changes, so neither does the answer, and the
 * next keystrokes of other clients often repeat it. Answers are
 * encoded once (`jsonrpc/encoded.ts`): the protocol layer encodes each once.
 */
function rememberingIndex(values: readonly string[]): (value: string) => Completion {
  const index = createCompletionIndex(values);
  const answers = new Map<string, Completion>();
  return (value) => {
    // Not encoded either: an encoded answer also keeps its wire form.
    if (value.length > REMEMBERED_VALUE_LENGTH) return index.complete(value);
    let answer = answers.get(value);
    if (answer) {
      answers.delete(value);
    } else {
      answer = encodeOnce(index.complete(value), true);
      if (answers.size >= REMEMBERED_ANSWERS) answers.delete(answers.keys().next().value as string);
    }
    answers.set(value, answer);
    return answer;
  };
}

/** Turns a declared source into a {@link ResolvedCompleter}. */
export function resolveCompleter(source: CompletionSource): ResolvedCompleter {
  if (typeof source !== 'function') {
    const complete = rememberingIndex(source as readonly string[]);
    // Not async: a fixed list answers at once, without a turn of its own.
    return (value) => {
      try {
        return Promise.resolve(complete(value));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  const completer = source as Completer;
  return async (value, context, ctx) => {
    const result = await completer(value, context, ctx);
    return Array.isArray(result) ? { values: [...(result as readonly string[])] } : (result as Completion);
  };
}
