/**
 * Builds an immutable catalogue from one or more served folders: every
 * prompt (skills, their reference documents, shared references, prompt
 * files), every resource (each file of each skill under its `skill://` URI),
 * the Skills-extension entries and the directory listings. A reload builds a
 * new catalogue and swaps it in whole, so a request never sees half of one.
 */
import { basename } from 'node:path';
import { type ResolvedCompleter, resolveCompleter } from '../core/completers.js';
import type { Prompt, PromptArgument, Resource } from '../core/model.js';
import type { SkillEntry } from '../core/skills.js';
import type { DeclaredArgument } from './arguments.js';
import { rewriteCitations } from './citations.js';
import { type ConfinedFs, openConfined } from './confined-fs.js';
import { parseFrontmatter } from './frontmatter.js';
import type { Issue } from './issues.js';
import { decodeUtf8, loadSkill, type SkillFileRecord, type SkillRecord } from './load-skill.js';
import { loadPromptFile } from './prompt-files.js';
import { DEFAULT_LIMITS, type ScanLimits, scanFolder } from './scan.js';
import { firstSentence } from './sentence.js';
import { substituteTemplate } from './substitute.js';

/** A prompt of the catalogue and how to render it. */
export interface PromptEntry {
  prompt: Prompt;
  /** Renders the prompt's text and full description; throws -32602 style errors for bad values. */
  render(args: Record<string, string>): { text: string; description: string | undefined };
  completers: ReadonlyMap<string, ResolvedCompleter>;
}

/** A servable file: its record and the folder it lives in. */
export interface FileEntry {
  fs: ConfinedFs;
  record: SkillFileRecord;
}

/** Everything served from the folders at one point in time. */
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
  readonly issues: readonly Issue[];
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
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'skills' : slug;
}

function toArgument(declared: DeclaredArgument): PromptArgument {
  const argument: PromptArgument = { name: declared.name };
  if (declared.title !== undefined) argument.title = declared.title;
  if (declared.description !== undefined) argument.description = declared.description;
  if (declared.required) argument.required = true;
  return argument;
}

function completersOf(args: readonly DeclaredArgument[]): Map<string, ResolvedCompleter> {
  const map = new Map<string, ResolvedCompleter>();
  for (const a of args) if (a.complete !== undefined) map.set(a.name, resolveCompleter(a.complete));
  return map;
}

function describeReference(text: string, fallback: string): string {
  const parsed = parseFrontmatter(text);
  if (parsed.ok && typeof parsed.value.data.description === 'string') return parsed.value.data.description;
  const body = parsed.ok ? parsed.value.body : text;
  const heading = body
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return heading ?? fallback;
}

/** Thrown by a render when an argument value is not acceptable; the provider maps it to -32602. */
export class ArgumentValueError extends Error {
  override name = 'ArgumentValueError';
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

  const promptsByName = new Map<string, PromptEntry>();
  const prompts: Prompt[] = [];
  const owners = new Map<string, string>();
  function addPrompt(entry: PromptEntry, source: string): void {
    const name = entry.prompt.name;
    const owner = owners.get(name);
    if (owner !== undefined) {
      issues.push({ severity: 'warning', code: 'duplicate_name', path: source, message: `The prompt name "${name}" is already taken by ${owner}; this one is not served` });
      return;
    }
    owners.set(name, source);
    promptsByName.set(name, entry);
    prompts.push(entry.prompt);
  }

  const files = new Map<string, FileEntry>();
  const skills: SkillRecord[] = [];
  const skillEntries: SkillEntry[] = [];
  const skillsByUri = new Map<string, SkillEntry>();
  const dirsByUri = new Map<string, string>();
  const directories = new Map<string, Resource[]>();
  const resources: Resource[] = [];
  const sharedTargets = new Map<string, string>();
  const deferred: Array<() => void> = [];

