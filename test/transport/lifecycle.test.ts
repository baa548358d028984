/**
 * The transport lifecycle module on its own: a stop that runs once, and the
 * drain (shutdown to each connection, wait for the work or the drain time,
 * disconnect to each). lifecycle-shared.test.ts holds the three transports
 * to it end to end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CloseReason } from '../../src/server/index.js';
import { createLifecycle, DEFAULT_DRAIN_TIMEOUT_MS, type Drainable, drain, withinDrainTime } from '../../src/transport/lifecycle.js';

/** A connection that writes down what it was told. */
function recorder(name: string, log: string[]): Drainable {
  return { close: (reason: CloseReason) => log.push(`${name}:${reason}`) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createLifecycle', () => {
  it('is serving, then draining from the first close() on, then closed once the stop settled', async () => {
    let finish!: () => void;
    const lifecycle = createLifecycle(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(lifecycle.state).toBe('serving');
    const closing = lifecycle.close();
    // In the same turn: whatever arrives next is refused.
    expect(lifecycle.state).toBe('draining');
    finish();
    await closing;
    expect(lifecycle.state).toBe('closed');
  });

  it('runs the stop once and hands every caller the same promise, before and after it finished', async () => {
    const stop = vi.fn(async () => {});
    const lifecycle = createLifecycle(stop);
    const first = lifecycle.close();
    expect(lifecycle.close()).toBe(first);
    await first;
    expect(lifecycle.close()).toBe(first);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('is closed even when the stop fails, and every caller sees the failure', async () => {
    const lifecycle = createLifecycle(async () => {
      throw new Error('stop failed');
    });
    const first = lifecycle.close();
    await expect(first).rejects.toThrow('stop failed');
    await expect(lifecycle.close()).rejects.toThrow('stop failed');
    expect(lifecycle.state).toBe('closed');
  });
});

describe('drain', () => {
  it('tells every connection shutdown in the same turn, waits for the work, then tells each disconnect', async () => {
    const log: string[] = [];
    let settle!: () => void;
    const connections = [recorder('a', log), recorder('b', log)];
    const draining = drain({
      connections: () => connections,
      settled: () => {
        log.push('settled?');
        return new Promise<void>((resolve) => (settle = resolve));
      },
      timeoutMs: 60_000,
    });
    expect(log).toEqual(['a:shutdown', 'b:shutdown', 'settled?']);
    // A connection opened while draining is ended with the rest.
    connections.push(recorder('c', log));
    settle();
    expect(await draining).toBe(true);
    expect(log).toEqual(['a:shutdown', 'b:shutdown', 'settled?', 'a:disconnect', 'b:disconnect', 'c:disconnect']);
  });

  it('disconnects what is left when the drain time runs out, and says so', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const draining = drain({ connections: () => [recorder('a', log)], settled: () => new Promise<void>(() => {}), timeoutMs: 250 });
    expect(log).toEqual(['a:shutdown']);
    await vi.advanceTimersByTimeAsync(250);
    expect(await draining).toBe(false);
    expect(log).toEqual(['a:shutdown', 'a:disconnect']);
  });
});

describe('withinDrainTime', () => {
  it('defaults to the 5000 ms every transport documents for drainTimeoutMs', () => {
    expect(DEFAULT_DRAIN_TIMEOUT_MS).toBe(5000);
  });

  it('leaves no timer behind once the work settled', async () => {
    vi.useFakeTimers();
    expect(await withinDrainTime(Promise.resolve(), DEFAULT_DRAIN_TIMEOUT_MS)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not keep the process alive while it waits', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let settle!: () => void;
    const waiting = withinDrainTime(new Promise<void>((resolve) => (settle = resolve)), 60_000);
    const timer = timers.mock.results.at(-1)?.value as NodeJS.Timeout;
    timers.mockRestore();
    expect(timer.hasRef()).toBe(false);
    settle();
    expect(await waiting).toBe(true);
  });
});
