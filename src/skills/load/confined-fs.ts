/**
 * File access confined to a served folder. Every path is resolved with
 * realpath and must stay inside the folder's own realpath, so `..`, absolute
 * paths and symbolic links that point outside are refused; only regular files
 * and directories are ever opened, so FIFOs and devices cannot block or leak.
 *
 * The system calls are synchronous: a skills folder is many small files, and
 * a synchronous read of one costs a few microseconds where a promise-based
 * one costs a thread-pool round trip per call (measured: 10,000 skills load
 * several times faster). Every {@link YIELD_EVERY} calls the work yields to the
 * event loop, so a reload never stalls requests for long.
 */
import { closeSync, constants, type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { FD_LINKS, type FileRead, isInside, openInside, type Refusal, readRegular, stampOf } from './open-inside.js';

export type { FileRead, Refusal } from './open-inside.js';

/** A directory entry as the walker reports it. */
export interface WalkEntry {
  /** Path relative to the root, with `/` separators. */
  rel: string;
  /** Real absolute path. */
  abs: string;
  kind: 'file' | 'directory';
  /** Bytes of a file reached through a symbolic link; 0 otherwise (sizes come from the read). */
  size: number;
}

/** System calls between two yields to the event loop. */
export const YIELD_EVERY = 256;
let calls = 0;

const strictNames = new TextDecoder('utf-8', { fatal: true });

/** How many entries of a folder have each name that is not valid UTF-8, by the name as Node decodes it. */
function undecodable(path: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of readdirSync(path, { encoding: 'buffer' })) {
    try {
      strictNames.decode(raw);
    } catch {
      const name = raw.toString('utf8');
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

/** Yields to the event loop once every {@link YIELD_EVERY} calls. */
function pace(): Promise<void> | undefined {
  return ++calls % YIELD_EVERY === 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}

/** Confined access to one folder. */
export interface ConfinedFs {
  /** The folder's real absolute path. */
  readonly root: string;
  /**
   * Lists entries below `relDir` (one level), skipping anything unsafe. Pass
   * `absDir` when the walker already resolved the directory, to save a round trip.
   */
  list(relDir: string, absDir?: string): Promise<{ entries: WalkEntry[]; refused: Array<{ rel: string; reason: Refusal }> }>;
  /** Reads a file the walker just listed (its path is already resolved and confined). */
  readListed(entry: WalkEntry, maxBytes?: number): Promise<FileRead | { refused: Refusal }>;
  /** Reads a regular file inside the root; a reason when refused (`too-large` when it has more than `maxBytes`). */
  read(rel: string, maxBytes?: number): Promise<FileRead | { refused: Refusal }>;
  /** {@link read} without the yield: for one file a request needs now. */
  readNow(rel: string): FileRead | { refused: Refusal };
  /**
   * The stamp of a file the catalogue read, in one `stat`, to tell whether it
   * may have changed since; undefined when it is gone. Equal to the stamp of
   * the read only if it is still the same file, unchanged (a link swapped in
   * anywhere on the path leads to another inode), so it decides when to read
   * again, never what to serve: that comes from a confined, digest-checked read.
   */
  stampNow(rel: string): string | undefined;
}

/** Where `rel` leads inside `root`, followed to its real path, or why it is refused. */
function resolveSafe(root: string, rel: string): { abs: string; kind: 'file' | 'directory'; size: number } | { refused: Refusal } {
  // A backslash is a separator only where the system says so; elsewhere it is part of a name.
  if (rel.includes('\0') || isAbsolute(rel) || (sep === '\\' && rel.includes('\\'))) return { refused: 'outside' };
  const joined = join(root, rel);
  if (!isInside(root, joined)) return { refused: 'outside' };
  let real: string;
  try {
    real = realpathSync(joined);
  } catch {
    return { refused: 'missing' };
  }
  if (!isInside(root, real)) return { refused: 'outside' };
  let info: ReturnType<typeof statSync> | undefined;
  try {
    info = statSync(real);
  } catch {
    info = undefined;
  }
  if (!info) return { refused: 'missing' };
  if (info.isFile()) return { abs: real, kind: 'file', size: info.size };
  if (info.isDirectory()) return { abs: real, kind: 'directory', size: 0 };
  return { refused: 'not-regular' };
}

function readNowInside(root: string, rel: string, maxBytes?: number): FileRead | { refused: Refusal } {
  const target = resolveSafe(root, rel);
  if ('refused' in target) return target;
  if (target.kind !== 'file') return { refused: 'not-regular' };
  return readRegular(root, target.abs, maxBytes);
}

type Listing = Awaited<ReturnType<ConfinedFs['list']>>;

/** {@link ConfinedFs.list} of the folder `root`. */
async function listInside(root: string, relDir: string, absDir: string | undefined): Promise<Listing> {
  let dirPath = absDir;
  if (dirPath === undefined) {
    const base = resolveSafe(root, relDir);
    if ('refused' in base || base.kind !== 'directory') {
      return { entries: [], refused: [{ rel: relDir, reason: 'refused' in base ? base.refused : 'not-regular' }] };
    }
    dirPath = base.abs;
  }
  await pace();
  // The folder is opened and proven inside, then listed through its descriptor
  // where the system allows it, so the listing is of the folder that was checked.
  const opened = openInside(root, dirPath, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  if ('refused' in opened) return { entries: [], refused: [{ rel: relDir, reason: opened.refused }] };
  let dirents: Dirent[];
  const listed = FD_LINKS !== undefined ? `${FD_LINKS}${opened.fd}` : opened.where;
  let badNames: Map<string, number> | undefined;
  try {
    dirents = readdirSync(listed, { withFileTypes: true });
    if (dirents.some((d) => d.name.includes('\uFFFD'))) badNames = undecodable(listed);
  } catch {
    dirents = [];
  } finally {
    closeSync(opened.fd);
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: WalkEntry[] = [];
  const refused: Array<{ rel: string; reason: Refusal }> = [];
  // The folder's real path, as opened; a name has no separator: joining needs no normalizing.
  const at = opened.where;
  const prefix = at.endsWith(sep) ? at : `${at}${sep}`;
  for (const dirent of dirents) {
    const name = dirent.name;
    const rel = relDir === '' ? name : `${relDir}/${name}`;
    // A name that is not UTF-8 reads back as its U+FFFD twin: it cannot be opened by
    // its listed name, and a real file of that name would be listed twice.
    const bad = badNames?.get(name);
    if (bad !== undefined && bad > 0) {
      badNames?.set(name, bad - 1);
      refused.push({ rel, reason: 'bad-name' });
      continue;
    }
    // The directory entry's own type: plain files and folders need no further system call.
    if (dirent.isFile()) entries.push({ rel, abs: prefix + name, kind: 'file', size: 0 });
    else if (dirent.isDirectory()) entries.push({ rel, abs: prefix + name, kind: 'directory', size: 0 });
    else if (dirent.isSymbolicLink()) {
      const target = resolveSafe(root, rel);
      if ('refused' in target) refused.push({ rel, reason: target.refused });
      else entries.push({ rel, abs: target.abs, kind: target.kind, size: target.size });
    } else refused.push({ rel, reason: 'not-regular' });
  }
  return { entries, refused };
}

/**
 * The real path of the folder `dir`; a missing one is said in a line a
 * person reads (the system's `ENOENT ... lstat` names a call, not a folder),
 * with the system error's code kept for code that tests it.
 */
function realFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    throw Object.assign(new Error(`No such skills folder: ${dir}`, { cause: error }), { code });
  }
}

/** Opens `dir` for confined access; throws when it is not a directory. */
export async function openConfined(dir: string): Promise<ConfinedFs> {
  const root = realFolder(dir);
  if (!statSync(root).isDirectory()) throw new Error(`Not a directory: ${dir}`);
  return {
    root,
    list: (relDir, absDir) => listInside(root, relDir, absDir),
    async readListed(entry, maxBytes) {
      await pace();
      return readRegular(root, entry.abs, maxBytes);
    },
    async read(rel, maxBytes) {
      await pace();
      return readNowInside(root, rel, maxBytes);
    },
    readNow: (rel) => readNowInside(root, rel),
    stampNow(rel) {
      try {
        const info = statSync(join(root, rel), { throwIfNoEntry: false });
        return info ? stampOf(info) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
