/**
 * What prompts and tools share: a set of named definitions, fixed or live,
 * and several providers served as one. Names are unique within a set; two
 * definitions of one name are a configuration error, reported with both
 * places rather than letting one silently shadow the other.
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { createEmitter } from '../util/emitter.js';
import type { Awaitable } from './context.js';

/** A set of definitions: the listing entries in order, and each definition by name. */
export interface NamedSet<D, E> {
  readonly list: readonly E[];
  readonly byName: ReadonlyMap<string, D>;
}

/** Indexes `definitions` by their entry's name; throws on a duplicate. */
export function namedSet<D, E extends { name: string }>(definitions: readonly D[], entryOf: (definition: D) => E, kind: string): NamedSet<D, E> {
  const byName = new Map<string, D>();
  const list = definitions.map((definition) => {
    const entry = entryOf(definition);
    if (byName.has(entry.name)) throw new TypeError(`Duplicate ${kind} name "${entry.name}"`);
    byName.set(entry.name, definition);
    return entry;
  });
  return { list, byName };
}

/** The definition named `name` in `set`, or -32602 as for any unknown name (server/prompts, server/tools §Error Handling). */
export function findNamed<D>(set: NamedSet<D, unknown>, name: string, kind: string): D {
  const definition = set.byName.get(name);
  if (!definition) throw new InvalidParamsError(`Unknown ${kind}: "${name}"`, { name });
  return definition;
}

/** A set that can be replaced whole while serving, telling watchers of each change. */
export interface LiveSet<D, E> {
  current(): NamedSet<D, E>;
  replace(definitions: readonly D[]): void;
  watch(listener: () => void): () => void;
}

export function liveSet<D, E extends { name: string }>(definitions: readonly D[], entryOf: (definition: D) => E, kind: string): LiveSet<D, E> {
  let state = namedSet(definitions, entryOf, kind);
  const changes = createEmitter<void>();
  return {
    current: () => state,
    replace(next) {
      state = namedSet(next, entryOf, kind);
      changes.emit();
    },
    watch: (listener) => changes.watch(listener),
  };
}

/** What {@link combineNamed} needs of each provider. */
interface Listing<E> {
  list(): Awaitable<readonly E[]>;
  watch?(listener: () => void): () => void;
}

/**
 * Several providers as one listing: their lists concatenated in order, each
 * name owned by the provider that lists it. `combiner` names the function
 * for the duplicate-name error.
 */
export function combineNamed<P extends Listing<E>, E extends { name: string }>(
  providers: readonly P[],
  kind: string,
  combiner: string,
): { list(): Promise<E[]>; owner(name: string): P; watch?: (listener: () => void) => () => void } {
  let owners = new Map<string, P>();
  const combined: ReturnType<typeof combineNamed<P, E>> = {
    async list() {
      const lists = await Promise.all(providers.map((p) => p.list()));
      const next = new Map<string, P>();
      const where = new Map<string, number>();
      const all: E[] = [];
      lists.forEach((list, index) => {
        for (const entry of list) {
          const first = where.get(entry.name);
          if (first !== undefined) {
            throw new TypeError(`Duplicate ${kind} name "${entry.name}" in providers ${first + 1} and ${index + 1} of ${combiner}()`);
          }
          where.set(entry.name, index);
          next.set(entry.name, providers[index] as P);
          all.push(entry);
        }
      });
      owners = next;
      return all;
    },
    owner(name) {
      const found = owners.get(name);
      if (!found) throw new InvalidParamsError(`Unknown ${kind}: "${name}"`, { name });
      return found;
    },
  };
  const watchable = providers.filter((p) => p.watch);
  if (watchable.length > 0) {
    combined.watch = (listener) => {
      const stops = watchable.map((p) => (p.watch as NonNullable<P['watch']>)(listener));
      return () => {
        for (const stop of stops) stop();
      };
    };
  }
  return combined;
}
