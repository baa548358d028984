/**
 * Which known key an unknown frontmatter key was probably meant to be
 * (`descripton` for `description`, `allowed_tools` for `allowed-tools`), so
 * `check` can say so instead of "not an Agent Skills key". A key that is
 * near none is left alone: it is someone's own key, not a typo.
 */
import { editDistance } from '../../util/edit-distance.js';

/** The key folded as people vary it: case, `-` or `_` between words. */
const folded = (key: string): string => key.toLowerCase().replaceAll('_', '').replaceAll('-', '');

/** Keys longer than this are nobody's typo of a known key; comparing them costs nothing. */
const LONGEST = 40;

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
