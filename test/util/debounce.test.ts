/**
 * The bounded debounce behind the folder watcher's reloads and the git
 * webhook: one run per burst, and a run at the latest ten quiet periods into
 * a burst that never pauses. Fake timers: no wall-clock time is measured.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boundedDebounce } from '../../src/util/debounce.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('boundedDebounce', () => {
  it('runs once when a burst pauses', () => {
    const run = vi.fn();
    const call = boundedDebounce(run, 100);
    for (let i = 0; i < 5; i++) {
      call();
      vi.advanceTimersByTime(50);
    }
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs within ten quiet periods of a burst that never pauses, then starts a new burst', () => {
    const run = vi.fn();
    const call = boundedDebounce(run, 100);
    for (let i = 0; i < 30; i++) {
      call();
      vi.advanceTimersByTime(50);
    }
    // 1,500 ms of calls every 50 ms: a plain debounce would not have run yet.
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs nothing once cancelled', () => {
    const run = vi.fn();
    const call = boundedDebounce(run, 100);
    call();
    call.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled();
  });
});
