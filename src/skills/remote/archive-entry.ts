/**
 * What an archive reader (tar.ts, zip.ts) hands on, and how it is checked
 * and written: every path relative, made of plain segments (no `..`, no
 * `.` but a leading `./`, no absolute path, no backslash or NUL), no path
 * twice, SKILL.md at the root (Agent Skills Discovery RFC, "Archive
 * Structure" and "Archive Safety"), and the files written into a folder made
 * for them alone, with exclusive creation, so nothing an archive holds can
 * reach outside it or write through a link.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry of an archive: a regular file with its bytes, or a folder. */
export type ArchiveEntry = { path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'directory' };

/** What one archive may hold. */
export interface ArchiveLimits {
  /** Bytes of all its files, unpacked. */
  maxBytes: number;
  /** Bytes of its largest file. */
  maxFileBytes: number;
  /** Entries, files and folders. */
  maxEntries: number;
}

/** An archive refused: the message says why, naming the entry. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

/** `path` as plain segments ('' for the root itself); throws for a path that could name anything outside. */
export function safePath(path: string): string {
  const shown = JSON.stringify(path);
  if (path.includes('\\') || path.includes('\0')) throw new ArchiveError(`${shown} has a backslash or NUL in its path`);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw new ArchiveError(`${shown} is an absolute path`);
  const segments = path.split('/');
  // A tar made with `tar -C dir .` names everything under "./"; a folder's name ends in "/".
  while (segments[0] === '.') segments.shift();
  if (segments.at(-1) === '') segments.pop();
  for (const segment of segments) {
    if (segment === '..') throw new ArchiveError(`${shown} has a ".." segment`);
    if (segment === '' || segment === '.') throw new ArchiveError(`${shown} has an empty or "." segment`);
  }
  return segments.join('/');
}

/** Checks `entries` against `limits` and the rules above; returns the files by their checked path. */
export function checkEntries(entries: readonly ArchiveEntry[], limits: ArchiveLimits): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const folders = new Set<string>();
  let bytes = 0;
  for (const entry of entries) {
    const path = safePath(entry.path);
    if (entry.kind === 'directory') {
      folders.add(path);
      continue;
    }
    if (path === '' || files.has(path) || folders.has(path)) throw new ArchiveError(`${JSON.stringify(entry.path)} is named twice, or names a folder`);
    if (entry.data.length > limits.maxFileBytes) throw new ArchiveError(`${JSON.stringify(path)} has more than ${limits.maxFileBytes} bytes`);
    bytes += entry.data.length;
    if (bytes > limits.maxBytes) throw new ArchiveError(`it unpacks to more than ${limits.maxBytes} bytes`);
    files.set(path, entry.data);
  }
  for (const path of files.keys()) {
    // A file "a" and a file "a/b": one of them cannot be written.
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      if (files.has(path.slice(0, at))) throw new ArchiveError(`${JSON.stringify(path)} lies inside a file`);
    }
  }
  if (!files.has('SKILL.md')) throw new ArchiveError('it has no SKILL.md at its root (a skill archive holds the skill folder itself, not a folder around it)');
  return files;
}

/** Writes checked `files` into `dir`, a new folder that must not exist yet. */
export async function writeFiles(dir: string, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  await mkdir(dir, { mode: 0o700 });
  for (const [path, data] of files) {
    const segments = path.split('/');
    if (segments.length > 1) await mkdir(join(dir, ...segments.slice(0, -1)), { recursive: true, mode: 0o700 });
    // `wx`: created here, never opened through something that was already there.
    await writeFile(join(dir, ...segments), data, { flag: 'wx', mode: 0o600 });
  }
}
