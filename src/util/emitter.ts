/**
 * A minimal listener set: providers that can change use it to tell the server,
 * and a git source its new commits.
 */

/** Something that can be watched for events of type `T`. */
export interface Watchable<T> {
  /** Calls `listener` on every event until the returned function is called. */
  watch(listener: (event: T) => void): () => void;
}

/** A listener set with an `emit` for the owner and a `watch` for everyone else. */
export interface Emitter<T> extends Watchable<T> {
  emit(event: T): void;
}

/** Creates an {@link Emitter}. A listener that throws does not stop the others. */
export function createEmitter<T>(onListenerError?: (error: unknown) => void): Emitter<T> {
  const listeners = new Set<(event: T) => void>();
  return {
    watch(listener) {
      // Wrap so the same function can be registered twice and removed once each.
      const entry = (event: T): void => listener(event);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
  };
}
