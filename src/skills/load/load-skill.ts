/**
 * Loads one skill folder: its SKILL.md (frontmatter and text), locale
 * variants, declared arguments, reference documents, and the manifest of
 * every file with size, SHA-256 digest and MIME type (SEP-2640 `Skill`).
 */
import { parseArguments } from './arguments.js';
import type { ConfinedFs, Refusal } from './confined-fs.js';
import { type KeyLines, keyLines, readFrontmatter } from './frontmatter.js';
import { addIssues, type Issue } from './issues.js';
import { distinctLocales, localeOf, misnamedLocale, readLocaleVariant } from './locale-files.js';
import { isProbablyText, mimeTypeFor, NUL_WINDOW } from './mime.js';
import { placeholderIssues, type TemplateText } from './placeholders.js';
import { DEFAULT_LIMITS, type ScannedSkill } from './scan.js';
import { decodeUtf8, digestOf, LoadedFile, LoadedSkill, type LocaleVariant, type SkillFileRecord, type SkillRecord, sha256 } from './skill-record.js';
import { noFrontmatter, validateSkillFrontmatter } from './validate.js';

const BINARY_TYPE = /^(image\/(?!svg)|audio\/|video\/|font\/|application\/(pdf|zip|gzip|wasm|octet-stream|msword|vnd\.ms-|vnd\.openxmlformats|vnd\.oasis))/;

const DEFAULT_MAX_FILE_BYTES = DEFAULT_LIMITS.maxFileBytes as number;

/** How a refused read is reported: a file over the size cap is named as such. */
function unreadable(refused: Refusal, maxFileBytes: number, what: string): { code: string; message: string } {
  if (refused === 'too-large') return { code: 'too_large', message: `${what}: it has more than ${maxFileBytes} bytes, the largest file served` };
  return { code: 'unreadable', message: `${what} (${refused})` };
}

