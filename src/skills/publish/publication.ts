/**
 * One catalogue as the Agent Skills Discovery v0.2.0 index and its
 * artifacts, made on first use and kept with that catalogue: per caller's
 * audience set a view (the index and the artifacts it names), since a caller
 * sees only the skills it may use (core/audience.ts) and, of a skill holding
 * a restricted nested skill, only the files it may use (catalogue-view.ts
 * `filesFor`): an archive is made of exactly those files, so no archive a
 * caller can fetch holds what it may not read. Each `digest` is the SHA-256
 * of the bytes served (§Integrity and Verification), read confined and
 * checked against the catalogue's own digests: a file changed since the
 * catalogue read it is never published under the old one.
 */
import { audienceKey, mayUse } from '../../core/audience.js';
import type { Principal } from '../../core/context.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { Issue } from '../load/issues.js';
import { digestOf, type SkillFileRecord, type SkillRecord } from '../load/skill-record.js';
import { type Candidate, candidatesOf } from './entries.js';
import { type ArchiveFile, packArchive } from './tar.js';

/** §Versioning: the `$schema` of a v0.2.0 index. */
export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Views kept per catalogue, one per audience set (a few in practice; bounded anyway). */
const MAX_VIEWS = 64;

/** A file changed or went away since the catalogue read it: reload before publishing. */
export class StaleCatalogueError extends Error {}

export interface PublishLimits {
  /** A skill whose files add up to more is listed without an archive (a finding). */
  readonly maxArchiveBytes: number;
  /** Archive bytes kept between requests, over all archives; past it the least recently served are made again when asked. */
  readonly maxCachedBytes: number;
}

/** One artifact of a view: what the index says of it, and its bytes. */
export interface Artifact {
  readonly type: 'skill-md' | 'archive';
  /** `sha256:` and 64 lowercase hex digits of {@link bytes}. */
  readonly digest: string;
  /** The bytes served; rejects with {@link StaleCatalogueError} when a file changed. */
  bytes(): Promise<Uint8Array>;
}

/** What one caller is served: the index's bytes and the artifacts by their path under the index's folder. */
export interface View {
  readonly index: Uint8Array;
  readonly digest: string;
  readonly artifacts: ReadonlyMap<string, Artifact>;
}

/** An archive's digest, as made once; its bytes are kept in the cache while there is room. */
interface ArchiveInfo {
  readonly key: string;
  readonly digest: string;
}

const encoder = new TextEncoder();

export class Publication {
  readonly #catalogue: Catalogue;
  readonly #limits: PublishLimits;
  readonly #candidates: readonly Candidate[];
  readonly #found: (issue: Issue) => void;
  readonly #views = new Map<string, Promise<View>>();
  /** Per skill and set of files (its key), the archive made of them; undefined when it cannot be made. */
  readonly #archives = new Map<string, Promise<ArchiveInfo | undefined>>();
  readonly #cache = new Map<string, Uint8Array>();
  #cachedBytes = 0;

  constructor(catalogue: Catalogue, limits: PublishLimits, found: (issue: Issue) => void) {
    this.#catalogue = catalogue;
    this.#limits = limits;
    this.#found = found;
    const { candidates, findings } = candidatesOf(catalogue);
    this.#candidates = candidates;
    for (const issue of findings) found(issue);
  }

