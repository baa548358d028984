/**
 * One skill of a discovery index made a folder: its artifact downloaded
 * within the size cap, its SHA-256 compared with the index's digest before
 * anything else is done with the bytes (Agent Skills Discovery RFC,
 * "Integrity and Verification": unverified content MUST NOT be used), then a
 * `skill-md` written as the folder's SKILL.md, or an `archive` read in memory
 * and its checked files written (archive.ts, archive-entry.ts), into a folder
 * of its own under the source's cache folder.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { archiveFormat, readArchive } from './archive.js';
import { type ArchiveLimits, writeFiles } from './archive-entry.js';
import { type GetLimits, httpGet } from './http-get.js';
import type { IndexEntry } from './index-document.js';

/** A skill's folder, made from one verified artifact. */
export interface Artifact {
  /** The index's name of the skill. */
  readonly name: string;
  /** The artifact's SHA-256, 64 hex digits: the same digest, the same folder. */
  readonly sha256: string;
  /** The skill folder (`<cache>/<n>/<name>`). */
  readonly dir: string;
  /** The folder to remove when it is no longer served (`<cache>/<n>`). */
  readonly holder: string;
  /** Bytes of its files. */
  readonly bytes: number;
}

/** An artifact refused: the message says why, for the finding that names the skill. */
export class ArtifactError extends Error {
  override name = 'ArtifactError';
}

/** What fetching and unpacking one artifact may do. */
export interface ArtifactLimits {
  get: GetLimits;
  archive: ArchiveLimits;
}

/** Downloads, verifies and writes `entry` into a new folder `<parent>/<n>/<name>`. */
export async function fetchArtifact(entry: IndexEntry, parent: string, n: number, limits: ArtifactLimits): Promise<Artifact> {
  const got = await httpGet(entry.url, limits.get).catch((error: Error) => {
    throw new ArtifactError(error.message);
  });
  if (got.status !== 200) throw new ArtifactError('no artifact came back');
  const actual = createHash('sha256').update(got.bytes).digest('hex');
  if (actual !== entry.sha256)
    throw new ArtifactError(
      `its artifact's digest is sha256:${actual}, not the index's sha256:${entry.sha256} (tampered with, or changed since the index was written)`,
    );
  let files: Map<string, Uint8Array>;
  if (entry.type === 'skill-md') files = new Map([['SKILL.md', got.bytes]]);
  else {
    const format = archiveFormat(got.bytes, got.contentType, got.url);
    if (format === undefined) throw new ArtifactError('its archive is neither .tar.gz nor .zip (by Content-Type, extension and first bytes)');
    try {
      files = readArchive(got.bytes, format, limits.archive);
    } catch (error) {
      throw new ArtifactError(`its ${format} archive is refused: ${(error as Error).message}`);
    }
  }
  const holder = join(parent, String(n));
  await mkdir(holder, { mode: 0o700 });
  const dir = join(holder, entry.name);
  await writeFiles(dir, files).catch(async (error: Error) => {
    await rm(holder, { recursive: true, force: true });
    throw new ArtifactError(`its files cannot be written: ${error.message}`);
  });
  let bytes = 0;
  for (const data of files.values()) bytes += data.length;
  return { name: entry.name, sha256: entry.sha256, dir, holder, bytes };
}