  for (const fs of roots) {
    const rootName = basename(fs.root);
    const scan = await scanFolder(fs, options.limits ?? DEFAULT_LIMITS);
    issues.push(...scan.issues);

    // Shared references first, so skills can cite them.
    for (const rel of scan.sharedReferences) {
      const slug = rel.slice('references/'.length, -'.md'.length);
      const name = `${prefix}-references-${slug}`;
      const read = await fs.read(rel);
      const text = 'bytes' in read ? decodeUtf8(read.bytes) : undefined;
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: rel, message: 'Cannot read the file as UTF-8 text' });
        continue;
      }
      if (!sharedTargets.has(slug)) sharedTargets.set(slug, name);
      const description = firstSentence(describeReference(text, `Shared reference "${slug}"`));
      deferred.push(() =>
        addPrompt(
          {
            prompt: { name, description },
            render: () => ({ text: rewriteCitations(text, { local: new Map(), shared: sharedTargets }), description }),
            completers: new Map(),
          },
          rel,
        ),
      );
    }

    const loaded = await mapLimit(scan.skillDirs, 16, (dir) => loadSkill(fs, scan, dir, rootName, issues));
    for (const skill of loaded) {
      if (!skill) continue;
      const first = skillsByUri.has(skill.uri) ? dirsByUri.get(skill.uri) : undefined;
      if (first !== undefined) {
        issues.push({
          severity: 'warning',
          code: 'duplicate_name',
          path: scan.skillFiles.get(skill.dir) ?? skill.dir,
          message: `The skill "${skill.name}" is already served from ${first || '.'}; this one is not served`,
        });
        continue;
      }
      skills.push(skill);
      dirsByUri.set(skill.uri, skill.dir);
      const entry: SkillEntry = {
        uri: skill.uri,
        frontmatter: skill.frontmatter,
        resources: skill.files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
      };
      skillEntries.push(entry);
      skillsByUri.set(skill.uri, entry);
      const base = skill.uri.slice(0, -'/SKILL.md'.length);
      for (const record of skill.files) {
        if (files.has(record.uri)) continue;
        files.set(record.uri, { fs, record });
        const isSkillFile = record.uri === skill.uri;
        const resource: Resource = { uri: record.uri, name: isSkillFile ? skill.name : record.inSkill, mimeType: record.mimeType, size: record.size };
        if (isSkillFile) resource.description = skill.description;
        resources.push(resource);
      }
      for (const dir of skill.directories) {
        const uri = dir === '' ? base : `${base}/${dir.split('/').map(encodeURIComponent).join('/')}`;
        if (directories.has(uri)) continue;
        const children: Resource[] = [];
        for (const sub of skill.directories) {
          if (sub === '' || sub.slice(0, Math.max(0, sub.lastIndexOf('/'))) !== dir) continue;
          children.push({ uri: `${base}/${sub.split('/').map(encodeURIComponent).join('/')}`, name: sub.slice(sub.lastIndexOf('/') + 1), mimeType: 'inode/directory' });
        }
        for (const record of skill.files) {
          const parent = record.inSkill.includes('/') ? record.inSkill.slice(0, record.inSkill.lastIndexOf('/')) : '';
          if (parent !== dir) continue;
          children.push({ uri: record.uri, name: record.inSkill.slice(record.inSkill.lastIndexOf('/') + 1), mimeType: record.mimeType, size: record.size });
        }
        // Sub-folders first, then files, each by name: the walk order is not deterministic.
        children.sort((a, b) => {
          const folders = Number(b.mimeType === 'inode/directory') - Number(a.mimeType === 'inode/directory');
          return folders !== 0 ? folders : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
        });
        directories.set(uri, children);
      }
    }

    const served = new Set(loaded);
    for (const skill of skills.filter((s) => served.has(s))) {
      const local = new Map([...skill.references.keys()].map((slug) => [slug, `${skill.name}-references-${slug}`]));
      const targets = { local, shared: sharedTargets };
      const declared = [...skill.args];
      const completers = completersOf(declared);
      const args = declared.map(toArgument);
      if (skill.locales.length > 0 && !declared.some((a) => a.name === 'locale')) {
        const codes = skill.locales.map((l) => l.locale);
        args.push({ name: 'locale', description: `Language of the skill text: ${codes.join(', ')}; the default text when left out` });
        completers.set('locale', resolveCompleter(codes));
      }
      const prompt: Prompt = { name: skill.name, description: firstSentence(skill.description) };
      if (args.length > 0) prompt.arguments = args;
      addPrompt(
        {
          prompt,
          completers,
          render: (values) => {
            let text = skill.text;
            let bodyOffset = skill.bodyOffset;
            let description = skill.description;
            const wanted = values.locale;
            if (wanted !== undefined && wanted !== '' && skill.locales.length > 0 && !skill.args.some((a) => a.name === 'locale')) {
              const variant = skill.locales.find((l) => l.locale.toLowerCase() === wanted.toLowerCase());
              if (!variant) {
                throw new ArgumentValueError(`Skill "${skill.name}" has no "${wanted}" text; available: ${skill.locales.map((l) => l.locale).join(', ')}`);
              }
              ({ text, bodyOffset, description } = variant);
            }
            // Placeholders are substituted only for skills that declare arguments, in the
            // body; the frontmatter stays as written (a skill without arguments is verbatim).
            if (skill.args.length > 0) text = text.slice(0, bodyOffset) + substituteTemplate(text.slice(bodyOffset), values);
            return { text: rewriteCitations(text, targets), description };
          },
        },
        skill.dir === '' ? scan.skillFiles.get('') ?? 'SKILL.md' : `${skill.dir}/SKILL.md`,
      );
      for (const [slug, rel] of skill.references) {
        const record = skill.files.find((f) => f.rel === rel);
        if (!record) continue;
        const read = await fs.read(rel);
        const text = 'bytes' in read ? decodeUtf8(read.bytes) : undefined;
        if (text === undefined) continue;
        const description = firstSentence(describeReference(text, `Reference "${slug}" of the ${skill.name} skill`));
        addPrompt(
          {
            prompt: { name: `${skill.name}-references-${slug}`, description },
            render: () => ({ text: rewriteCitations(text, targets), description }),
            completers: new Map(),
          },
          rel,
        );
      }
    }

    for (const ref of scan.promptFiles) {
      const read = await fs.read(ref.rel);
      const text = 'bytes' in read ? decodeUtf8(read.bytes) : undefined;
      if (text === undefined) {
        issues.push({ severity: 'error', code: 'unreadable', path: ref.rel, message: 'Cannot read the file as UTF-8 text' });
        continue;
      }
      const record = loadPromptFile(ref, text, issues);
      if (!record) continue;
      const prompt: Prompt = { name: record.name };
      if (record.description !== undefined) prompt.description = firstSentence(record.description);
      if (record.args.length > 0) prompt.arguments = record.args.map(toArgument);
      const full = record.description;
      deferred.push(() =>
        addPrompt({ prompt, completers: completersOf(record.args), render: (values) => ({ text: record.render(values), description: full }) }, ref.rel),
      );
    }
  }
  for (const add of deferred) add();

  return { prompts, promptsByName, resources, files, skills, skillEntries, skillsByUri, directories, issues };
}
