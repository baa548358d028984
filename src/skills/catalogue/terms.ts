/**
 * The words a skill and a query are compared by: text cut into runs of letters and
 * digits, each run also cut where its case or its kind changes (`pdfForms`, `react18`,
 * `XMLParser`: the whole run and its parts, as Lucene's word-delimiter filter with
 * `preserveOriginal` does), lower-cased, without one-character words and stop words,
 * stemmed (stem.ts), and a few names of one thing taken as one word (SYNONYMS).
 * A character loop, no regular expression: linear in the text.
 */
import { stem } from './stem.js';

/** Words longer than this are not words (a hash, a base64 run): left out, so a term stays short. */
const MAX_WORD = 40;

/**
 * English function words and the words every skill's description uses to say when it
 * applies ("Use when the user asks…"): they tell no skill from another, and a query made
 * of them alone matches nothing.
 */
const STOP_WORDS = new Set(
  (
    'a an the and or nor but if then else of to in on at by for with from into onto over about as ' +
    'is are was were be been being am do does did done has have had having can could would should ' +
    'will shall may might must it its this that these those there here which who whom whose what ' +
    'when where why how all any each every some such no not only own same so than too very just ' +
    'i me my we us our you your he she they them their his her him use used uses using user users ' +
    'please want wants need needs like let also via etc eg ie'
  ).split(' '),
);

/**
 * Names of one thing, taken as one word: a file format, the application that opens it and
 * the common noun for it; a short form and its long form. Generic, kept short, and
 * applied to skills and queries alike (after stemming, so plurals follow).
 */
const SYNONYMS: readonly (readonly string[])[] = [
  ['xlsx', 'xls', 'excel', 'spreadsheet', 'workbook'],
  ['docx', 'msword'],
  ['pptx', 'powerpoint', 'slide', 'slideshow', 'deck'],
  ['javascript', 'js'],
  ['typescript', 'ts'],
  ['markdown', 'md'],
  ['postgresql', 'postgres'],
  ['kubernetes', 'k8s'],
  ['repository', 'repo'],
  ['database', 'db'],
  ['image', 'picture', 'photo', 'img'],
  ['email', 'mail'],
];

const CANONICAL: ReadonlyMap<string, string> = new Map(SYNONYMS.flatMap((group) => group.map((word) => [stem(word), stem(group[0] as string)] as const)));

/** What a character is to the cutting: not part of a word, a lower-case or upper-case letter, a digit. */
const Kind = { Other: 0, Lower: 1, Upper: 2, Digit: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

function kindOf(text: string, i: number): Kind {
  const c = text.charCodeAt(i);
  if (c < 128) {
    if (c >= 97 && c <= 122) return Kind.Lower;
    if (c >= 65 && c <= 90) return Kind.Upper;
    return c >= 48 && c <= 57 ? Kind.Digit : Kind.Other;
  }
  const ch = text[i] as string;
  if (LETTER.test(ch)) return UPPER.test(ch) ? Kind.Upper : Kind.Lower;
  return DIGIT.test(ch) ? Kind.Digit : Kind.Other;
}

/**
 * Whether a run's part ends before `current`: lower to upper (`pdf|Forms`), letter to digit
 * and back (`react|18`), and an upper-case run before a capitalized word (`XML|Parser`).
 */
function partEnds(previous: Kind, current: Kind, next: Kind): boolean {
  if (previous === current) return previous === Kind.Upper && next === Kind.Lower;
  return previous === Kind.Digit || current === Kind.Digit || previous === Kind.Lower;
}

function addTerm(out: string[], word: string, surfaces: Map<string, string> | undefined): void {
  if (word.length < 2 || word.length > MAX_WORD) return;
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return;
  const stemmed = stem(lower);
  const term = CANONICAL.get(stemmed) ?? stemmed;
  out.push(term);
  if (surfaces && !surfaces.has(lower)) surfaces.set(lower, term);
}

/** One run of letters and digits: the run, then its parts when it has more than one. */
function addRun(out: string[], text: string, start: number, end: number, kinds: Kind[], surfaces?: Map<string, string>): void {
  addTerm(out, text.slice(start, end), surfaces);
  let from = start;
  const parts: string[] = [];
  for (let i = start + 1; i < end; i++) {
    const previous = kinds[i - 1 - start] as Kind;
    const current = kinds[i - start] as Kind;
    const next = i + 1 < end ? (kinds[i + 1 - start] as Kind) : Kind.Other;
    if (partEnds(previous, current, next)) {
      parts.push(text.slice(from, i));
      from = i;
    }
  }
  if (parts.length === 0) return;
  parts.push(text.slice(from, end));
  for (const part of parts) addTerm(out, part, surfaces);
}

/**
 * The terms of `text`, in order, repeats kept (a term's frequency counts); `surfaces`, when
 * given, learns the term of each word as written (lower case), for completing a word being typed.
 */
export function termsOf(text: string, surfaces?: Map<string, string>): string[] {
  const out: string[] = [];
  const kinds: Kind[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? kindOf(text, i) : Kind.Other;
    if (kind !== Kind.Other) {
      if (start < 0) {
        start = i;
        kinds.length = 0;
      }
      kinds.push(kind);
      continue;
    }
    if (start >= 0) addRun(out, text, start, i, kinds, surfaces);
    start = -1;
  }
  return out;
}

/** The last run of letters and digits in `text`, lower case ('' when there is none). */
export function lastWordOf(text: string): string {
  let end = text.length;
  while (end > 0 && kindOf(text, end - 1) === Kind.Other) end--;
  let start = end;
  while (start > 0 && kindOf(text, start - 1) !== Kind.Other) start--;
  return text.slice(start, end).toLowerCase();
}
