/**
 * Composition: several prompt providers served as one. The catalogue of a
 * composed provider is the concatenation of its parts, in order; two parts
 * offering the same prompt name is a configuration error and is reported with
 * both positions rather than letting one silently shadow the other.
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import type { Prompt } from './model.js';
import type { PromptProvider } from './prompts.js';

/** Serves several prompt providers as one; throws on a duplicate prompt name. */
export function combinePrompts(...providers: PromptProvider[]): PromptProvider {
  let owners = new Map<string, PromptProvider>();

  function owner(name: string): PromptProvider {
    const found = owners.get(name);
    if (!found) throw new InvalidParamsError(`Unknown prompt: "${name}"`, { name });
    return found;
  }

  const combined: PromptProvider = {
    async list() {
      const lists = await Promise.all(providers.map((p) => p.list()));
      const next = new Map<string, PromptProvider>();
      const where = new Map<string, number>();
      const all: Prompt[] = [];
      lists.forEach((list, index) => {
        for (const prompt of list) {
          const first = where.get(prompt.name);
          if (first !== undefined) {
            throw new TypeError(`Duplicate prompt name "${prompt.name}" in providers ${first + 1} and ${index + 1} of combinePrompts()`);
          }
          where.set(prompt.name, index);
          next.set(prompt.name, providers[index] as PromptProvider);
          all.push(prompt);
        }
      });
      owners = next;
      return all;
    },
    get: (name, args, ctx) => owner(name).get(name, args, ctx),
    async complete(name, argument, context, ctx) {
      const provider = owner(name);
      return provider.complete ? provider.complete(name, argument, context, ctx) : { values: [] };
    },
  };

  const watchable = providers.filter((p) => p.watch);
  if (watchable.length > 0) {
    combined.watch = (listener) => {
      const stops = watchable.map((p) => (p.watch as NonNullable<PromptProvider['watch']>)(listener));
      return () => {
        for (const stop of stops) stop();
      };
    };
  }
  return combined;
}
