/**
 * How a remote source (a git repository, a discovery index) is polled: one
 * fetch at a time, calls made while one runs sharing one more after it, and
 * the next fetch `intervalMs` after the last one ended. Written once for both
 * sources (git/source.ts, remote/index-source.ts).
 */

/** A source's polling: fetch now, and stop. */
export interface Poller<T> {
  /** Runs a fetch now; while one runs, every caller shares one more after it. */
  sync(): Promise<T>;
  /**
   * Stops the timer; resolves once a fetch that runs (and one queued after
   * it) has ended, so the caller may then remove what the fetch writes into.
   */
  stop(): Promise<void>;
}

/** Polls `run` every `intervalMs` (0: only when {@link Poller.sync} is called). */
export function createPoller<T>(run: () => Promise<T>, intervalMs: number): Poller<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  function sync(): Promise<T> {
    if (!running) {
      running = run().finally(() => {
        running = undefined;
      });
      return running;
    }
    // A fetch runs: what changed after it started is seen by one more, shared by every caller until then.
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return sync();
      });
    return queued;
  }

  function schedule(): void {
    if (intervalMs === 0 || stopped) return;
    timer = setTimeout(() => {
      sync()
        .catch(() => {})
        .finally(schedule);
    }, intervalMs);
    // The timer alone keeps no process alive: the transport does.
    timer.unref?.();
  }

  schedule();
  return {
    sync,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (queued ?? running)?.catch(() => {});
    },
  };
}
