/**
 * A debounce with a bound: `run` is called once a burst of calls pauses for
 * `quietMs`, or at the latest ten quiet periods after the burst began. A
 * plain debounce would wait forever under a steady stream of calls (file
 * events while a tree is copied in, webhooks from a busy repository, or an
 * event loop too busy to see a pause).
 */
export function boundedDebounce(run: () => void, quietMs: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // When the first call of the pending burst came.
  let burstStart: number | undefined;
  const call = (): void => {
    clearTimeout(timer);
    const now = Date.now();
    burstStart ??= now;
    const wait = Math.max(0, Math.min(quietMs, burstStart + 10 * quietMs - now));
    timer = setTimeout(() => {
      burstStart = undefined;
      run();
    }, wait);
    // A pending run alone does not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
  };
  call.cancel = (): void => {
    clearTimeout(timer);
    burstStart = undefined;
  };
  return call;
}
