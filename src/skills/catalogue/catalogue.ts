/**
 * Builds an immutable catalogue from one or more served folders: every
 * prompt (skills, their reference documents, shared references, prompt
 * files), every resource (each file of each skill under its `skill://` URI),
 * the Skills-extension entries and the directory listings. A reload builds a
 * new catalogue and swaps it in whole, so a request never sees half of one.
 */
import { basename, join } from 'node:path';
import { audienceOf, restrictTo } from '../../core/audience.js';
import type { Prompt } from '../../core/model.js';
import { trimOf } from '../../util/trim.js';
import { declaredAudience } from '../load/audience.js';
import { citationIssues } from '../load/cited-files.js';
import type { ConfinedFs } from '../load/confined-fs.js';
import { keyLines } from '../load/frontmatter.js';
import { addIssues, capIssues, type Issue } from '../load/issues.js';
import { loadSkill } from '../load/load-skill.js';
import { type Place, placesOf } from '../load/marketplace.js';
import { loadPromptFile } from '../load/prompt-files.js';
import { DEFAULT_LIMITS, type ScanLimits, type ScannedSkill, type ScanResult, scanFolder } from '../load/scan.js';
import { decodeUtf8, type LoadedSkill, type SkillRecord } from '../load/skill-record.js';
import { BuiltCatalogue, type Catalogue, type Served } from './catalogue-view.js';
import type { CitationTargets } from './citations.js';
import { type PromptEntry, promptFileEntry, referencePrompt, skillPrompt } from './entries.js';
import { fitsExtension } from './extension.js';
import { restrictSkill } from './owners.js';

export type { Catalogue, FileEntry } from './catalogue-view.js';
export { ArgumentValueError, type PromptEntry } from './entries.js';

/** Restricts a prompt to `audience` (core/audience.ts); returns the entry. */
function restrictEntry(entry: PromptEntry, audience: readonly string[] | undefined): PromptEntry {
  restrictTo(entry.prompt, audience);
  return entry;
}

export interface CatalogueOptions {
  /** Prefix of shared reference prompts; default derived from the first folder's name. */
  prefix?: string;
  limits?: ScanLimits;
  /** Findings of the source the folders came from (a discovery index's refusals), listed before the folders' own. */
  findings?: readonly Issue[];
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
    local.set(slug, `${skill.promptName}-references-${slug}`);
    const file = byRel.get(rel);
    if (file) uris.set(slug, file.uri);
  }
  return { local, shared, uris };
}

