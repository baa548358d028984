/** Catalogues the engine builds on first use and drops on change. */
import type { Awaitable } from './context.js';

/** A cached catalogue: built on first use, dropped when its provider reports a change. */
export function cached<T>(build: () => Awaitable<T>): { get(): Promise<T>; invalidate(): void } {
  let current: Promise<T> | undefined;
  return {
    get() {
      if (!current) {
        const pending = Promise.resolve().then(build);
        current = pending;
        // A failed build is not kept: the next request tries again.
        pending.catch(() => {
          if (current === pending) current = undefined;
        });
      }
      return current;
    },
    invalidate() {
      current = undefined;
    },
  };
}

/**
 * A provider's list as a catalogue: the list and each entry by name, built on
 * first use. A copy per build, so a rebuilt catalogue is a new list to the
 * pagers even from a provider that changed its array in place.
 */
export function namedCatalogue<T extends { name: string }>(
  list: (() => Awaitable<readonly T[]>) | undefined,
): { get(): Promise<{ list: T[]; byName: Map<string, T> }>; invalidate(): void } {
  return cached(async () => {
    const items = list ? [...(await list())] : [];
    return { list: items, byName: new Map(items.map((item) => [item.name, item])) };
  });
}
