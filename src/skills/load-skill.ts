/**
 * Loads one skill folder: its SKILL.md (frontmatter and text), locale
 * variants, declared arguments, reference documents, and the manifest of
 * every file with size, SHA-256 digest and MIME type (SEP-2640 `Skill`).
 */
import * as crypto from 'node:crypto';
import { type DeclaredArgument, parseArguments } from './arguments.js';
import type { ConfinedFs } from './confined-fs.js';
import { parseFrontmatter } from './frontmatter.js';
import type { Issue } from './issues.js';
import { isProbablyText, mimeTypeFor, NUL_WINDOW } from './mime.js';
import type { ScanResult } from './scan.js';
import { validateSkillFrontmatter } from './validate.js';

/** One file of a skill. */
export interface SkillFileRecord {
  /** Path relative to the served folder. */
  rel: string;
  /** Path relative to the skill folder. */
  inSkill: string;
  uri: string;
  size: number;
  digest: string;
  mimeType: string;
  /** Served as text (UTF-8) rather than a base64 blob. */
  text: boolean;
}

/** A locale variant, `SKILL.<locale>.md`. */
export interface LocaleVariant {
  locale: string;
  text: string;
  description: string;
  bodyOffset: number;
}

/** A loaded skill. */
export interface SkillRecord {
  name: string;
  /** Skill folder relative to the served folder ('' when the folder itself is the skill). */
  dir: string;
  /** The `<skill-path>` of its URIs: parent folders, then the name. */
  path: string;
  /** `skill://<path>/SKILL.md`. */
  uri: string;
  frontmatter: Record<string, unknown> & { name: string; description: string };
  description: string;
  /** SKILL.md as read, served while {@link stamp} says the file is unchanged. */
  text: string;
  /** Where the body of SKILL.md starts. */
  bodyOffset: number;
  /** The stamp of SKILL.md when it was read (see ConfinedFs.stampNow). */
  stamp: string;
  /** The SKILL.md record (also the first of {@link files}). */
  file: SkillFileRecord;
  args: readonly DeclaredArgument[];
  locales: readonly LocaleVariant[];
  /** Reference documents, by slug: `references/<slug>.md` inside the skill. */
  references: ReadonlyMap<string, string>;
  files: readonly SkillFileRecord[];
  /** Directories inside the skill, relative to the skill folder ('' is the root, always first). */
  directories: readonly string[];
}

