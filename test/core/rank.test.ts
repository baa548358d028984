import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Completion } from '../../src/core/model.js';
import { createCompletionIndex, FUZZY_SCAN_LIMIT, MAX_COMPLETION_VALUES, rankCompletions } from '../../src/core/rank.js';

/** In-order subsequence by code unit, written apart from rank.ts on purpose. */
function inOrder(needle: string, haystack: string): boolean {
  let from = 0;
  for (const unit of needle.split('')) {
    const at = haystack.indexOf(unit, from);
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

/** The ranking by plain filters over every value: prefix, then substring, then (short lists only) fuzzy. */
function reference(values: readonly string[], partial: string, limit: number): Completion {
  if (partial === '') return { values: values.slice(0, limit), total: values.length, hasMore: values.length > limit };
  const key = partial.toLowerCase();
  const lower = values.map((v) => v.toLowerCase());
  const long = values.length > FUZZY_SCAN_LIMIT;
  const prefix = values.filter((_, i) => lower[i]!.startsWith(key));
  const substring = values.filter((_, i) => !lower[i]!.startsWith(key) && lower[i]!.includes(key));
  const fuzzy = long ? [] : values.filter((_, i) => !lower[i]!.includes(key) && inOrder(key, lower[i]!));
  const ranked = [...prefix, ...substring, ...fuzzy];
  const page: Completion = { values: ranked.slice(0, limit), hasMore: ranked.length > limit };
  // The total is given when every group was ranked: short lists whose prefix
  // group does not overflow the page, long lists whose page is not cut.
  if (long ? ranked.length <= limit : prefix.length <= limit) page.total = ranked.length;
  return page;
}

// Mostly a and b, so that values share grams and a gram's bucket holds values
// that lack the rest of the key; then case pairs, letters whose lower case is
// longer (İ) or has no upper pair (ß), a surrogate pair and a lone surrogate.
const unit = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'A', 'B'), weight: 4 },
  { arbitrary: fc.constantFrom('c', 'é', 'É', 'İ', 'i', 'ß', 'ẞ', '-', ' ', '😀', '\ud83d'), weight: 1 },
);
const word = fc.array(unit, { maxLength: 8 }).map((units) => units.join(''));

/** Values plus partials that often hit them: random words, and slices or picks of a value in either case. */
function scenario(padding: number, maxValues: number) {
  return fc.array(word, { maxLength: maxValues }).chain((values) => {
    const derived =
      values.length === 0
        ? word
        : fc.tuple(fc.nat(), fc.nat(8), fc.nat(8), fc.integer({ min: 0, max: 255 }), fc.constantFrom('slice', 'pick', 'upper')).map(([v, a, b, mask, how]) => {
            const value = values[v % values.length]!;
            if (how === 'pick')
              return value
                .split('')
                .filter((_, k) => (mask >> k) & 1)
                .join('');
            const slice = value.slice(Math.min(a, b), Math.max(a, b));
            return how === 'upper' ? slice.toUpperCase() : slice;
          });
    // Padding: empty values, which no non-empty partial matches, to push the
    // list over FUZZY_SCAN_LIMIT with the random values on both sides of it.
    const cut = fc.nat(values.length);
    return fc.record({
      values: cut.map((at) => [...values.slice(0, at), ...Array<string>(padding).fill(''), ...values.slice(at)]),
      partials: fc.array(fc.oneof(word, derived), { minLength: 1, maxLength: 6 }),
      limit: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant(MAX_COMPLETION_VALUES)),
    });
  });
}

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

  it('finds a long-list substring among values that hold only some of its grams', () => {
    // The grams of abba are abb and bba: xabbx and xbbay hold one of them, xabbybba both but not abba.
    const values = ['xabbx', 'xbbax', 'xabbax', 'xbbay', 'xabbybba', 'yabba', ...Array<string>(FUZZY_SCAN_LIMIT).fill('')];
    expect(createCompletionIndex(values).complete('abba')).toEqual({ values: ['xabbax', 'yabba'], total: 2, hasMore: false });
  });

  it('matches case-insensitively', () => {
    expect(rankCompletions(['Alpha', 'beta'], 'AL').values).toEqual(['Alpha']);
  });
});

describe('createCompletionIndex (property)', () => {
  it('ranks a short list exactly as plain filters over every value do', () => {
    fc.assert(
      fc.property(scenario(0, 30), ({ values, partials, limit }) => {
        const index = createCompletionIndex(values);
        for (const partial of partials) expect(index.complete(partial, limit)).toEqual(reference(values, partial, limit));
      }),
      { numRuns: 1000 },
    );
  });

  it('ranks a long list exactly as plain prefix and substring filters do', () => {
    fc.assert(
      fc.property(scenario(FUZZY_SCAN_LIMIT + 1, 80), ({ values, partials, limit }) => {
        const index = createCompletionIndex(values);
        for (const partial of partials) expect(index.complete(partial, limit)).toEqual(reference(values, partial, limit));
      }),
      { numRuns: 300 },
    );
  });
});
