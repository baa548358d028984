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
 * Lists longer than this skip the fuzzy group and stop looking once a page is
 * full: a subsequence test of every value costs milliseconds per keystroke at
 * 100,000 values, and a long list has enough prefix and substring matches to
 * rank without it. Their substring matches come from n-gram postings rather
 * than a scan; shorter lists are scanned whole (about 0.4 ms at 10,000).
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
 * Hashed n-gram postings in one flat array: bucket `b` lists, in ascending
 * order, the positions of the values that hold a gram hashing to `b`. Grams
 * that start at offset 0 are left out: a substring match outside the prefix
 * group starts at offset 1 or later, and so does every gram inside it.
 * Colliding grams share a bucket, which only adds candidates; every candidate
 * is checked with a real substring test, so the answer stays exact.
 */
interface GramIndex {
  /** How far a 32-bit gram hash is shifted right to give a bucket. */
  readonly shift: number;
  /** Bucket `b` is `positions[starts[b]]` up to `positions[starts[b + 1]]`. */
  readonly starts: Uint32Array;
  readonly positions: Uint32Array;
}

function gramHash(text: string, at: number, n: number, shift: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < n; k++) h = Math.imul(h ^ text.charCodeAt(at + k), 0x01000193);
  return Math.imul(h, 0x9e3779b1) >>> shift;
}

/**
 * Bucket bits per gram length: a few buckets per a-z gram of that length
 * (26, 676, 17,576), so that few common grams share one.
 */
const GRAM_BITS = [0, 12, 14, 16] as const;

function buildGramIndex(lower: readonly string[], n: 1 | 2 | 3): GramIndex {
  const bits = GRAM_BITS[n];
  const shift = 32 - bits;
  const buckets = 1 << bits;
  const starts = new Uint32Array(buckets + 1);
  // `last[b]` is one past the value that last entered bucket b, so that a
  // value with a repeated gram is listed once.
  const last = new Uint32Array(buckets);
  for (let i = 0; i < lower.length; i++) {
    const text = lower[i] as string;
    for (let at = 1; at + n <= text.length; at++) {
      const b = gramHash(text, at, n, shift);
      if (last[b] !== i + 1) {
        last[b] = i + 1;
        (starts[b + 1] as number)++;
      }
    }
  }
  for (let b = 0; b < buckets; b++) (starts[b + 1] as number) += starts[b] as number;
  const positions = new Uint32Array(starts[buckets] as number);
  const fill = starts.slice(0, buckets);
  last.fill(0);
  for (let i = 0; i < lower.length; i++) {
    const text = lower[i] as string;
    for (let at = 1; at + n <= text.length; at++) {
      const b = gramHash(text, at, n, shift);
      if (last[b] !== i + 1) {
        last[b] = i + 1;
        positions[(fill[b] as number)++] = i;
      }
    }
  }
  return { shift, starts, positions };
}

function bucketSize(index: GramIndex, b: number): number {
  return (index.starts[b + 1] as number) - (index.starts[b] as number);
}

/**
 * An index over a fixed list of values that answers ranked completions. The
 * prefix group comes from a sorted copy by binary search, so a prefix query
 * over a large list costs a logarithmic lookup plus the matches it returns.
 * On a long list the substring group comes from hashed n-gram postings built
 * on first need (about 10-15 ms and 3 MB per gram length at 100,000 values),
 * so a query that few values match costs about its candidates, not the list.
 */
export interface CompletionIndex {
  readonly size: number;
  complete(partial: string, limit?: number): Completion;
}

/**
 * What an index keeps of its list, built once; the query functions below take
 * it as their first argument.
 */
interface ListState {
  readonly source: readonly string[];
  readonly lower: readonly string[];
  /**
   * Positions into `source`, ordered by lower-cased value; ties keep source
   * order. A typed array, so that a run of them sorts back into source order
   * natively.
   */
  readonly sorted: Uint32Array;
  /**
   * Built on the first query that needs one, per gram length: most lists
   * never fall through to a substring search, and those that do may only
   * ever see keys of one length.
   */
  readonly grams: (GramIndex | undefined)[];
}

function listState(values: readonly string[]): ListState {
  const source = [...values];
  const lower = source.map((value) => value.toLowerCase());
  const sorted = Uint32Array.from(
    lower
      .map((_, i) => i)
      .sort((a, b) => {
        const x = lower[a] as string;
        const y = lower[b] as string;
        return x < y ? -1 : x > y ? 1 : a - b;
      }),
  );
  return { source, lower, sorted, grams: [] };
}

/** The source values at the first `count` of `positions`. */
function valuesAt(state: ListState, positions: ArrayLike<number>, count: number): string[] {
  const values: string[] = [];
  for (let k = 0; k < count && k < positions.length; k++) values.push(state.source[positions[k] as number] as string);
  return values;
}

