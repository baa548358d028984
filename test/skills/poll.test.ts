/**
 * skills/poll.ts: `stop` waits for the fetch in flight (and one queued after
 * it), so a source's close removes its folders only once nothing writes there.
 */
import { describe, expect, it } from 'vitest';
import { createPoller } from '../../src/skills/poll.js';

describe('createPoller', () => {
  it('resolves stop only after the fetch that runs, and the one queued after it, have ended', async () => {
    const ends: Array<() => void> = [];
    let runs = 0;
    const poller = createPoller(() => {
      runs++;
      return new Promise<void>((resolve) => ends.push(resolve));
    }, 0);
    void poller.sync();
    void poller.sync();
    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    ends.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The queued fetch started after the first; stop still waits for it.
    expect(runs).toBe(2);
    expect(stopped).toBe(false);
    ends.shift()?.();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('stops at once when nothing runs, and a failed fetch does not make stop fail', async () => {
    const idle = createPoller(async () => {}, 0);
    await expect(idle.stop()).resolves.toBeUndefined();
    const failing = createPoller(() => Promise.reject(new Error('down')), 0);
    await expect(failing.sync()).rejects.toThrow('down');
    void failing.sync().catch(() => {});
    await expect(failing.stop()).resolves.toBeUndefined();
  });
});
