/**
 * The first sentence of a skill description, for prompt pickers.
 *
 * Clients show `prompts/list` descriptions in one line, and Agent Skills
 * descriptions are written for models: what the skill does, then when to use
 * it, up to 1024 characters. The first sentence is the readable part.
 *
 * This is a heuristic splitter, tuned for descriptions rather than prose in
 * general. It errs towards a longer sentence: cutting "e.g." or "v1.2" in half
 * is worse in a picker than showing one sentence too many (which the length
 * cap bounds anyway). It deliberately avoids a locale database or
 * `Intl.Segmenter`, whose sentence rules differ between ICU versions and so
 * between Node releases.
 */

import { trimEndOf } from '../../util/trim.js';

/** Characters that can end a sentence: ASCII, the ellipsis, and the CJK full-width forms. */
const TERMINATORS = new Set(['.', '!', '?', '…', '。', '！', '？']);

/** The CJK forms end a sentence without any following space: CJK text has none. */
const CJK_TERMINATORS = new Set(['。', '！', '？']);

/** Closing quotes, brackets and Markdown emphasis that belong to the sentence they follow (`**Done.** Next`). */
const CLOSERS = new Set(['"', "'", '”', '’', '»', ')', ']', '}', '*', '_', '」', '』', '）', '】', '》']);

/** Opening quotes, brackets and emphasis skipped to find the first letter of the next word. */
const OPENERS = new Set(['"', "'", '“', '‘', '«', '(', '[', '{', '*', '_', '¿', '¡', '「', '『', '（', '【', '《']);

/**
 * Abbreviations that never end a sentence, lower-cased, without the final
 * period. They are followed by a name, a number or an example, often
 * capitalised (`e.g. Python`, `Dr. Smith`, `vs. Go`), so the lower-case rule
 * below does not cover them.
 */
const NEVER_FINAL = new Set(['e.g', 'eg', 'i.e', 'ie', 'vs', 'cf', 'approx', 'incl', 'excl', 'esp', 'viz', 'mr', 'mrs', 'ms', 'dr', 'prof', 'fig']);

/**
 * Abbreviations that often end a sentence too ("Formats JSON, YAML, etc. Use
 * it when..."): they end one only before a capital letter. Mid-sentence they
 * are followed by lower case, a digit or punctuation, and are kept.
 */
const MAYBE_FINAL = new Set(['etc', 'inc', 'ltd', 'co', 'corp', 'llc']);

const LOWER = /^\p{Ll}/u;
const UPPER = /^\p{Lu}/u;
const SINGLE_INITIAL = /^\p{Lu}$/u;
/** Dotted abbreviations such as `e.g`, `U.S`, `a.m` (the final period is the candidate). */
const DOTTED = /^(?:\p{L}\.)+\p{L}$/u;

/** The first letter of the word that starts at `from`, past opening quotes and brackets. */
function nextWordStart(text: string, from: number): string {
  let i = from;
  while (i < text.length && OPENERS.has(text[i] as string)) i++;
  return text.slice(i, i + 2);
}

/** The word that ends just before `at`, without opening quotes and brackets. */
function wordBefore(text: string, at: number): string {
  const start = text.lastIndexOf(' ', at - 1) + 1;
  let word = text.slice(start, at);
  while (word !== '' && OPENERS.has(word[0] as string)) word = word.slice(1);
  return word;
}

