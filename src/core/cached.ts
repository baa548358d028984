/** Catalogues the engine builds on first use and drops on change. */
import type { Awaitable } from './context.js';

/** A catalogue built on first use and dropped on change; `now` is the built one, without a promise turn. */
export interface Cached<T> {
  get(): Promise<T>;
  /** The catalogue if it is built and still current, else undefined: then `get` builds it. */
  now(): T | undefined;
  invalidate(): void;
}

/** A cached catalogue: built on first use, dropped when its provider reports a change. */
export function cached<T>(build: () => Awaitable<T>): Cached<T> {
  let current: Promise<T> | undefined;
  // The value `current` settled with: read by requests that would otherwise wait a turn for it.
  let built: { value: T } | undefined;
  return {
    get() {
      if (!current) {
        const pending = Promise.resolve().then(build);
        current = pending;
        pending.then(
          (value) => {
            if (current === pending) built = { value };
          },
          // A failed build is not kept: the next request tries again.
          () => {
            if (current === pending) current = undefined;
          },
        );
      }
      return current;
    },
    now: () => built?.value,
    invalidate() {
      current = undefined;
      built = undefined;
    },
  };
}

/**
 * A provider's list as a catalogue: the list and each entry by name, built on
 * first use. A copy per build, so a rebuilt catalogue is a new list to the
 * pagers even from a provider that changed its array in place.
 */
export function namedCatalogue<T extends { name: string }>(list: (() => Awaitable<readonly T[]>) | undefined): Cached<{ list: T[]; byName: Map<string, T> }> {
  return cached(async () => {
    const items = list ? [...(await list())] : [];
    return { list: items, byName: new Map(items.map((item) => [item.name, item])) };
  });
}
