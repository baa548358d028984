/**
 * The skills a model can load with the `load_skill` tool, in the order its
 * description lists them, and the search behind its `query` input: one
 * directory per catalogue, built on first use.
 *
 * A skill is loadable when its prompt is served (a skill whose name another
 * skill took first is not: it has no name of its own to be loaded by).
 * Without a query there is no relevance to measure, so the order is the
 * catalogue's (the folders in the order the user gave them, which is also the
 * order in which they win a name), with the skills inside no other first: a
 * nested skill is a part of the skill that holds it and is reached through it
 * (SEP-2640 nested skills).
 */
import type { Prompt, Tool } from '../../core/model.js';
import { type CompletionIndex, createCompletionIndex } from '../../core/rank.js';
import type { SkillFileRecord, SkillRecord } from '../load/skill-record.js';

/**
 * What a directory is made of: a catalogue's skills and prompts (catalogue-view.ts),
 * or a view of them per audience. A shape rather than the catalogue's type, so that
 * the catalogue may build directories without the two modules importing each other.
 */
export interface DirectorySource {
  readonly skills: readonly SkillRecord[];
  /** The prompt of each name, and the skill it is of (entries.ts `PromptEntry`). */
  readonly promptsByName: ReadonlyMap<string, { readonly prompt: Prompt; readonly skill?: SkillRecord }>;
}

/** A loadable skill: its prompt (name, first sentence, arguments) and its record. */
export interface DirectoryEntry {
  readonly prompt: Prompt;
  readonly skill: SkillRecord;
}

/** What a query is split into: runs of letters and digits, so `pdf-forms` and `pdf forms` are the same two words. */
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const MAX_WORDS = 32;

/** Whether `word` starts a word somewhere in `text` (both lower case): `form` finds "forms", not "platform". */
function startsAWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at === 0 || !WORD_CHARACTER.test(text[at - 1] as string)) return true;
  }
  return false;
}

interface SearchIndex {
  /** Skill names, ranked as completions are (core/rank.ts). */
  names: CompletionIndex;
  /** Each entry's name and whole description, lower case. */
  texts: string[];
}

/**
 * The loadable skills of one catalogue, their order, and the lookups and
 * search the skill tools make; built on first use by the catalogue view, so a
 * reload makes a new one and a request never sees half of two.
 */
export class SkillDirectory {
  /** Every loadable skill, in listing order. */
  readonly entries: readonly DirectoryEntry[];
  readonly #byName: ReadonlyMap<string, DirectoryEntry>;
  readonly #position: ReadonlyMap<DirectoryEntry, number>;
  #index: SearchIndex | undefined;
  #files: Map<SkillRecord, ReadonlyMap<string, SkillFileRecord>> | undefined;
  #toolListing: readonly Tool[] | undefined;

  constructor(catalogue: DirectorySource) {
    const top: DirectoryEntry[] = [];
    const nested: DirectoryEntry[] = [];
    for (const skill of catalogue.skills) {
      const entry = catalogue.promptsByName.get(skill.promptName);
      if (entry?.skill !== skill) continue;
      (skill.path.includes('/') ? nested : top).push({ prompt: entry.prompt, skill });
    }
    this.entries = top.concat(nested);
    this.#byName = new Map(this.entries.map((e) => [e.prompt.name, e]));
    this.#position = new Map(this.entries.map((e, i) => [e, i]));
  }

  /**
   * The skill tools' listing over this directory, made by `make` (tools/skill-tools.ts) on
   * first use and kept by the directory itself: one array per directory, so the engine's
   * pager keeps its versions of it, and no module writes onto an object it does not own.
   */
  toolListing(make: (directory: SkillDirectory) => readonly Tool[]): readonly Tool[] {
    this.#toolListing ??= make(this);
    return this.#toolListing;
  }

  /** The loadable skill of that name. */
  get(name: string): DirectoryEntry | undefined {
    return this.#byName.get(name);
  }

  /** A file of a loadable skill by its path inside the skill, exactly as catalogued: no path is resolved or decoded. */
  file(skill: SkillRecord, path: string): SkillFileRecord | undefined {
    this.#files ??= new Map();
    let files = this.#files.get(skill);
    if (!files) {
      files = new Map(skill.files.map((f) => [f.inSkill, f]));
      this.#files.set(skill, files);
    }
    return files.get(path);
  }

  /**
   * The skills that match `query`, best first: names that are the query, start
   * with it or hold it (spaces taken as hyphens); then skills whose name or
   * description has words of the query at the start of a word, a rarer word
   * weighing more (inverse document frequency, so "the" decides nothing); then
   * names that hold the query's letters in order (fuzzy). Ties keep listing order.
   */
  search(query: string): DirectoryEntry[] {
    // Distinct words, and a few dozen at most: each costs a pass over the descriptions.
    const words = [
      ...new Set(
        query
          .toLowerCase()
          .split(SEPARATORS)
          .filter((w) => w !== ''),
      ),
    ].slice(0, MAX_WORDS);
    if (words.length === 0) return [...this.entries];
    this.#index ??= {
      names: createCompletionIndex(this.entries.map((e) => e.prompt.name)),
      texts: this.entries.map((e) => `${e.prompt.name} ${e.skill.description}`.toLowerCase()),
    };
    const { names, texts } = this.#index;
    const key = words.join('-');
    const byName: DirectoryEntry[] = [];
    const fuzzy: DirectoryEntry[] = [];
    for (const name of names.complete(key, this.entries.length).values) {
      const entry = this.#byName.get(name) as DirectoryEntry;
      (name.toLowerCase().includes(key) ? byName : fuzzy).push(entry);
    }
    // The prefix group keeps listing order; a name that is the query goes first.
    const exact = byName.findIndex((entry) => entry.prompt.name.toLowerCase() === key);
    if (exact > 0) byName.unshift(...byName.splice(exact, 1));
    const taken = new Set(byName);

    const scores = new Float64Array(texts.length);
    for (const word of words) {
      const having: number[] = [];
      for (let i = 0; i < texts.length; i++) if (startsAWord(texts[i] as string, word)) having.push(i);
      const weight = Math.log((texts.length + 1) / having.length);
      for (const i of having) (scores[i] as number) += weight;
    }
    const byWords = this.entries
      .filter((entry, i) => (scores[i] as number) > 0 && !taken.has(entry))
      .sort((a, b) => (scores[this.#at(b)] as number) - (scores[this.#at(a)] as number) || this.#at(a) - this.#at(b));
    for (const entry of byWords) taken.add(entry);
    return [...byName, ...byWords, ...fuzzy.filter((entry) => !taken.has(entry))];
  }

  #at(entry: DirectoryEntry): number {
    return this.#position.get(entry) as number;
  }
}
