/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
 * Program 14(3), 1980; the reference implementation at tartarus.org/martin/PorterStemmer,
 * with its two published departures: `bli`→`ble` and `logi`→`log` in step 2), so that a
 * search for "spreadsheets", "filling" or "generated" meets "spreadsheet", "fill" and
 * "generate". Lower-case a-z words only: anything else is returned as it is.
 * Written here rather than taken as a package: about a hundred lines, no regular
 * expression, linear in the word.
 */

/** Whether `w[i]` is a consonant (Porter §2: y is a consonant after a vowel or at the start). */
function consonant(w: string, i: number): boolean {
  switch (w[i]) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u':
      return false;
    case 'y':
      return i === 0 || !consonant(w, i - 1);
    default:
      return true;
  }
}

/** Porter's m: the number of vowel-consonant sequences in `w[0..end)`. */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && consonant(w, i)) i++;
  while (i < end) {
    while (i < end && !consonant(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && consonant(w, i)) i++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!consonant(w, i)) return true;
  return false;
}

/** *d: ends with a double consonant. */
function doubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && consonant(w, end - 1);
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function cvc(w: string, end: number): boolean {
  if (end < 3 || !consonant(w, end - 1) || consonant(w, end - 2) || !consonant(w, end - 3)) return false;
  const last = w[end - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

type Rules = readonly (readonly [suffix: string, replacement: string])[];

/**
 * Steps 2 to 4: the first rule whose suffix the word ends with decides (the reference
 * implementation's order); it applies when the stem before it has a measure above `min`.
 */
function replaceSuffix(w: string, rules: Rules, min: number, extra?: (stem: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    if (measure(stem, stem.length) > min && (extra === undefined || extra(stem))) return stem + replacement;
    return w;
  }
  return w;
}

const STEP2: Rules = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: Rules = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4: Rules = [
  ['al', ''],
  ['ance', ''],
  ['ence', ''],
  ['er', ''],
  ['ic', ''],
  ['able', ''],
  ['ible', ''],
  ['ant', ''],
  ['ement', ''],
  ['ment', ''],
  ['ent', ''],
  ['ion', ''],
  ['ou', ''],
  ['ism', ''],
  ['ate', ''],
  ['iti', ''],
  ['ous', ''],
  ['ive', ''],
  ['ize', ''],
];

function step1ab(w: string): string {
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('eed')) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  let stem: string;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stem = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stem = w.slice(0, -3);
  else return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  const last = stem[stem.length - 1];
  if (doubleConsonant(stem, stem.length) && last !== 'l' && last !== 's' && last !== 'z') return stem.slice(0, -1);
  if (measure(stem, stem.length) === 1 && cvc(stem, stem.length)) return `${stem}e`;
  return stem;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

function isLowerAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** The Porter stem of a lower-case a-z word; words of two letters or fewer, and any other text, as they are. */
export function stem(word: string): string {
  if (word.length <= 2 || !isLowerAscii(word)) return word;
  let w = step1ab(word);
  // Step 1c: y to i after a vowel in the stem.
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  // Step 4's one condition beyond the measure: -ion goes only after s or t.
  w = replaceSuffix(w, STEP4, 1, (s) => !w.endsWith('ion') || s.endsWith('s') || s.endsWith('t'));
  return step5(w);
}