/** Whether a single period after `word` and before `next` is an abbreviation's or an initial's. */
function isAbbreviation(word: string, next: string): boolean {
  const lower = word.toLowerCase();
  if (NEVER_FINAL.has(lower) || SINGLE_INITIAL.test(word) || DOTTED.test(word)) return true;
  // "No. 5": only capitalised and before a number, so "Say no. Then..." still ends.
  if (word === 'No') return /^[0-9#]/.test(next);
  if (MAYBE_FINAL.has(lower)) return !UPPER.test(next);
  return false;
}

/** The index just past the first sentence of whitespace-collapsed `text`, or -1 when no sentence ends. */
function sentenceEnd(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (!TERMINATORS.has(text[i] as string)) continue;
    // A run of terminators ("?!", "...") ends (or does not end) as one.
    let j = i;
    let cjk = false;
    while (j < text.length && TERMINATORS.has(text[j] as string)) {
      if (CJK_TERMINATORS.has(text[j] as string)) cjk = true;
      j++;
    }
    let k = j;
    while (k < text.length && CLOSERS.has(text[k] as string)) k++;
    if (cjk || k === text.length) return k;
    // A terminator not followed by a space never ends a sentence: v1.2, 3.14,
    // Node.js, .env, example.com, README.md, "?!x".
    if (text[k] !== ' ') {
      i = j - 1;
      continue;
    }
    const next = nextWordStart(text, k + 1);
    // Sentences start with a capital, a digit or a non-cased script; a lower-case
    // word continues the sentence. This covers "approx. ten", "wait... then",
    // "(see below.) and", "etc. and more" without listing them.
    if (LOWER.test(next)) {
      i = j - 1;
      continue;
    }
    if (j - i === 1 && text[i] === '.' && isAbbreviation(wordBefore(text, i), next)) {
      i = j - 1;
      continue;
    }
    return k;
  }
  return -1;
}

/** Cuts `text` to at most `maxLength` characters at a word boundary, marking the cut with `…`. */
function cap(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  if (!(maxLength >= 1)) return '';
  const room = Math.floor(maxLength) - 1;
  const space = text.lastIndexOf(' ', room);
  let kept = space > 0 ? text.slice(0, space) : text.slice(0, room);
  // A hard cut inside one long word must not split a surrogate pair.
  const last = kept.charCodeAt(kept.length - 1);
  if (space <= 0 && last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  // "one, two, …" reads worse than "one, two…".
  kept = trimEndOf(kept, ' \t\n\r\f\v\u00a0,;:-–—');
  return `${kept}…`;
}

/**
 * How long a listed description may be. Agent Skills descriptions run to 1024
 * characters and their first sentences to about 400 in the public collections
 * (GitHub's awesome-copilot: 419 skills, the longest first sentence 378
 * characters; at a cap of 160, 68 of them were cut): long enough for any
 * first sentence seen, short enough for a picker's line.
 */
export const LISTING_MAX_LENGTH = 400;

/**
 * The first sentence of `text`, whitespace collapsed to single spaces and at
 * most `maxLength` characters (UTF-16 code units) long.
 *
 * Use it for the one-line `description` of a prompt built from a skill, whose
 * full description stays available elsewhere.
 *
 * - A sentence ends at `.`, `!`, `?` or `…` (after any closing quotes,
 *   brackets or `**`) followed by a space or the end of the text, unless the
 *   next word starts with a lower-case letter; or at `。`, `！`, `？`.
 * - A period not followed by a space never ends one (`v1.2`, `Node.js`,
 *   `.env`, `example.com`); nor do `e.g.`, `i.e.`, `vs.`, `cf.`, `approx.`,
 *   `incl.`, `Mr.`, `Dr.` and the like, single capital initials
 *   (`J. R. R. Tolkien`), dotted abbreviations (`U.S.`), or `No.` before a
 *   number. `etc.`, `Inc.`, `Ltd.` end a sentence only before a capital letter.
 * - Text without a sentence end is returned whole.
 * - Longer than `maxLength`: cut at the last space that fits, then `…` is
 *   appended, the total staying within `maxLength`.
 *
 * @example
 * firstSentence('Reviews SQL, e.g. Postgres migrations. Use when a PR touches *.sql files.');
 * // 'Reviews SQL, e.g. Postgres migrations.'
 */
export function firstSentence(text: string, maxLength = LISTING_MAX_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = sentenceEnd(flat);
  const sentence = cap(end < 0 ? flat : flat.slice(0, end), maxLength);
  // A description that is one short sentence already is returned as given: the
  // catalogue then keeps one string for it, not an equal copy per prompt.
  return sentence === text ? text : sentence;
}
