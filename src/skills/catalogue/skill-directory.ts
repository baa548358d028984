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
import { SearchIndex } from './search.js';

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

/** What a query's name key is cut at: `pdf forms` and `pdf_forms` are the name `pdf-forms`. */
const SEPARATORS = /[^\p{L}\p{N}]+/u;
/** Longest query whose name key is looked at: a name is short, and the key is built per call. */
const MAX_KEY_LENGTH = 256;

interface SearchIndexes {
  /** Skill names, ranked as completions are (core/rank.ts): the last resort, for a name misspelt. */
  names: CompletionIndex;
  /** The relevance ranking over names, descriptions and headings (search.ts). */
  relevance: SearchIndex;
  /** Lower-case names with their listing positions, sorted: a name and its prefixes found by bisection. */
  sorted: readonly { readonly name: string; readonly at: number }[];
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
  #index: SearchIndexes | undefined;
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
   * The skills that match `query`, best first: the skill whose name is the query (spaces
   * taken as hyphens), then those whose name starts with it and a hyphen, then the rest by
   * relevance (search.ts: BM25F over name, description and headings, cut off under a share
   * of the best); when nothing matches a query with words, names holding its letters in
   * order (a name misspelt). One-letter and stop words match nothing; ties keep listing
   * order. An empty query answers with every skill, in listing order.
   */
  search(query: string): DirectoryEntry[] {
    if (query.trim() === '') return [...this.entries];
    this.#index ??= {
      names: createCompletionIndex(this.entries.map((e) => e.prompt.name)),
      relevance: new SearchIndex(
        this.entries.map((e) => ({ name: e.prompt.name, description: e.skill.description, body: e.skill.text.slice(e.skill.bodyOffset) })),
      ),
      sorted: this.entries
        .map((e, at) => ({ name: e.prompt.name.toLowerCase(), at }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.at - b.at)),
    };
    const key = nameKey(query);
    const byName = key.length < 2 ? [] : this.#byNameKey(key, this.#index.sorted);
    const terms = SearchIndex.termsOf(query);
    const taken = new Set(byName);
    const ranked = this.#index.relevance
      .search(query)
      .map((hit) => this.entries[hit.at] as DirectoryEntry)
      .filter((entry) => !taken.has(entry));
    const found = [...byName, ...ranked];
    if (found.length > 0 || terms.length === 0 || key.length < 3) return found;
    return this.#index.names.complete(key, this.entries.length).values.map((name) => this.#byName.get(name) as DirectoryEntry);
  }

  /** The skill named `key`, then those whose name starts with `key` and a hyphen, in listing order. */
  #byNameKey(key: string, sorted: SearchIndexes['sorted']): DirectoryEntry[] {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sorted[mid] as { name: string }).name < key) low = mid + 1;
      else high = mid;
    }
    let exact = Number.POSITIVE_INFINITY;
    const starting: number[] = [];
    for (let i = low; i < sorted.length && (sorted[i] as { name: string }).name.startsWith(key); i++) {
      const { name, at } = sorted[i] as { name: string; at: number };
      if (name === key) exact = Math.min(exact, at);
      else if (name[key.length] === '-') starting.push(at);
    }
    starting.sort((a, b) => a - b);
    const positions = exact < Number.POSITIVE_INFINITY ? [exact, ...starting] : starting;
    return positions.map((at) => this.entries[at] as DirectoryEntry);
  }
}

/** The query as a name: its runs of letters and digits, lower case, joined by hyphens. */
function nameKey(query: string): string {
  return query
    .slice(0, MAX_KEY_LENGTH)
    .toLowerCase()
    .split(SEPARATORS)
    .filter((w) => w !== '')
    .join('-');
}
