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
import { trimOf } from '../../core/trim.js';
import { declaredAudience } from '../load/audience.js';
import { type ConfinedFs, openConfined } from '../load/confined-fs.js';
import { keyLines } from '../load/frontmatter.js';
import { addIssues, capIssues, type Issue } from '../load/issues.js';
import { loadSkill } from '../load/load-skill.js';
import { loadPromptFile } from '../load/prompt-files.js';
import { DEFAULT_LIMITS, type ScanLimits, type ScannedSkill, scanFolder } from '../load/scan.js';
import { decodeUtf8, type SkillRecord } from '../load/skill-record.js';
import { BuiltCatalogue, type Catalogue, type Served } from './catalogue-view.js';
import type { CitationTargets } from './citations.js';
import { type PromptEntry, promptFileEntry, referencePrompt, skillPrompt } from './entries.js';
import { extensionProblems } from './extension.js';
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

/** Builds a catalogue. Throws only when a folder itself cannot be opened. */
export async function buildCatalogue(dirs: readonly string[], options: CatalogueOptions = {}): Promise<Catalogue> {
  const issues: Issue[] = [];
  const roots = await Promise.all(dirs.map((dir) => openConfined(dir)));
  const prefix = options.prefix ?? slugify(basename(roots[0]?.root ?? 'skills'));
  const maxFileBytes = options.limits?.maxFileBytes ?? (DEFAULT_LIMITS.maxFileBytes as number);

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
      const issue: Issue = {
        severity: 'warning',
        code: 'duplicate_name',
        path: source,
        message: `The prompt name "${name}" is already taken by ${owner}; this one is not served`,
      };
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
      const text = await readText(fs, rel, maxFileBytes);
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: rel, message: `Cannot read the file as UTF-8 text of at most ${maxFileBytes} bytes` });
        continue;
      }
      if (!sharedTargets.has(slug)) sharedTargets.set(slug, name);
      const entry = await referencePrompt(name, text, `Shared reference "${slug}"`, { local: new Map(), shared: sharedTargets });
      deferred.push(() => addPrompt(entry, rel, dir));
    }

    const loaded = await mapLimit(scan.skills, 16, (found) => loadSkill(fs, found, rootName, issues, maxFileBytes));
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
      restrictSkill(skill, declaredAudience(skill.frontmatter).audience, outer?.skill);
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
      // A skill's prompt and its reference documents' are the skill's: its audience is theirs.
      const audience = audienceOf(skill);
      addPrompt(restrictEntry(skillPrompt(skill, targets, fs), audience), sources[index] as string, dir);
      for (const [slug, rel] of skill.references) {
        const text = await readText(fs, rel, maxFileBytes);
        if (text === undefined) continue;
        const entry = await referencePrompt(`${skill.name}-references-${slug}`, text, `Reference "${slug}" of the ${skill.name} skill`, targets);
        addPrompt(restrictEntry(entry, audience), rel, dir);
      }
    }

    for (const ref of scan.promptFiles) {
      const text = await readText(fs, ref.rel, maxFileBytes);
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: ref.rel, message: `Cannot read the file as UTF-8 text of at most ${maxFileBytes} bytes` });
        continue;
      }
      const record = await loadPromptFile(ref, text, issues);
      if (!record) continue;
      const entry = restrictEntry(promptFileEntry(record), record.audience);
      deferred.push(() => addPrompt(entry, ref.rel, dir));
    }
    if (several) for (let at = firstIssue; at < issues.length; at++) (issues[at] as Issue).folder = dir;
  }
  for (const add of deferred) add();

  return new BuiltCatalogue(prompts, promptsByName, skills, capIssues(issues), served, outsideExtension);
}