/** Loads the skill in `dir`; undefined (with issues) when it cannot be served. */
export async function loadSkill(
  fs: ConfinedFs,
  scanned: ScannedSkill,
  rootName: string,
  issues: Issue[],
  maxFileBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<LoadedSkill | undefined> {
  const { dir, file: skillEntry } = scanned;
  const skillRel = skillEntry.rel;
  const read = await fs.readListed(skillEntry, maxFileBytes);
  if ('refused' in read) {
    issues.push({ severity: 'error', ...unreadable(read.refused, maxFileBytes, 'Cannot read the file'), path: skillRel });
    return undefined;
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) {
    issues.push({ severity: 'error', code: 'not_utf8', path: skillRel, message: 'The file is not valid UTF-8' });
    return undefined;
  }
  const parsed = await readFrontmatter(text);
  if (!parsed.ok) {
    issues.push({ severity: 'error', code: parsed.code, path: skillRel, line: parsed.line, message: parsed.message });
    return undefined;
  }
  const folder = dir === '' ? rootName : dir.slice(dir.lastIndexOf('/') + 1);
  // Findings about a key carry its line; nothing is computed for a skill without any.
  const lines = keyLines(text);
  // A SKILL.md without frontmatter is one mistake, not a missing name and a missing description.
  const found = parsed.value.bodyOffset === 0 ? [noFrontmatter(text, skillRel)] : validateSkillFrontmatter(parsed.value.data, folder, skillRel, lines);
  addIssues(issues, found);
  if (found.some((i) => i.severity === 'error')) return undefined;
  const frontmatter = parsed.value.data as SkillRecord['frontmatter'];
  const name = frontmatter.name;

  const { args, issues: argumentIssues } = parseArguments(frontmatter.arguments, skillRel, lines);
  addIssues(issues, argumentIssues);

  const prefix = dir === '' ? '' : `${dir}/`;

  // SKILL.md was decoded above: only the NUL test of isProbablyText is left to do.
  const skillIsText = !read.bytes.subarray(0, NUL_WINDOW).includes(0);
  // A skill folder is usually named as its skill: one string serves as both.
  const skill = new LoadedSkill(name, dir === name ? name : dir, frontmatter, text, parsed.value.bodyOffset, read.stamp, read.bytes.length, sha256(read.bytes));
  const fileName = skillRel.slice(prefix.length);
  if (fileName !== 'SKILL.md') skill.extend({ fileName });
  if (!skillIsText) skill.extend({ textual: false });
  if (args.length > 0) skill.extend({ args });
  const { others, directories, locales, references } = await readOtherFiles(fs, scanned, skill, prefix, issues, maxFileBytes);
  if (others) skill.extend({ files: [skill.file, ...others.sort((a, b) => (a.inSkill < b.inSkill ? -1 : 1))] });
  if (locales) skill.extend({ locales: distinctLocales(locales, prefix, issues) });
  if (references) skill.extend({ references });
  if (directories) skill.extend({ directories });
  addIssues(issues, placeholderFindings(skill, skillRel, prefix, lines));
  const count = 1 + (others?.length ?? 0);
  const total = (others ?? []).reduce((sum, f) => sum + f.size, read.bytes.length);
  if (count > 512 || total > 16 * 1024 * 1024) {
    issues.push({
      severity: 'warning',
      code: 'skill_too_large',
      path: skillRel,
      message: `The skill has ${count} files and ${total} bytes; hosts need accept only 512 files and 16 MiB (SEP-2640)`,
    });
  }
  return skill;
}

/**
 * What the placeholders of a loaded skill's SKILL.md and locale variants get
 * wrong against its arguments, when it declares some (a skill without
 * arguments is served as written). Cited files are checked once every
 * folder's shared references are known (cited-files.ts, from the catalogue).
 */
function placeholderFindings(skill: LoadedSkill, source: string, prefix: string, lines: KeyLines): Issue[] {
  if (skill.args.length === 0) return [];
  const texts: TemplateText[] = [
    { path: source, text: skill.text, bodyOffset: skill.bodyOffset },
    ...skill.locales.map((v) => ({ path: `${prefix}SKILL.${v.locale}.md`, text: v.text, bodyOffset: v.bodyOffset })),
  ];
  return placeholderIssues(texts, skill.args, skill.frontmatter.arguments, lines, skill.locales.length > 0 ? ['locale'] : []);
}

/** What a skill folder holds besides SKILL.md: its files, read and typed; its folders; its locale variants and reference documents. */
interface OtherFiles {
  others?: LoadedFile[];
  directories?: string[];
  locales?: LocaleVariant[];
  references?: Map<string, string>;
}

/** Reads every entry of `scanned` but SKILL.md, for `skill`; a file that cannot be read is left out with a warning. */
async function readOtherFiles(
  fs: ConfinedFs,
  scanned: ScannedSkill,
  skill: LoadedSkill,
  prefix: string,
  issues: Issue[],
  maxFileBytes: number,
): Promise<OtherFiles> {
  const found: OtherFiles = {};
  for (const entry of scanned.entries) {
    const inSkill = entry.rel.slice(prefix.length);
    if (entry.kind === 'directory') {
      (found.directories ??= ['']).push(inSkill);
      continue;
    }
    if (entry === scanned.file) continue;
    const content = await fs.readListed(entry, maxFileBytes);
    if ('refused' in content) {
      issues.push({ severity: 'warning', ...unreadable(content.refused, maxFileBytes, 'Left out: cannot read the file'), path: entry.rel });
      continue;
    }
    const mime = mimeTypeFor(inSkill);
    const isText = isProbablyText(content.bytes) && (mime === undefined || !BINARY_TYPE.test(mime));
    const mimeType = mime ?? (isText ? 'text/plain' : 'application/octet-stream');
    (found.others ??= []).push(new LoadedFile(skill, entry.rel, content.bytes.length, sha256(content.bytes), mimeType, isText));
    const locale = localeOf(inSkill);
    const misnamed = locale === undefined ? misnamedLocale(inSkill, entry.rel) : undefined;
    if (misnamed) issues.push(misnamed);
    if (locale !== undefined) {
      const variant = await readLocaleVariant(locale, content.bytes, skill.frontmatter.description);
      if ('message' in variant) issues.push({ severity: 'warning', code: 'invalid_locale_variant', path: entry.rel, ...variant });
      else (found.locales ??= []).push(variant);
    }
    const reference = /^references\/([^/]+)\.md$/.exec(inSkill);
    if (reference) (found.references ??= new Map()).set(reference[1] as string, entry.rel);
  }
  return found;
}

/** Thrown when a file no longer has the bytes the catalogue read: the catalogue is stale. */
export class StaleFileError extends Error {
  override name = 'StaleFileError';
}

/**
 * Checks that a catalogued file still has the bytes the catalogue was built
 * from (same SHA-256), so what the catalogue kept of it may still be served;
 * throws {@link StaleFileError} when it changed, went away or cannot be read,
 * so the caller reloads.
 */
export function verifyUnchanged(fs: ConfinedFs, record: SkillFileRecord): void {
  const read = fs.readNow(record.rel);
  if ('refused' in read || digestOf(read.bytes) !== record.digest) throw new StaleFileError(`${record.uri} changed since it was read`);
}
