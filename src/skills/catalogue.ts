/**
 * Builds an immutable catalogue from one or more served folders: every
 * prompt (skills, their reference documents, shared references, prompt
 * files), every resource (each file of each skill under its `skill://` URI),
 * the Skills-extension entries and the directory listings. A reload builds a
 * new catalogue and swaps it in whole, so a request never sees half of one.
 */
import { basename, join } from 'node:path';
import type { Prompt, Resource } from '../core/model.js';
import { type CompletionIndex, createCompletionIndex } from '../core/rank.js';
import { trimOf } from '../core/trim.js';
import type { SkillEntry } from '../core/skills.js';
import type { CitationTargets } from './citations.js';
import { type ConfinedFs, openConfined } from './confined-fs.js';
import { directoryListings, type PromptEntry, promptFileEntry, referencePrompt, skillPrompt } from './entries.js';
import { extensionProblems } from './extension.js';
import { keyLines } from './frontmatter.js';
import { addIssues, capIssues, type Issue } from './issues.js';
import { decodeUtf8, loadSkill, type SkillFileRecord, type SkillRecord } from './load-skill.js';
import { loadPromptFile } from './prompt-files.js';
import { DEFAULT_LIMITS, type ScanLimits, type ScannedSkill, scanFolder } from './scan.js';

export { ArgumentValueError, type PromptEntry } from './entries.js';

/** A servable file: its record and the folder it lives in. */
export interface FileEntry {
  fs: ConfinedFs;
  record: SkillFileRecord;
}

/**
 * Everything served from the folders at one point in time. Prompts are built
 * with the catalogue; resources, files, Skills-extension entries and directory
 * listings are derived from the skills on first use, once per catalogue, so a
 * large folder answers `prompts/list` without building views nobody asked for.
 */
