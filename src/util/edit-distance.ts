/**
 * How far apart two short strings are, for "did you mean" suggestions: a
 * misspelt frontmatter key (skills/load/key-spelling.ts) and a misspelt
 * command-line flag (cli/parse-errors.ts) are measured the same way.
 */

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
