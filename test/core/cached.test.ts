import { describe, expect, it } from 'vitest';
import { cached } from '../../src/core/cached.js';

describe('cached', () => {
  it('gives the built value at once only after a build settled, and never a dropped one', async () => {
    let builds = 0;
    const catalogue = cached(() => ++builds);
    expect(catalogue.now()).toBeUndefined();
    const first = catalogue.get();
    // Not built yet: a reader must wait for get.
    expect(catalogue.now()).toBeUndefined();
    expect(await first).toBe(1);
    expect(catalogue.now()).toBe(1);
    catalogue.invalidate();
    expect(catalogue.now()).toBeUndefined();
    const second = catalogue.get();
    expect(catalogue.now()).toBeUndefined();
    expect(await second).toBe(2);
    expect(catalogue.now()).toBe(2);
  });

  it('does not keep a build that a change dropped while it ran', async () => {
    let release!: (value: string) => void;
    const builds = [new Promise<string>((resolve) => (release = resolve)), Promise.resolve('new')];
    const catalogue = cached(() => builds.shift() as Promise<string>);
    const stale = catalogue.get();
    catalogue.invalidate();
    expect(await catalogue.get()).toBe('new');
    release('old');
    await stale;
    expect(catalogue.now()).toBe('new');
  });

  it('keeps nothing from a failed build, and builds again on the next get', async () => {
    let fail = true;
    const catalogue = cached(() => {
      if (fail) throw new Error('provider down');
      return 'ok';
    });
    await expect(catalogue.get()).rejects.toThrow('provider down');
    expect(catalogue.now()).toBeUndefined();
    fail = false;
    expect(await catalogue.get()).toBe('ok');
    expect(catalogue.now()).toBe('ok');
  });
});
