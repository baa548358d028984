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
