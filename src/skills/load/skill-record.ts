/**
 * The records a loaded skill is kept as: each file's path, size, SHA-256 and
 * MIME type, and the skill's frontmatter, text and files (SEP-2640 `Skill`),
 * with URIs and digests as text derived when asked. Also the text decoding
 * and digest helpers that decide what a file's bytes are served as.
 */
import * as crypto from 'node:crypto';
import type { DeclaredArgument } from './arguments.js';

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
  /**
   * The `<skill-path>` of its URIs (SEP-2640: segments ending in the name): the
   * name alone, or for a skill inside another skill's folder, the enclosing
   * skill's path, the folders between them, then the name. Folders that only
   * organise skills (`skills/`, `plugins/x/`) are not part of it.
   */
  readonly path: string;
  /** {@link path} encoded for a URI, one segment at a time. */
  readonly uriBase: string;
  /** Its prompt name, which the skill tools load it by: `name`, or `<plugin>:<name>` in a marketplace (marketplace.ts), as Claude Code says. */
  readonly promptName: string;
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

// Shared by every skill that has none: most skills are a lone SKILL.md.
const NO_REFERENCES: ReadonlyMap<string, string> = new Map();
const ROOT_ONLY: readonly string[] = Object.freeze(['']);
const NONE: readonly never[] = Object.freeze([]);
const decoder = new TextDecoder('utf-8', { fatal: true });
// ignoreBOM keeps a leading byte-order mark in the text instead of dropping it.
const exactDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 strictly, without a leading byte-order mark; undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes UTF-8 strictly into the text whose UTF-8 encoding is exactly these
 * bytes, a leading byte-order mark included: what `resources/read` sends, since
 * a host checks the size and digest of the manifest against the UTF-8 bytes of
 * the text it receives (SEP-2640 §digest). Undefined when the bytes are not UTF-8.
 */
