import { describe, expect, it } from 'vitest';
import { createCompletionIndex, rankCompletions } from '../../src/core/rank.js';

describe('rankCompletions', () => {
  it('puts prefix matches first, then substrings, then fuzzy matches, each in source order', () => {
    const values = ['typescript', 'javascript', 'python', 'TypeSpec', 'coffeescript', 'tcl'];
    expect(rankCompletions(values, 'ty').values).toEqual(['typescript', 'TypeSpec']);
    expect(rankCompletions(values, 'script').values).toEqual(['typescript', 'javascript', 'coffeescript']);
    expect(rankCompletions(values, 'tpt').values).toEqual(['typescript']);
    expect(rankCompletions(values, 'scr').values).toEqual(['typescript', 'javascript', 'coffeescript']);
    expect(rankCompletions(values, 'jvs').values).toEqual(['javascript']);
  });

  it('returns everything for an empty value, capped with total and hasMore', () => {
    const values = Array.from({ length: 250 }, (_, i) => `v${i}`);
    const result = rankCompletions(values, '');
    expect(result.values).toHaveLength(100);
    expect(result.values[0]).toBe('v0');
    expect(result).toMatchObject({ total: 250, hasMore: true });
  });

  it('reports the exact total when weaker groups were scanned', () => {
    expect(rankCompletions(['ab', 'xab', 'axb', 'zz'], 'ab')).toEqual({ values: ['ab', 'xab', 'axb'], total: 3, hasMore: false });
  });

  it('says there is no more when the prefix matches exactly fill the page and nothing else matches', () => {
    const values = ['ab', 'abc', 'zz'];
    expect(rankCompletions(values, 'ab', 2)).toEqual({ values: ['ab', 'abc'], total: 2, hasMore: false });
    expect(rankCompletions([...values, 'xab'], 'ab', 2)).toEqual({ values: ['ab', 'abc'], total: 3, hasMore: true });
    const long = Array.from({ length: 20_000 }, (_, i) => `v${i}`);
    expect(createCompletionIndex(long).complete('v1999', 11)).toEqual({ values: long.filter((v) => v.startsWith('v1999')), total: 11, hasMore: false });
    expect(createCompletionIndex(long).complete('v1999', 10)).toMatchObject({ hasMore: true });
  });

  it('answers prefix queries over 100,000 values from the index, in source order', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `item-${(i * 7919) % 100_000}`);
    const index = createCompletionIndex(values);
    const result = index.complete('item-4242');
    const expected = values.filter((v) => v.startsWith('item-4242'));
    expect(result.values.slice(0, expected.length)).toEqual(expected);
  });

  it('ranks long lists by prefix then substring only, stopping once a page is full', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `v${i}-${i % 7 === 0 ? 'abc' : 'xyz'}`);
    const few = createCompletionIndex([...values, 'a-b-c', 'abcdef']).complete('abcd');
    expect(few).toEqual({ values: ['abcdef'], total: 1, hasMore: false });
    const many = createCompletionIndex(values).complete('abc');
    expect(many.values).toHaveLength(100);
    expect(many.values[0]).toBe('v0-abc');
    expect(many).toMatchObject({ hasMore: true });
    expect(many.total).toBeUndefined();
    // Fuzzy matches (a-b-c) are left out of long lists.
    expect(createCompletionIndex([...values, 'a-b-c']).complete('abc').values).not.toContain('a-b-c');
  });

  it('matches case-insensitively', () => {
    expect(rankCompletions(['Alpha', 'beta'], 'AL').values).toEqual(['Alpha']);
  });
});