  /** What `principal` is served (one view per audience set; everyone's the same when nothing is restricted). */
  view(principal: Principal | undefined): Promise<View> {
    const key = principal === undefined || !this.#catalogue.owners.restricted ? '*' : `audience:${audienceKey(principal)}`;
    let view = this.#views.get(key);
    if (view === undefined) {
      if (this.#views.size >= MAX_VIEWS) this.#views.delete(this.#views.keys().next().value as string);
      view = this.#makeView(principal);
      this.#views.set(key, view);
      // A view that failed (a file changed) is made again by the next request, from the reloaded catalogue.
      view.catch(() => this.#views.delete(key));
    }
    return view;
  }

  async #makeView(principal: Principal | undefined): Promise<View> {
    const entries: Array<Record<string, string>> = [];
    const artifacts = new Map<string, Artifact>();
    for (const { skill, name, description } of this.#candidates) {
      if (!mayUse(skill, principal)) continue;
      const files = this.#catalogue.filesFor(skill, principal);
      const artifact = files.length === 1 ? this.#skillMd(skill) : await this.#archive(skill, files);
      if (artifact === undefined) continue;
      const url = artifact.type === 'skill-md' ? `${name}/SKILL.md` : `${name}.tar.gz`;
      artifacts.set(url, artifact);
      entries.push({ name, type: artifact.type, description, url, digest: artifact.digest });
    }
    const index = encoder.encode(`${JSON.stringify({ $schema: DISCOVERY_SCHEMA, skills: entries }, null, 2)}\n`);
    return { index, digest: digestOf(index), artifacts };
  }

  /** A lone SKILL.md, served as read; its digest is the catalogue's. */
  #skillMd(skill: SkillRecord): Artifact {
    const record = skill.file;
    return { type: 'skill-md', digest: record.digest, bytes: async () => (await this.#read(record)).bytes };
  }

  async #archive(skill: SkillRecord, files: readonly SkillFileRecord[]): Promise<Artifact | undefined> {
    const key = files === skill.files ? skill.uri : `${skill.uri}\n${files.map((file) => file.uri).join('\n')}`;
    let made = this.#archives.get(key);
    if (made === undefined) {
      made = this.#firstPack(key, skill, files);
      this.#archives.set(key, made);
      made.catch(() => this.#archives.delete(key));
    }
    const info = await made;
    if (info === undefined) return undefined;
    return { type: 'archive', digest: info.digest, bytes: () => this.#bytesOf(info, skill, files) };
  }

  /** Makes an archive the first time: its digest kept, its bytes cached; undefined (a finding) when it cannot be made. */
  async #firstPack(key: string, skill: SkillRecord, files: readonly SkillFileRecord[]): Promise<ArchiveInfo | undefined> {
    let total = 0;
    for (const file of files) total += file.size;
    if (total > this.#limits.maxArchiveBytes) {
      this.#found(
        leftOut(skill, 'index_archive_too_large', `its files add up to ${total} bytes, more than the ${this.#limits.maxArchiveBytes} an archive may hold`),
      );
      return undefined;
    }
    const bytes = await this.#pack(skill, files);
    if (bytes === undefined) {
      this.#found(leftOut(skill, 'index_archive_path', 'a path inside it is too long for a tar header (100 bytes after a slash, 255 in all)'));
      return undefined;
    }
    this.#keep(key, bytes);
    return { key, digest: digestOf(bytes) };
  }

  /** The bytes of an archive made before: from the cache, or made again (the same bytes, or a file changed). */
  async #bytesOf(info: ArchiveInfo, skill: SkillRecord, files: readonly SkillFileRecord[]): Promise<Uint8Array> {
    const kept = this.#cache.get(info.key);
    if (kept !== undefined) {
      // Most recently served last: the first is the one evicted.
      this.#cache.delete(info.key);
      this.#cache.set(info.key, kept);
      return kept;
    }
    const bytes = await this.#pack(skill, files);
    if (bytes === undefined || digestOf(bytes) !== info.digest) throw new StaleCatalogueError(skill.file.rel);
    this.#keep(info.key, bytes);
    return bytes;
  }

  /** The archive of `files`: SKILL.md at the root under that name, every other file at its path in the skill. */
  async #pack(skill: SkillRecord, files: readonly SkillFileRecord[]): Promise<Uint8Array | undefined> {
    const parts: ArchiveFile[] = [];
    const skillMd = skill.file.uri;
    for (const file of files) {
      const read = await this.#read(file);
      parts.push({ path: file.uri === skillMd ? 'SKILL.md' : file.inSkill, bytes: read.bytes, executable: read.executable === true });
    }
    return packArchive(parts);
  }

  /** A file's bytes as the catalogue recorded them, read confined; stale when they differ or it is gone. */
  async #read(file: SkillFileRecord): Promise<{ bytes: Uint8Array; executable?: boolean }> {
    const entry = this.#catalogue.files.get(file.uri);
    if (entry === undefined) throw new StaleCatalogueError(file.rel);
    const read = await entry.fs.read(file.rel, file.size);
    if ('refused' in read || digestOf(read.bytes) !== file.digest) throw new StaleCatalogueError(file.rel);
    return read;
  }

  #keep(key: string, bytes: Uint8Array): void {
    if (bytes.length > this.#limits.maxCachedBytes || this.#cache.has(key)) return;
    this.#cache.set(key, bytes);
    this.#cachedBytes += bytes.length;
    for (const [oldest, kept] of this.#cache) {
      if (this.#cachedBytes <= this.#limits.maxCachedBytes) break;
      this.#cache.delete(oldest);
      this.#cachedBytes -= kept.length;
    }
  }
}

function leftOut(skill: SkillRecord, code: string, why: string): Issue {
  return { severity: 'warning', code, path: skill.file.rel, message: `"${skill.name}" is left out of the discovery index: ${why}` };
}
