import { describe, expect, it } from 'vitest';
import { remembering } from '../../src/util/remember.js';

describe('remembering', () => {
  it('answers each value once, then from what it kept', () => {
    const asked: string[] = [];
    const lower = remembering((value) => {
      asked.push(value);
      return value.toLowerCase();
    }, 4);
    expect([lower('Host'), lower('Host'), lower('ORIGIN'), lower('Host')]).toEqual(['host', 'host', 'origin', 'host']);
    expect(asked).toEqual(['Host', 'ORIGIN']);
  });

  it('keeps no more than it may, and starts over past that', () => {
    const asked: string[] = [];
    const check = remembering((value) => {
      asked.push(value);
      return value.length > 1;
    }, 2);
    check('a');
    check('bb');
    // A third value: what was kept is dropped, so 'a' is asked again.
    check('ccc');
    expect(check('a')).toBe(false);
    expect(asked).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});