/** A file's text, or undefined when it cannot be read or is not UTF-8. */
async function readText(fs: ConfinedFs, rel: string, maxBytes: number): Promise<string | undefined> {
  const read = await fs.read(rel, maxBytes);
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

/** What a catalogue is built into, folder after folder. */
interface Build {
  issues: Issue[];
  /** With several folders, findings name their folder (Issue.folder) and a duplicate names where the one that was served lives. */
  several: boolean;
  prefix: string;
  maxFileBytes: number;
  promptsByName: Map<string, PromptEntry>;
  prompts: Prompt[];
  /** Where each prompt name was taken. */
  owners: Map<string, string>;
  skills: SkillRecord[];
  outsideExtension: Set<SkillRecord>;
  served: Served[];
  /** By skill path: a skill's URI is a function of its path, and the path is already a string. */
  dirsByPath: Map<string, string>;
  sharedTargets: Map<string, string>;
  /** Prompts added once every folder is read: shared references and prompt files come after every folder's skills. */
  deferred: Array<() => void>;
  /** The folders, as given, where nothing was found. */
  emptyFolders: string[];
}

function where(build: Build, dir: string, rel: string): string {
  return build.several ? join(dir, rel) : rel;
}

function addPrompt(build: Build, entry: PromptEntry, source: string, dir: string): void {
  const name = entry.prompt.name;
  const owner = build.owners.get(name);
  if (owner !== undefined) {
    const issue: Issue = {
      severity: 'warning',
      code: 'duplicate_name',
      path: source,
      message: `The prompt name "${name}" is already taken by ${owner}; this one is not served`,
    };
    build.issues.push(build.several ? { ...issue, folder: dir } : issue);
    return;
  }
  build.owners.set(name, where(build, dir, source));
  build.promptsByName.set(name, entry);
  build.prompts.push(entry.prompt);
}

/** A folder's shared references, read first so that skills can cite them. */
async function addSharedReferences(build: Build, fs: ConfinedFs, rels: readonly string[], dir: string): Promise<void> {
  const { maxFileBytes, prefix, sharedTargets } = build;
  for (const rel of rels) {
    const slug = rel.slice('references/'.length, -'.md'.length);
    const name = `${prefix}-references-${slug}`;
    const text = await readText(fs, rel, maxFileBytes);
    if (text === undefined) {
      build.issues.push({ severity: 'error', code: 'unreadable', path: rel, message: `Cannot read the file as UTF-8 text of at most ${maxFileBytes} bytes` });
      continue;
    }
    if (!sharedTargets.has(slug)) sharedTargets.set(slug, name);
    const entry = await referencePrompt(name, text, `Shared reference "${slug}"`, { local: new Map(), shared: sharedTargets });
    build.deferred.push(() => addPrompt(build, entry, rel, dir));
  }
}

/**
 * Places a folder's loaded skills: each nested in the served skill around it
 * and restricted by its audience, a duplicate path left out, a skill the
 * Skills extension cannot carry marked. Returns where each served skill's
 * SKILL.md is, for issues (not asked of the skill, which makes its file record on first use).
 */
function placeSkills(build: Build, scanned: readonly ScannedSkill[], loaded: ReadonlyArray<LoadedSkill | undefined>, here: Served, place: Place): string[] {
  const { dir, namespace } = place;
  const sources: string[] = [];
  // Skills come shallowest first, so an enclosing skill is placed before the skills inside it.
  const servedDirs = new Map<string, SkillRecord>();
  for (const [index, skill] of loaded.entries()) {
    if (!skill) continue;
    const source = (scanned[index] as ScannedSkill).file.rel;
    const outer = enclosing(servedDirs, skill.dir);
    if (outer) skill.nestIn(outer.skill, outer.between);
    else if (namespace !== undefined) skill.namespaceIn(namespace);
    restrictSkill(skill, declaredAudience(skill.frontmatter).audience, outer?.skill);
    const first = build.dirsByPath.get(skill.path);
    if (first !== undefined) {
      const line = keyLines(skill.text)(['name']);
      build.issues.push({
        severity: 'warning',
        code: 'duplicate_name',
        path: source,
        ...(line !== undefined ? { line } : {}),
        message: `The skill "${skill.name}" is already served from ${first || '.'}; ${build.several ? `the one in ${dir}` : 'this one'} is not served`,
      });
      continue;
    }
    build.skills.push(skill);
    here.skills.push(skill);
    sources.push(source);
    build.dirsByPath.set(skill.path, where(build, dir, skill.dir));
    servedDirs.set(skill.dir, skill);
    // Its finding is the key's own, from load/validate.ts: one per mistake.
    if (!fitsExtension(skill.frontmatter)) build.outsideExtension.add(skill);
  }
  return sources;
}

/** The prompts of a folder's served skills and of their reference documents. */
async function addSkillPrompts(build: Build, here: Served, sources: readonly string[], dir: string): Promise<void> {
  const { fs } = here;
  // Skills without reference documents share one set of citation targets.
  const plain = { local: new Map<string, string>(), shared: build.sharedTargets };
  for (const [index, skill] of here.skills.entries()) {
    const targets = skill.references.size === 0 ? plain : referenceTargets(skill, build.sharedTargets);
    // A skill's prompt and its reference documents' are the skill's: its audience is theirs.
    const audience = audienceOf(skill);
    addPrompt(build, restrictEntry(skillPrompt(skill, targets, fs), audience), sources[index] as string, dir);
    for (const [slug, rel] of skill.references) {
      const text = await readText(fs, rel, build.maxFileBytes);
      if (text === undefined) continue;
      const entry = await referencePrompt(`${skill.promptName}-references-${slug}`, text, `Reference "${slug}" of the ${skill.promptName} skill`, targets);
      addPrompt(build, restrictEntry(entry, audience), rel, dir);
    }
  }
}

/** Files a folder's served skills cite that are not there: run once every folder's shared references are known. */
function addCitationIssues(build: Build, here: Served, sources: readonly string[], dir: string): void {
  for (const [index, skill] of here.skills.entries()) {
    for (const issue of citationIssues(skill, sources[index] as string, build.sharedTargets))
      build.issues.push(build.several ? { ...issue, folder: dir } : issue);
  }
}

/** A folder's prompt files, each through its format (formats/). */
async function addPromptFiles(build: Build, fs: ConfinedFs, refs: ScanResult['promptFiles'], dir: string): Promise<void> {
  const { maxFileBytes } = build;
  for (const ref of refs) {
    const text = await readText(fs, ref.rel, maxFileBytes);
    if (text === undefined) {
      build.issues.push({
        severity: 'error',
        code: 'unreadable',
        path: ref.rel,
        message: `Cannot read the file as UTF-8 text of at most ${maxFileBytes} bytes`,
      });
      continue;
    }
    const record = await loadPromptFile(ref, text, build.issues);
    if (!record) continue;
    const entry = restrictEntry(promptFileEntry(record), record.audience);
    build.deferred.push(() => addPrompt(build, entry, ref.rel, dir));
  }
}

/** Builds a catalogue. Throws only when a folder itself cannot be opened. */
export async function buildCatalogue(dirs: readonly string[], options: CatalogueOptions = {}): Promise<Catalogue> {
  const issues: Issue[] = [...(options.findings ?? [])];
  const { places, first } = await placesOf(dirs, issues);
  const build: Build = {
    issues,
    several: places.length > 1,
    prefix: options.prefix ?? slugify(basename(first?.root ?? 'skills')),
    maxFileBytes: options.limits?.maxFileBytes ?? (DEFAULT_LIMITS.maxFileBytes as number),
    promptsByName: new Map(),
    prompts: [],
    owners: new Map(),
    skills: [],
    outsideExtension: new Set(),
    served: [],
    dirsByPath: new Map(),
    sharedTargets: new Map(),
    deferred: [],
    emptyFolders: [],
  };
  for (const place of places) {
    const { dir, fs } = place;
    const firstIssue = issues.length;
    const scan = await scanFolder(fs, options.limits ?? DEFAULT_LIMITS);
    addIssues(issues, scan.issues);
    await addSharedReferences(build, fs, scan.sharedReferences, dir);
    const rootName = basename(fs.root);
    const loaded = await mapLimit(scan.skills, 16, (found) => loadSkill(fs, found, rootName, issues, build.maxFileBytes));
    const here: Served = { fs, skills: [] };
    build.served.push(here);
    const sources = placeSkills(build, scan.skills, loaded, here, place);
    await addSkillPrompts(build, here, sources, dir);
    build.deferred.push(() => addCitationIssues(build, here, sources, dir));
    await addPromptFiles(build, fs, scan.promptFiles, dir);
    if (build.several) for (let at = firstIssue; at < issues.length; at++) (issues[at] as Issue).folder = dir;
    const found = scan.skills.length + scan.promptFiles.length + scan.sharedReferences.length + (issues.length - firstIssue);
    if (found === 0) build.emptyFolders.push(dir);
  }
  for (const add of build.deferred) add();
  return new BuiltCatalogue({ ...build, issues: capIssues(issues) });
}
