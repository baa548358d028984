/**
 * Composition: several prompt providers served as one. The catalogue of a
 * composed provider is the concatenation of its parts, in order; two parts
 * offering the same prompt name is a configuration error and is reported with
 * both positions rather than letting one silently shadow the other.
 */
import type { Prompt } from './model.js';
import { combineNamed } from './named.js';
import type { PromptProvider } from './prompts.js';

/** Serves several prompt providers as one; throws on a duplicate prompt name. */
export function combinePrompts(...providers: PromptProvider[]): PromptProvider {
  const { list, owner, watch } = combineNamed<PromptProvider, Prompt>(providers, 'prompt', 'combinePrompts');
  const combined: PromptProvider = {
    list,
    get: (name, args, ctx) => owner(name).get(name, args, ctx),
    async complete(name, argument, context, ctx) {
      const provider = owner(name);
      return provider.complete ? provider.complete(name, argument, context, ctx) : { values: [] };
    },
  };
  if (watch) combined.watch = watch;
  return combined;
}