export interface Catalogue {
  readonly prompts: readonly Prompt[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly resources: readonly Resource[];
  readonly files: ReadonlyMap<string, FileEntry>;
  readonly skills: readonly SkillRecord[];
  readonly skillEntries: readonly SkillEntry[];
  readonly skillsByUri: ReadonlyMap<string, SkillEntry>;
  /** Children of each directory URI (skill roots and their sub-folders). */
  readonly directories: ReadonlyMap<string, readonly Resource[]>;
  /**
   * The skills the `{skill}` variable of `skill://{skill}/{+path}` names, by
   * path: those inside no other skill (a nested skill's files are files of
   * the skill that holds it), so each is one URI segment.
   */
  readonly topSkills: ReadonlyMap<string, SkillRecord>;
  /** Completions of {@link topSkills}' names, indexed once per catalogue. */
  readonly skillCompletions: CompletionIndex;
  /** Completions of the paths inside one skill, indexed once per catalogue and skill. */
  pathCompletions(skill: SkillRecord): CompletionIndex;
  readonly issues: readonly Issue[];
}

/** The served skills of one folder, in catalogue order. */
interface Served {
  fs: ConfinedFs;
  skills: SkillRecord[];
}

class BuiltCatalogue implements Catalogue {
  readonly prompts: readonly Prompt[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly skills: readonly SkillRecord[];
  readonly issues: readonly Issue[];
  #served: readonly Served[];
  /** Skills the Skills extension cannot carry: served as prompts and resources only. */
  #outsideExtension: ReadonlySet<SkillRecord>;
  #files: Map<string, FileEntry> | undefined;
  #resources: Resource[] | undefined;
  #skillEntries: SkillEntry[] | undefined;
  #skillsByUri: Map<string, SkillEntry> | undefined;
  #directories: Map<string, readonly Resource[]> | undefined;
  #topSkills: Map<string, SkillRecord> | undefined;
  #skillCompletions: CompletionIndex | undefined;
  #pathCompletions: Map<SkillRecord, CompletionIndex> | undefined;

  constructor(
    prompts: readonly Prompt[],
    promptsByName: ReadonlyMap<string, PromptEntry>,
    skills: readonly SkillRecord[],
    issues: readonly Issue[],
    served: readonly Served[],
    outsideExtension: ReadonlySet<SkillRecord>,
  ) {
    this.#outsideExtension = outsideExtension;
    this.prompts = prompts;
    this.promptsByName = promptsByName;
    this.skills = skills;
    this.issues = issues;
    this.#served = served;
  }

  /** Every file of every skill by URI; the first skill to claim a URI keeps it. */
  get files(): ReadonlyMap<string, FileEntry> {
    if (this.#files) return this.#files;
    const files = new Map<string, FileEntry>();
    for (const { fs, skills } of this.#served) {
      for (const skill of skills) {
        for (const record of skill.files) {
          // A record's URI is derived on each read: read it once.
          const uri = record.uri;
          if (!files.has(uri)) files.set(uri, { fs, record });
        }
      }
    }
    return (this.#files = files);
  }

  get resources(): readonly Resource[] {
    if (this.#resources) return this.#resources;
    const resources: Resource[] = [];
    const seen = new Set<string>();
    for (const skill of this.skills) {
      for (const record of skill.files) {
        const uri = record.uri;
        if (seen.has(uri)) continue;
        seen.add(uri);
        const isSkillFile = record === skill.file;
        // SKILL.md is named as its skill (SEP-2640 §resource metadata); any other file by its
        // skill and path, so twenty LICENSE.txt files can be told apart in a list.
        const resource: Resource = { uri, name: isSkillFile ? skill.name : `${skill.path}/${record.inSkill}`, mimeType: record.mimeType, size: record.size };
        if (isSkillFile) resource.description = skill.description;
        resources.push(resource);
      }
    }
    return (this.#resources = resources);
  }

  get skillEntries(): readonly SkillEntry[] {
    const carried = this.#outsideExtension.size === 0 ? this.skills : this.skills.filter((skill) => !this.#outsideExtension.has(skill));
    this.#skillEntries ??= carried.map((skill) => ({
      uri: skill.uri,
      frontmatter: skill.frontmatter,
      resources: skill.files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
    }));
    return this.#skillEntries;
  }

  get skillsByUri(): ReadonlyMap<string, SkillEntry> {
    this.#skillsByUri ??= new Map(this.skillEntries.map((entry) => [entry.uri, entry]));
    return this.#skillsByUri;
  }

  get topSkills(): ReadonlyMap<string, SkillRecord> {
    this.#topSkills ??= new Map(this.skills.filter((skill) => !skill.path.includes('/')).map((skill) => [skill.path, skill]));
    return this.#topSkills;
  }

  get skillCompletions(): CompletionIndex {
    this.#skillCompletions ??= createCompletionIndex([...this.topSkills.keys()]);
    return this.#skillCompletions;
  }

  pathCompletions(skill: SkillRecord): CompletionIndex {
    this.#pathCompletions ??= new Map();
    let index = this.#pathCompletions.get(skill);
    if (!index) {
      index = createCompletionIndex(skill.files.map((f) => f.inSkill));
      this.#pathCompletions.set(skill, index);
    }
    return index;
  }

  get directories(): ReadonlyMap<string, readonly Resource[]> {
    if (this.#directories) return this.#directories;
    const directories = new Map<string, readonly Resource[]>();
    for (const skill of this.skills) {
      for (const [uri, children] of directoryListings(skill)) if (!directories.has(uri)) directories.set(uri, children);
    }
    return (this.#directories = directories);
  }
}

export interface CatalogueOptions {
  /** Prefix of shared reference prompts; default derived from the first folder's name. */
  prefix?: string;
  limits?: ScanLimits;
}

/** A prompt-name-safe slug of a folder name. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-');
  const trimmed = trimOf(slug, '-');
  return trimmed === '' ? 'skills' : trimmed;
}

/**
 * The nearest served skill whose folder holds `dir`, and the folders between
 * it and `dir`'s own folder; undefined for a skill inside no other.
 */
function enclosing(served: ReadonlyMap<string, SkillRecord>, dir: string): { skill: SkillRecord; between: string } | undefined {
  if (dir === '') return undefined;
  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  for (let at = parent; ; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '') {
    const skill = served.get(at);
    if (skill) return { skill, between: at === '' ? parent : parent.slice(at.length + 1) };
    if (at === '') return undefined;
  }
}

/** Where a skill's citations of its own reference documents point: their prompts and their resources. */
function referenceTargets(skill: SkillRecord, shared: ReadonlyMap<string, string>): CitationTargets {
  const local = new Map<string, string>();
  const uris = new Map<string, string>();
  const byRel = new Map(skill.files.map((f) => [f.rel, f]));
  for (const [slug, rel] of skill.references) {
    local.set(slug, `${skill.name}-references-${slug}`);
    const file = byRel.get(rel);
    if (file) uris.set(slug, file.uri);
  }
  return { local, shared, uris };
}

/** A file's text, or undefined when it cannot be read or is not UTF-8. */
async function readText(fs: ConfinedFs, rel: string): Promise<string | undefined> {
  const read = await fs.read(rel);
  return 'bytes' in read ? decodeUtf8(read.bytes) : undefined;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

/** Builds a catalogue. Throws only when a folder itself cannot be opened. */
export async function buildCatalogue(dirs: readonly string[], options: CatalogueOptions = {}): Promise<Catalogue> {
  const issues: Issue[] = [];
  const roots = await Promise.all(dirs.map((dir) => openConfined(dir)));
  const prefix = options.prefix ?? slugify(basename(roots[0]?.root ?? 'skills'));

  // With several folders, findings name their folder (Issue.folder) and a
  // duplicate names where the one that was served lives.
  const several = dirs.length > 1;
  const where = (dir: string, rel: string): string => (several ? join(dir, rel) : rel);

  const promptsByName = new Map<string, PromptEntry>();
  const prompts: Prompt[] = [];
  const owners = new Map<string, string>();
  function addPrompt(entry: PromptEntry, source: string, dir: string): void {
    const name = entry.prompt.name;
    const owner = owners.get(name);
    if (owner !== undefined) {
      const issue: Issue = { severity: 'warning', code: 'duplicate_name', path: source, message: `The prompt name "${name}" is already taken by ${owner}; this one is not served` };
      issues.push(several ? { ...issue, folder: dir } : issue);
      return;
    }
    owners.set(name, where(dir, source));
    promptsByName.set(name, entry);
    prompts.push(entry.prompt);
  }

  const skills: SkillRecord[] = [];
  const outsideExtension = new Set<SkillRecord>();
  const served: Served[] = [];
  // By skill path: a skill's URI is a function of its path, and the path is already a string.
  const dirsByPath = new Map<string, string>();
  const sharedTargets = new Map<string, string>();
  const deferred: Array<() => void> = [];

  for (const [rootIndex, fs] of roots.entries()) {
    const dir = dirs[rootIndex] as string;
    const firstIssue = issues.length;
    const rootName = basename(fs.root);
    const scan = await scanFolder(fs, options.limits ?? DEFAULT_LIMITS);
    addIssues(issues, scan.issues);

    // Shared references first, so skills can cite them.
    for (const rel of scan.sharedReferences) {
      const slug = rel.slice('references/'.length, -'.md'.length);
      const name = `${prefix}-references-${slug}`;
      const text = await readText(fs, rel);
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: rel, message: 'Cannot read the file as UTF-8 text' });
        continue;
      }
      if (!sharedTargets.has(slug)) sharedTargets.set(slug, name);
      const entry = await referencePrompt(name, text, `Shared reference "${slug}"`, { local: new Map(), shared: sharedTargets });
      deferred.push(() => addPrompt(entry, rel, dir));
    }

    const loaded = await mapLimit(scan.skills, 16, (found) => loadSkill(fs, found, rootName, issues));
    const here: Served = { fs, skills: [] };
    served.push(here);
    // Where each served skill's SKILL.md is, for issues (not asked of the skill, which makes its file record on first use).
    const sources: string[] = [];
    // Skills come shallowest first, so an enclosing skill is placed before the skills inside it.
    const servedDirs = new Map<string, SkillRecord>();
    for (const [index, skill] of loaded.entries()) {
      if (!skill) continue;
      const source = (scan.skills[index] as ScannedSkill).file.rel;
      const outer = enclosing(servedDirs, skill.dir);
      if (outer) skill.nestIn(outer.skill, outer.between);
      const first = dirsByPath.get(skill.path);
      if (first !== undefined) {
        const line = keyLines(skill.text)(['name']);
        issues.push({
          severity: 'warning',
          code: 'duplicate_name',
          path: source,
          ...(line !== undefined ? { line } : {}),
          message: `The skill "${skill.name}" is already served from ${first || '.'}; ${several ? `the one in ${dir}` : 'this one'} is not served`,
        });
        continue;
      }
      skills.push(skill);
      here.skills.push(skill);
      sources.push(source);
      dirsByPath.set(skill.path, where(dir, skill.dir));
      servedDirs.set(skill.dir, skill);
      const problems = extensionProblems(skill.frontmatter);
      if (problems.length > 0) {
        outsideExtension.add(skill);
        issues.push({
          severity: 'warning',
          code: 'not_in_extension',
          path: source,
          message: `Left out of the Skills extension (skills/list, skills/get): ${problems.join('; ')}; still served as a prompt and as resources`,
        });
      }
    }

    // Skills without reference documents share one set of citation targets.
    const plain = { local: new Map<string, string>(), shared: sharedTargets };
    for (const [index, skill] of here.skills.entries()) {
      const targets = skill.references.size === 0 ? plain : referenceTargets(skill, sharedTargets);
      addPrompt(skillPrompt(skill, targets, fs), sources[index] as string, dir);
      for (const [slug, rel] of skill.references) {
        const text = await readText(fs, rel);
        if (text === undefined) continue;
        addPrompt(await referencePrompt(`${skill.name}-references-${slug}`, text, `Reference "${slug}" of the ${skill.name} skill`, targets), rel, dir);
      }
    }

    for (const ref of scan.promptFiles) {
      const text = await readText(fs, ref.rel);
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: ref.rel, message: 'Cannot read the file as UTF-8 text' });
        continue;
      }
      const record = await loadPromptFile(ref, text, issues);
      if (!record) continue;
      const entry = promptFileEntry(record);
      deferred.push(() => addPrompt(entry, ref.rel, dir));
    }
    if (several) for (let at = firstIssue; at < issues.length; at++) (issues[at] as Issue).folder = dir;
  }
  for (const add of deferred) add();

  return new BuiltCatalogue(prompts, promptsByName, skills, capIssues(issues), served, outsideExtension);
}