const LOCALE_FILE = /^SKILL\.([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.md$/;
// Shared by every skill that has none: most skills are a lone SKILL.md.
const NO_REFERENCES: ReadonlyMap<string, string> = new Map();
const ROOT_ONLY: readonly string[] = Object.freeze(['']);
const NONE: readonly never[] = Object.freeze([]);
const BINARY_TYPE = /^(image\/(?!svg)|audio\/|video\/|font\/|application\/(pdf|zip|gzip|wasm|octet-stream))/;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly; undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `sha256:<hex>` of the bytes (SEP-2640 digest format). */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${oneShot ? oneShot('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex')}`;
}
// crypto.hash (Node 20.12+) hashes without a Hash object per file; older Nodes take the long way.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Loads the skill in `dir`; undefined (with issues) when it cannot be served. */
export async function loadSkill(
  fs: ConfinedFs,
  scan: ScanResult,
  dir: string,
  rootName: string,
  issues: Issue[],
): Promise<SkillRecord | undefined> {
  const skillRel = scan.skillFiles.get(dir) as string;
  const skillEntry = scan.entries.get(skillRel);
  const read = skillEntry ? await fs.readListed(skillEntry) : await fs.read(skillRel);
  if ('refused' in read) {
    issues.push({ severity: 'error', code: 'unreadable', path: skillRel, message: `Cannot read the file (${read.refused})` });
    return undefined;
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) {
    issues.push({ severity: 'error', code: 'not_utf8', path: skillRel, message: 'The file is not valid UTF-8' });
    return undefined;
  }
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) {
    issues.push({ severity: 'error', code: parsed.code, path: skillRel, line: parsed.line, message: parsed.message });
    return undefined;
  }
  const folder = dir === '' ? rootName : dir.slice(dir.lastIndexOf('/') + 1);
  const found = validateSkillFrontmatter(parsed.value.data, folder, skillRel);
  issues.push(...found);
  if (found.some((i) => i.severity === 'error')) return undefined;
  const frontmatter = parsed.value.data as SkillRecord['frontmatter'];
  const name = frontmatter.name;

  const { args, issues: argumentIssues } = parseArguments(frontmatter.arguments, skillRel);
  issues.push(...argumentIssues);

  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  const path = parent === '' ? name : `${parent}/${name}`;
  const base = `skill://${encodePath(path)}`;
  const prefix = dir === '' ? '' : `${dir}/`;

  const uri = `${base}/SKILL.md`;
  // SKILL.md was decoded above: only the NUL test of isProbablyText is left to do.
  const skillIsText = !read.bytes.subarray(0, NUL_WINDOW).includes(0);
  // SKILL.md is always addressed as SKILL.md (SEP-2640 §URI), also when the file is skill.md.
  const file: SkillFileRecord = { rel: skillRel, inSkill: skillRel.slice(prefix.length), uri, size: read.bytes.length, digest: digestOf(read.bytes), mimeType: 'text/markdown', text: skillIsText };
  let others: SkillFileRecord[] | undefined;
  let directories: string[] | undefined;
  let locales: LocaleVariant[] | undefined;
  let references: Map<string, string> | undefined;
  for (const entry of scan.bySkill.get(dir) ?? []) {
    const inSkill = entry.rel.slice(prefix.length);
    if (entry.kind === 'directory') {
      (directories ??= ['']).push(inSkill);
      continue;
    }
    if (entry.rel === skillRel) continue;
    const content = await fs.readListed(entry);
    if ('refused' in content) {
      issues.push({ severity: 'warning', code: 'unreadable', path: entry.rel, message: `Left out: cannot read the file (${content.refused})` });
      continue;
    }
    const mime = mimeTypeFor(inSkill);
    const isText = isProbablyText(content.bytes) && (mime === undefined || !BINARY_TYPE.test(mime));
    (others ??= []).push({
      rel: entry.rel,
      inSkill,
      uri: `${base}/${encodePath(inSkill)}`,
      size: content.bytes.length,
      digest: digestOf(content.bytes),
      mimeType: mime ?? (isText ? 'text/plain' : 'application/octet-stream'),
      text: isText,
    });
    const locale = LOCALE_FILE.exec(inSkill);
    if (locale) {
      const variantText = decodeUtf8(content.bytes);
      const variant = variantText === undefined ? undefined : parseFrontmatter(variantText);
      if (!variant || !variant.ok) {
        issues.push({
          severity: 'warning',
          code: 'invalid_locale_variant',
          path: entry.rel,
          ...(variant && !variant.ok ? { line: variant.line } : {}),
          message: 'Locale variant left out: not UTF-8 or invalid frontmatter',
        });
      } else {
        const description = typeof variant.value.data.description === 'string' ? variant.value.data.description : frontmatter.description;
        (locales ??= []).push({ locale: locale[1] as string, text: variantText as string, description, bodyOffset: variant.value.bodyOffset });
      }
    }
    const reference = /^references\/([^/]+)\.md$/.exec(inSkill);
    if (reference) (references ??= new Map()).set(reference[1] as string, entry.rel);
  }
  // Exactly as long as it needs to be: a growing array keeps room for 16 records.
  const files = others ? [file, ...others.sort((a, b) => (a.inSkill < b.inSkill ? -1 : 1))] : [file];
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > 512 || total > 16 * 1024 * 1024) {
    issues.push({
      severity: 'warning',
      code: 'skill_too_large',
      path: skillRel,
      message: `The skill has ${files.length} files and ${total} bytes; hosts need accept only 512 files and 16 MiB (SEP-2640)`,
    });
  }
  return {
    name,
    dir,
    path,
    uri,
    frontmatter,
    description: frontmatter.description,
    text,
    bodyOffset: parsed.value.bodyOffset,
    stamp: read.stamp,
    file,
    args: args.length > 0 ? args : NONE,
    locales: locales ? locales.sort((a, b) => (a.locale < b.locale ? -1 : 1)) : NONE,
    references: references ?? NO_REFERENCES,
    files,
    directories: directories ?? ROOT_ONLY,
  };
}

/** Thrown when a file no longer has the bytes the catalogue read: the catalogue is stale. */
export class StaleFileError extends Error {
  override name = 'StaleFileError';
}

/**
 * The text of a catalogued file as it is now, if it still has the bytes the
 * catalogue was built from (same SHA-256); throws {@link StaleFileError} when
 * it changed, went away or cannot be read, so the caller reloads.
 */
export function readVerified(fs: ConfinedFs, record: SkillFileRecord): string {
  const read = fs.readNow(record.rel);
  const text = 'refused' in read || digestOf(read.bytes) !== record.digest ? undefined : decodeUtf8(read.bytes);
  if (text === undefined) throw new StaleFileError(`${record.uri} changed since it was read`);
  return text;
}
