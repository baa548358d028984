/**
 * The relevance ranking behind `load_skill`'s `query`: BM25F (Robertson, Zaragoza and
 * Taylor, "Simple BM25 extension to multiple weighted fields", CIKM 2004; the
 * per-field normalization of Zaragoza et al., "Microsoft Cambridge at TREC-13", 2004)
 * over three fields of each skill: its name (cut at its hyphens), its description and
 * the headings of its SKILL.md body, compared as terms.ts cuts them (stemmed, stop words
 * out). A term's frequency in each field is weighted and normalized by the field's length
 * against its average, the fields summed, then saturated once with k1 and weighed by the
 * term's inverse document frequency.
 *
 * Built once per directory: indexing is linear in the words of the skills, a query walks
 * the postings of its terms only. Skills scoring under CUTOFF of the best are left out:
 * an answer lists what matches well, not every skill that shares a word with the query.
 */
import { lastWordOf, termsOf } from './terms.js';

/** What is ranked of one skill: its name, its description and its SKILL.md body. */
export interface SearchDocument {
  readonly name: string;
  readonly description: string;
  readonly body: string;
}

/** A ranked skill: its position in the documents indexed, and its score. */
export interface SearchHit {
  readonly at: number;
  readonly score: number;
}

interface FieldSpec {
  /** How much one occurrence here counts against one in the headings. */
  readonly weight: number;
  /** BM25's b: how much a longer field than the average dilutes a term in it. */
  readonly b: number;
}

/**
 * The name says what a skill is in a few words and is short, so it weighs most and is
 * hardly normalized; the description is written to be matched against tasks; headings
 * add the topics the body covers. Values in the range the BM25F papers report.
 */
const FIELDS: readonly FieldSpec[] = [
  { weight: 3, b: 0.3 },
  { weight: 2, b: 0.75 },
  { weight: 1, b: 0.75 },
];

/** BM25's usual saturation constant: the third occurrence of a word adds little. */
const K1 = 1.2;

/** Skills scoring under this share of the best score are left out of the answer. */
export const CUTOFF = 0.3;

/** Most distinct terms of a query taken: each costs a walk of its postings. */
const MAX_QUERY_TERMS = 32;

/** Most words a word being typed is completed to, and the fewest letters it needs first. */
const MAX_COMPLETIONS = 32;
const MIN_COMPLETED = 3;

/** Heading lines of a Markdown body, outside fenced code (CommonMark §4.2 ATX headings, §4.5 fences). */
export function headingsOf(body: string): string {
  const out: string[] = [];
  let fence = '';
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    let i = start;
    while (i < end && i - start < 3 && body[i] === ' ') i++;
    const marker = body.startsWith('```', i) ? '```' : body.startsWith('~~~', i) ? '~~~' : '';
    if (marker !== '' && (fence === '' || fence === marker)) fence = fence === '' ? marker : '';
    else if (fence === '' && body[i] === '#') {
      let level = i;
      while (level < end && body[level] === '#') level++;
      if (level - i <= 6 && (level === end || body[level] === ' ' || body[level] === '\t')) out.push(body.slice(level, end));
    }
    start = end + 1;
  }
  return out.join('\n');
}

interface Posting {
  readonly docs: number[];
  /** The field-weighted, length-normalized frequency of the term in each of `docs`. */
  readonly tfs: number[];
}

/** The inverted index of one set of skills, and its ranking. */
export class SearchIndex {
  readonly #postings = new Map<string, Posting>();
  readonly #count: number;
  /** Each word of the skills as written (lower case) and its term, for completing a word being typed. */
  readonly #surfaces = new Map<string, string>();
  #sortedSurfaces: string[] | undefined;

  constructor(documents: readonly SearchDocument[]) {
    this.#count = documents.length;
    const seen = this.#surfaces;
    const fields = documents.map((d) => [termsOf(d.name, seen), termsOf(d.description, seen), termsOf(headingsOf(d.body), seen)]);
    const averages = FIELDS.map((_, f) => {
      let total = 0;
      for (const terms of fields) total += (terms[f] as string[]).length;
      return Math.max(total / Math.max(documents.length, 1), 1);
    });
    fields.forEach((terms, doc) => {
      const frequencies = new Map<string, number>();
      FIELDS.forEach((spec, f) => {
        const words = terms[f] as string[];
        const each = spec.weight / (1 - spec.b + (spec.b * words.length) / (averages[f] as number));
        for (const term of words) frequencies.set(term, (frequencies.get(term) ?? 0) + each);
      });
      for (const [term, tf] of frequencies) {
        let posting = this.#postings.get(term);
        if (!posting) {
          posting = { docs: [], tfs: [] };
          this.#postings.set(term, posting);
        }
        posting.docs.push(doc);
        posting.tfs.push(tf);
      }
    });
  }

  /** The distinct terms of a query, a few dozen at most; none for stop words and one-letter words alone. */
  static termsOf(query: string): string[] {
    return [...new Set(termsOf(query))].slice(0, MAX_QUERY_TERMS);
  }

  /**
   * The documents matching `query` well, best first, ties in document order. When the
   * query's last word is no term of any skill, it is taken as a word being typed (a search
   * as you type, or a word cut short) and stands for the skills' words it starts, scored as
   * one term: each document counts its best completion.
   */
  search(query: string): SearchHit[] {
    return this.rank(SearchIndex.termsOf(query), this.#completions(lastWordOf(query)));
  }

  /** The documents matching `terms`, and one of `completions`, above the cutoff: best first, ties in document order. */
  rank(terms: readonly string[], completions: readonly string[] = []): SearchHit[] {
    const scores = new Map<number, number>();
    for (const term of terms) this.#score(term, (doc, score) => scores.set(doc, (scores.get(doc) ?? 0) + score));
    const best = new Map<number, number>();
    for (const term of completions) this.#score(term, (doc, score) => best.set(doc, Math.max(best.get(doc) ?? 0, score)));
    for (const [doc, score] of best) scores.set(doc, (scores.get(doc) ?? 0) + score);
    let top = 0;
    for (const score of scores.values()) top = Math.max(top, score);
    const hits: SearchHit[] = [];
    for (const [at, score] of scores) if (score >= top * CUTOFF) hits.push({ at, score });
    return hits.sort((a, b) => b.score - a.score || a.at - b.at);
  }

  /** Each document's BM25F score for one term. */
  #score(term: string, add: (doc: number, score: number) => void): void {
    const posting = this.#postings.get(term);
    if (!posting) return;
    const df = posting.docs.length;
    const idf = Math.log(1 + (this.#count - df + 0.5) / (df + 0.5));
    for (let i = 0; i < df; i++) {
      const tf = posting.tfs[i] as number;
      add(posting.docs[i] as number, (idf * tf * (K1 + 1)) / (K1 + tf));
    }
  }

  /** The terms of the skills' words that `word` starts, when `word` itself is no term of theirs. */
  #completions(word: string): string[] {
    if (word.length < MIN_COMPLETED) return [];
    const own = termsOf(word);
    if (own.length === 0 || own.some((t) => this.#postings.has(t))) return [];
    this.#sortedSurfaces ??= [...this.#surfaces.keys()].sort();
    const sorted = this.#sortedSurfaces;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sorted[mid] as string) < word) low = mid + 1;
      else high = mid;
    }
    const out = new Set<string>();
    for (let i = low; i < sorted.length && out.size < MAX_COMPLETIONS && (sorted[i] as string).startsWith(word); i++) {
      out.add(this.#surfaces.get(sorted[i] as string) as string);
    }
    return [...out];
  }
}
