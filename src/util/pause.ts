/**
 * Waits `ms`, or less when `signal` aborts; resolves whether it aborted. No
 * listener or timer is left behind either way (a long-lived signal would
 * otherwise gather one listener per wait).
 */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(true);
    const stop = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(false);
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
