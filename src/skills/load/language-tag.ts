/**
 * BCP 47 language tags for a skill's `locale` argument: whether a tag is
 * well-formed (RFC 5646 §2.1 syntax, §2.2.9 "well-formed"), and which locale
 * variant a tag gets by the Lookup scheme of RFC 4647 §3.4.
 *
 * Hand-written rather than `Intl.getCanonicalLocales`: that one checks the
 * stricter Unicode BCP 47 locale identifier syntax (UTS #35), so it throws on
 * tags RFC 5646 calls well-formed, such as extended language subtags
 * (`zh-cmn-Hans-CN`), grandfathered tags (`i-klingon`), private-use tags
 * (`x-whatever`) and a variant given twice (`de-1901-1901`, which is
 * well-formed but not valid). Every step is linear in the tag's length.
 */

const TAG_CHARACTERS = /^[A-Za-z0-9-]+$/;
const ALPHA = /^[a-z]+$/;
const DIGITS = /^[0-9]+$/;
const ALPHANUMERIC = /^[a-z0-9]+$/;
/** RFC 5646 §2.1 `singleton`: one digit or letter other than `x`. */
const SINGLETON = /^[0-9a-wyz]$/;

/**
 * RFC 5646 §2.1 `irregular` grandfathered tags, in lower case: the only
 * well-formed tags that do not fit the `langtag` production. (The `regular`
 * ones, such as `zh-min-nan`, do fit it.)
 */
const IRREGULAR = new Set([
  'en-gb-oed',
  'i-ami',
  'i-bnn',
  'i-default',
  'i-enochian',
  'i-hak',
  'i-klingon',
  'i-lux',
  'i-mingo',
  'i-navajo',
  'i-pwn',
  'i-tao',
  'i-tay',
  'i-tsu',
  'sgn-be-fr',
  'sgn-be-nl',
  'sgn-ch-de',
]);

const alpha = (subtag: string | undefined, min: number, max: number): boolean =>
  subtag !== undefined && subtag.length >= min && subtag.length <= max && ALPHA.test(subtag);

const alphanumeric = (subtag: string | undefined, min: number, max: number): boolean =>
  subtag !== undefined && subtag.length >= min && subtag.length <= max && ALPHANUMERIC.test(subtag);

/** RFC 5646 §2.1 `region`: two letters or three digits. */
const isRegion = (subtag: string | undefined): boolean => alpha(subtag, 2, 2) || (subtag?.length === 3 && DIGITS.test(subtag));

/** RFC 5646 §2.1 `variant`: five to eight letters or digits, or a digit and three more. */
const isVariant = (subtag: string | undefined): boolean =>
  alphanumeric(subtag, 5, 8) || (alphanumeric(subtag, 4, 4) && (subtag as string).charCodeAt(0) <= 0x39);

/** RFC 5646 §2.1 `privateuse` from `subtags[at]` to the end: `x` and at least one subtag of one to eight letters or digits. */
function isPrivateUse(subtags: readonly string[], at: number): boolean {
  if (subtags[at] !== 'x' || at + 1 === subtags.length) return false;
  for (let i = at + 1; i < subtags.length; i++) if (!alphanumeric(subtags[i], 1, 8)) return false;
  return true;
}

/**
 * Whether `tag` is a well-formed BCP 47 language tag (RFC 5646 §2.1, any
 * case): `fr`, `fr-CA`, `zh-Hant-TW`, `de-CH-1996`, `en-US-u-nu-latn`,
 * `x-private`, `i-klingon`. Use it to tell a tag that merely has no match
 * (served the default text) from input that is not a tag at all (refused).
 */
export function isWellFormedLanguageTag(tag: string): boolean {
  if (!TAG_CHARACTERS.test(tag)) return false;
  const lower = tag.toLowerCase();
  if (IRREGULAR.has(lower)) return true;
  const subtags = lower.split('-');
  if (isPrivateUse(subtags, 0)) return true;
  // langtag = language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]
  const language = subtags[0];
  if (!alpha(language, 2, 8)) return false;
  let at = 1;
  // language = 2*3ALPHA ["-" extlang], extlang = 3ALPHA *2("-" 3ALPHA)
  if ((language as string).length <= 3) for (let n = 0; n < 3 && alpha(subtags[at], 3, 3); n++) at++;
  if (alpha(subtags[at], 4, 4)) at++;
  if (isRegion(subtags[at])) at++;
  while (isVariant(subtags[at])) at++;
  // extension = singleton 1*("-" (2*8alphanum))
  while (at < subtags.length && SINGLETON.test(subtags[at] as string)) {
    const first = ++at;
    while (alphanumeric(subtags[at], 2, 8)) at++;
    if (at === first) return false;
  }
  return at === subtags.length || isPrivateUse(subtags, at);
}

/**
 * The variant a well-formed `tag` gets by RFC 4647 §3.4 Lookup, or undefined
 * for the default: the tag itself if a variant has it (case-insensitively),
 * else the tag cut short one subtag at a time from the end, a single-character
 * subtag (an extension or private-use singleton) left last going with it, so
 * `zh-Hant-CN-x-private1-private2` tries `zh-Hant-CN-x-private1`, `zh-Hant-CN`,
 * `zh-Hant`, `zh`. Call {@link isWellFormedLanguageTag} first.
 */
export function lookupLanguageTag<T extends { readonly locale: string }>(tag: string, variants: readonly T[]): T | undefined {
  const longest = variants.reduce((max, v) => Math.max(max, v.locale.length), 0);
  const lower = tag.toLowerCase();
  const subtags = lower.split('-');
  let count = subtags.length;
  let end = lower.length;
  while (count > 0) {
    // Only prefixes as short as a variant's tag can match: a long tag costs one pass.
    if (end <= longest) {
      const range = lower.slice(0, end);
      const match = variants.find((v) => v.locale.length === end && v.locale.toLowerCase() === range);
      if (match) return match;
    }
    end -= (subtags[--count] as string).length + 1;
    if (count > 0 && (subtags[count - 1] as string).length === 1) end -= (subtags[--count] as string).length + 1;
  }
  return undefined;
}
