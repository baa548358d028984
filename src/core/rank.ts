/**
 * Completion ranking: prefix matches first, then substring matches, then
 * fuzzy (in-order subsequence) matches, each group in the order of the source
 * list, all case-insensitive (lists over {@link FUZZY_SCAN_LIMIT} values skip
 * the fuzzy group). The MCP completion pages (2025-06-18 on,
 * server/utilities/completion §Implementation Considerations) ask servers to
 * rank by relevance and to fuzzy-match where it makes sense.
 */
import type { Completion } from './model.js';

/** The most values one completion result may carry (schema: `maxItems: 100`). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Lists longer than this skip the fuzzy group and stop scanning once a page
 * is full: a subsequence test of every value costs milliseconds per keystroke
 * at 100,000 values, and a long list has enough prefix and substring matches
 * to rank without it.
 */
export const FUZZY_SCAN_LIMIT = 10_000;

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (let i = 0; i < haystack.length && at < needle.length; i++) {
    if (haystack.charCodeAt(i) === needle.charCodeAt(at)) at++;
  }
  return at === needle.length;
}

/**
 * An index over a fixed list of values that answers ranked completions. The
 * prefix group comes from a sorted copy by binary search, so a prefix query
 * over a large list costs a logarithmic lookup plus the matches it returns.
 */
export interface CompletionIndex {
  readonly size: number;
  complete(partial: string, limit?: number): Completion;
}

/** Builds a {@link CompletionIndex} once for a list of values. */
export function createCompletionIndex(values: readonly string[]): CompletionIndex {
  const source = [...values];
  const lower = source.map((value) => value.toLowerCase());
  // Positions into `source`, ordered by lower-cased value; ties keep source order.
  // A typed array, so that a run of them sorts back into source order natively.
  const sorted = Uint32Array.from(
    lower.map((_, i) => i).sort((a, b) => {
      const x = lower[a] as string;
      const y = lower[b] as string;
      return x < y ? -1 : x > y ? 1 : a - b;
    }),
  );
  /** The source values at the first `count` of `positions`. */
  function valuesAt(positions: ArrayLike<number>, count: number): string[] {
    const values: string[] = [];
    for (let k = 0; k < count && k < positions.length; k++) values.push(source[positions[k] as number] as string);
    return values;
  }

  function lowerBound(key: string): number {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((lower[sorted[mid] as number] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  return {
    size: source.length,
    complete(partial, limit = MAX_COMPLETION_VALUES) {
      if (partial === '') {
        return { values: source.slice(0, limit), total: source.length, hasMore: source.length > limit };
      }
      const key = partial.toLowerCase();
      const start = lowerBound(key);
      let end = start;
      while (end < sorted.length && (lower[sorted[end] as number] as string).startsWith(key)) end++;
      const prefixCount = end - start;
      // Source order; a typed array sorts numerically without a comparator.
      const prefix = sorted.slice(start, end).sort();
      if (prefixCount > limit) {
        // More prefix matches than the page holds: the weaker groups are not
        // scanned, so the exact total is unknown and only `hasMore` is set.
        // Exactly a page of them falls through, since only the weaker groups
        // can tell whether anything is left over.
        return { values: valuesAt(prefix, limit), hasMore: true };
      }
      const isPrefix = new Set(prefix);
      const substring: number[] = [];
      const fuzzy: number[] = [];
      if (lower.length > FUZZY_SCAN_LIMIT) {
        // Substrings only, and only until the page is full (one more tells hasMore).
        const wanted = limit + 1 - prefixCount;
        for (let i = 0; i < lower.length && substring.length < wanted; i++) {
          if (!isPrefix.has(i) && (lower[i] as string).includes(key)) substring.push(i);
        }
        const ranked = [...prefix, ...substring];
        const cut = substring.length >= wanted;
        const page: Completion = { values: ranked.slice(0, limit).map((i) => source[i] as string), hasMore: cut };
        if (!cut) page.total = ranked.length;
        return page;
      }
      for (let i = 0; i < lower.length; i++) {
        if (isPrefix.has(i)) continue;
        const candidate = lower[i] as string;
        if (candidate.includes(key)) substring.push(i);
        else if (isSubsequence(key, candidate)) fuzzy.push(i);
      }
      const ranked = [...prefix, ...substring, ...fuzzy];
      return {
        values: ranked.slice(0, limit).map((i) => source[i] as string),
        total: ranked.length,
        hasMore: ranked.length > limit,
      };
    },
  };
}

/** Ranks `values` against `partial` once; for repeated queries build an index. */
export function rankCompletions(values: readonly string[], partial: string, limit = MAX_COMPLETION_VALUES): Completion {
  return createCompletionIndex(values).complete(partial, limit);
}