/**
 * Pushes onto `out`, in source order, the values that hold `key` anywhere
 * but at their start, stopping at `wanted`. Candidates are the postings
 * of the key's sparsest gram, narrowed to those also in the next sparsest,
 * so the cost follows those buckets, not the length of the list.
 */
function collectSubstrings(state: ListState, key: string, wanted: number, out: number[]): void {
  const { lower } = state;
  const n = Math.min(key.length, 3) as 1 | 2 | 3;
  const index = (state.grams[n] ??= buildGramIndex(lower, n));
  const { starts, positions } = index;
  // The two smallest distinct buckets among the key's grams.
  let best = -1;
  let next = -1;
  for (let at = 0; at + n <= key.length; at++) {
    const b = gramHash(key, at, n, index.shift);
    if (b === best || b === next) continue;
    if (best < 0 || bucketSize(index, b) < bucketSize(index, best)) {
      next = best;
      best = b;
    } else if (next < 0 || bucketSize(index, b) < bucketSize(index, next)) {
      next = b;
    }
  }
  let other = next < 0 ? 0 : (starts[next] as number);
  const otherEnd = next < 0 ? 0 : (starts[next + 1] as number);
  const end = starts[best + 1] as number;
  for (let k = starts[best] as number; k < end && out.length < wanted; k++) {
    const i = positions[k] as number;
    if (next >= 0) {
      // Both postings ascend, so one forward walk intersects them.
      while (other < otherEnd && (positions[other] as number) < i) other++;
      if (other === otherEnd) break;
      if (positions[other] !== i) continue;
    }
    if ((lower[i] as string).indexOf(key) > 0) out.push(i);
  }
}

function lowerBound(state: ListState, key: string): number {
  const { lower, sorted } = state;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((lower[sorted[mid] as number] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The prefix group in source order, from the sorted copy: a logarithmic
 * lookup plus the matches.
 */
function prefixMatches(state: ListState, key: string): Uint32Array {
  const { lower, sorted } = state;
  const start = lowerBound(state, key);
  let end = start;
  while (end < sorted.length && (lower[sorted[end] as number] as string).startsWith(key)) end++;
  // Source order; a typed array sorts numerically without a comparator.
  return sorted.slice(start, end).sort();
}

/** A long list's page: prefix, then substring matches from the postings, no fuzzy group. */
function completeLong(state: ListState, key: string, prefix: Uint32Array, limit: number): Completion {
  // Substrings only, and only until the page is full (one more tells hasMore).
  const wanted = limit + 1 - prefix.length;
  const substring: number[] = [];
  collectSubstrings(state, key, wanted, substring);
  const ranked = [...prefix, ...substring];
  const cut = substring.length >= wanted;
  const page: Completion = { values: valuesAt(state, ranked, limit), hasMore: cut };
  // A cut scan leaves the total unknown; a full one counts every
  // prefix and substring match (the fuzzy group is not ranked here).
  if (!cut) page.total = ranked.length;
  return page;
}

/** A short list's page: one scan for the substring and fuzzy groups, with the exact total. */
function completeShort(state: ListState, key: string, prefix: Uint32Array, limit: number): Completion {
  const { lower } = state;
  const substring: number[] = [];
  const fuzzy: number[] = [];
  for (let i = 0; i < lower.length; i++) {
    const candidate = lower[i] as string;
    // At 0 it is in the prefix group already.
    const at = candidate.indexOf(key);
    if (at > 0) substring.push(i);
    else if (at < 0 && isSubsequence(key, candidate)) fuzzy.push(i);
  }
  const ranked = [...prefix, ...substring, ...fuzzy];
  return {
    values: valuesAt(state, ranked, limit),
    total: ranked.length,
    hasMore: ranked.length > limit,
  };
}

function complete(state: ListState, partial: string, limit: number): Completion {
  const { source } = state;
  if (partial === '') {
    return { values: source.slice(0, limit), total: source.length, hasMore: source.length > limit };
  }
  const key = partial.toLowerCase();
  const prefix = prefixMatches(state, key);
  if (prefix.length > limit) {
    // More prefix matches than the page holds: the weaker groups are not
    // scanned, so the exact total is unknown and only `hasMore` is set.
    // Exactly a page of them falls through, since only the weaker groups
    // can tell whether anything is left over.
    return { values: valuesAt(state, prefix, limit), hasMore: true };
  }
  return state.lower.length > FUZZY_SCAN_LIMIT ? completeLong(state, key, prefix, limit) : completeShort(state, key, prefix, limit);
}

/** Builds a {@link CompletionIndex} once for a list of values. */
export function createCompletionIndex(values: readonly string[]): CompletionIndex {
  const state = listState(values);
  return {
    size: state.source.length,
    complete: (partial, limit = MAX_COMPLETION_VALUES) => complete(state, partial, limit),
  };
}

/** Ranks `values` against `partial` once; for repeated queries build an index. */
export function rankCompletions(values: readonly string[], partial: string, limit = MAX_COMPLETION_VALUES): Completion {
  return createCompletionIndex(values).complete(partial, limit);
}
