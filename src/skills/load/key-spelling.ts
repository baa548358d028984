/**
 * Which known key an unknown frontmatter key was probably meant to be
 * (`descripton` for `description`, `allowed_tools` for `allowed-tools`), so
 * `check` can say so instead of "not an Agent Skills key". A key that is
 * near none is left alone: it is someone's own key, not a typo.
 */

/** The key folded as people vary it: case, `-` or `_` between words. */
const folded = (key: string): string => key.toLowerCase().replaceAll('_', '').replaceAll('-', '');

/** Keys longer than this are nobody's typo of a known key; comparing them costs nothing. */
const LONGEST = 40;

/**
 * The optimal string alignment distance (Levenshtein with adjacent
 * transpositions counted once) between `a` and `b`, or `limit + 1` when it is
 * more than `limit`: one row pass per character of `a`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] as number, limit + 1);
}

/**
 * The known key `key` was probably meant to be, or undefined: the same key
 * but for case and `-`/`_` (`allowed_tools`, `Description`), else the one
 * nearest by {@link editDistance}, 1 apart (2 for keys of eight letters or
 * more: `discription`), when no other known key is as near. Tighter would
 * miss `licence`; looser takes `tools` for `hooks`.
 */
export function probableKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > LONGEST || known.includes(key)) return undefined;
  const wanted = folded(key);
  const same = known.find((k) => folded(k) === wanted);
  if (same !== undefined) return same;
  if (wanted.length < 3) return undefined;
  const limit = wanted.length >= 8 ? 2 : 1;
  let nearest: string | undefined;
  let distance = limit + 1;
  let tied = false;
  for (const candidate of known) {
    const d = editDistance(wanted, folded(candidate), limit);
    if (d < distance) [nearest, distance, tied] = [candidate, d, false];
    else if (d === distance) tied = true;
  }
  return distance <= limit && !tied ? nearest : undefined;
}