export function decodeExact(bytes: Uint8Array): string | undefined {
  try {
    return exactDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `sha256:<hex>` of the bytes (SEP-2640 digest format). */
export function digestOf(bytes: Uint8Array): string {
  return digestText(sha256(bytes));
}

// crypto.hash (Node 20.12+) hashes without a Hash object per file; older Nodes take the long way.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'binary') => string }).hash;

/**
 * The SHA-256 of the bytes as a string of 32 one-byte characters: what a
 * record keeps, 48 bytes of heap where the `sha256:<hex>` text takes 88.
 */
export function sha256(bytes: Uint8Array): string {
  return oneShot ? oneShot('sha256', bytes, 'binary') : crypto.createHash('sha256').update(bytes).digest('binary');
}

/** The `sha256:<hex>` text of a digest kept by {@link sha256}. */
function digestText(raw: string): string {
  // join, not a template: one flat string rather than a pair of them.
  return ['sha256:', Buffer.from(raw, 'latin1').toString('hex')].join('');
}

// What encodeURIComponent leaves as it is, plus the separator.
const URI_SAFE = /^[A-Za-z0-9\-_.!~*'()/]*$/;

/** Each segment of a path encoded for a URI; the path itself when nothing needs encoding. */
export function encodePath(path: string): string {
  return URI_SAFE.test(path) ? path : path.split('/').map(encodeURIComponent).join('/');
}

/** One URI segment: a `/` in it is encoded too, so a name never reaches into another segment. */
function encodeSegment(segment: string): string {
  return URI_SAFE.test(segment) && !segment.includes('/') ? segment : encodeURIComponent(segment);
}

/*
 * The records below keep what was read and derive the rest (URIs, paths
 * inside the skill, digests as text, SKILL.md's own record, the file list of
 * a lone SKILL.md) when asked: a folder of 10,000 skills keeps 10,000 of each
 * record for as long as it is served, and the derived values are wanted only
 * by resource views (built once per catalogue on first use) and by reads.
 */

/** A skill file as loaded: its URI and path inside the skill are derived from its skill's. */
export class LoadedFile implements SkillFileRecord {
  readonly size: number;
  readonly mimeType: string;
  readonly text: boolean;
  readonly #skill: LoadedSkill;
  /**
   * The path relative to the served folder; for SKILL.md only its file name (a
   * constant). The scan's path strings are freed once the catalogue is built,
   * and keeping one per skill would keep the heap pages they were allocated in.
   */
  readonly #path: string;
  readonly #sha256: string;

  constructor(skill: LoadedSkill, path: string, size: number, sha: string, mimeType: string, text: boolean) {
    this.#skill = skill;
    this.#path = path;
    this.#sha256 = sha;
    this.size = size;
    this.mimeType = mimeType;
    this.text = text;
  }

  get digest(): string {
    return digestText(this.#sha256);
  }

  get rel(): string {
    if (this.#skill.file !== this) return this.#path;
    const dir = this.#skill.dir;
    return dir === '' ? this.#path : `${dir}/${this.#path}`;
  }

  get inSkill(): string {
    if (this.#skill.file === this) return this.#path;
    const dir = this.#skill.dir;
    return dir === '' ? this.#path : this.#path.slice(dir.length + 1);
  }

  get uri(): string {
    // SKILL.md is always addressed as SKILL.md (SEP-2640 §URI), also when the file is skill.md.
    return this === this.#skill.file ? this.#skill.uri : `skill://${this.#skill.uriBase}/${encodePath(this.inSkill)}`;
  }
}

/** What most skills do not have: kept in one object, and only by the skills that have any of it. */
interface Extras {
  args?: readonly DeclaredArgument[];
  locales?: readonly LocaleVariant[];
  references?: ReadonlyMap<string, string>;
  directories?: readonly string[];
  /** Every file, SKILL.md first, when there is more than SKILL.md. */
  files?: readonly LoadedFile[];
  /** SKILL.md's file name when it is skill.md. */
  fileName?: string;
  /** False when SKILL.md is served as a blob. */
  textual?: boolean;
  /** Where a skill nested in another one is placed (see {@link SkillRecord.path}). */
  path?: string;
  uriBase?: string;
  /** A plugin's skill: `<plugin>:<name>` (see {@link SkillRecord.promptName}). */
  promptName?: string;
}

export class LoadedSkill implements SkillRecord {
  readonly name: string;
  readonly dir: string;
  readonly frontmatter: SkillRecord['frontmatter'];
  readonly text: string;
  readonly bodyOffset: number;
  readonly stamp: string;
  /** SKILL.md's size and SHA-256; its record is made on first use. */
  readonly #size: number;
  readonly #sha256: string;
  #file: LoadedFile | undefined;
  #extras: Extras | undefined;

  constructor(name: string, dir: string, frontmatter: SkillRecord['frontmatter'], text: string, bodyOffset: number, stamp: string, size: number, sha: string) {
    this.name = name;
    this.dir = dir;
    this.frontmatter = frontmatter;
    this.text = text;
    this.bodyOffset = bodyOffset;
    this.stamp = stamp;
    this.#size = size;
    this.#sha256 = sha;
  }

  get path(): string {
    return this.#extras?.path ?? this.name;
  }

  get uriBase(): string {
    return this.#extras?.uriBase ?? encodeSegment(this.name);
  }

  get promptName(): string {
    return this.#extras?.promptName ?? this.name;
  }

  get uri(): string {
    return `skill://${this.uriBase}/SKILL.md`;
  }

  /** Places this skill under plugin `namespace`: path `<plugin>/<name>` (SEP-2640: the segments before the name are the server's) and prompt name `<plugin>:<name>`. */
  namespaceIn(namespace: string): void {
    this.extend({ path: `${namespace}/${this.path}`, uriBase: `${encodeSegment(namespace)}/${this.uriBase}`, promptName: `${namespace}:${this.name}` });
  }

  /**
   * Places this skill inside the skill `outer`, whose folder holds it `between`
   * folders down ('' when directly): its URIs then lie inside `outer`'s, as the
   * enclosing skill's manifest lists its files (SEP-2640 §nested skills).
   */
  nestIn(outer: SkillRecord, between: string): void {
    const path = between === '' ? `${outer.path}/${this.name}` : `${outer.path}/${between}/${this.name}`;
    const uriBase = between === '' ? `${outer.uriBase}/${encodeSegment(this.name)}` : `${outer.uriBase}/${encodePath(between)}/${encodeSegment(this.name)}`;
    // Inside a plugin's skill, a nested skill is the plugin's too.
    const colon = outer.promptName.indexOf(':');
    this.extend({ path, uriBase, ...(colon > 0 ? { promptName: `${outer.promptName.slice(0, colon)}:${this.name}` } : {}) });
  }

  get description(): string {
    return this.frontmatter.description;
  }

  get file(): LoadedFile {
    this.#file ??= new LoadedFile(this, this.#extras?.fileName ?? 'SKILL.md', this.#size, this.#sha256, 'text/markdown', this.#extras?.textual ?? true);
    return this.#file;
  }

  get files(): readonly SkillFileRecord[] {
    return this.#extras?.files ?? [this.file];
  }

  get args(): readonly DeclaredArgument[] {
    return this.#extras?.args ?? NONE;
  }

  get locales(): readonly LocaleVariant[] {
    return this.#extras?.locales ?? NONE;
  }

  get references(): ReadonlyMap<string, string> {
    return this.#extras?.references ?? NO_REFERENCES;
  }

  get directories(): readonly string[] {
    return this.#extras?.directories ?? ROOT_ONLY;
  }

  /** Records what this skill has beyond a lone SKILL.md. */
  extend(extras: Extras): void {
    this.#extras = { ...this.#extras, ...extras };
  }
}
