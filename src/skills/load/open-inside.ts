/**
 * Opening a file or folder of a served folder so that what is used is proven
 * inside it at the moment of use: no link followed at the last step, no
 * blocking open (a FIFO), and the descriptor's real location checked against
 * the folder. The walker lists a folder and reads its files later, by path; a
 * folder on the way swapped for a link to the outside in between is caught
 * here.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** Why a path was refused (`too-large`: only when a read names a size cap). */
export type Refusal = 'outside' | 'not-regular' | 'missing' | 'bad-name' | 'too-large';

/** Whether `candidate` is `root` or lies below it (both real paths). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * What identifies one version of a file without reading it: device, inode,
 * size and change times. A file rewritten in place, replaced or swapped for a
 * link gets another stamp; one that did not change keeps it.
 */
export function stampOf(info: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  // join, not a template: the catalogue keeps a stamp per skill, and a template
  // makes a tree of nine small strings where join makes one.
  return [info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs].join(':');
}

/** The bytes of a file and its {@link stampOf stamp} when they were read. */
export interface FileRead {
  bytes: Uint8Array;
  stamp: string;
  /** Whether the owner may execute it (a skill's scripts): what an install or archive keeps of the mode. */
  executable?: boolean;
}

/**
 * Where an open file or directory really is. On Linux the descriptor's own
 * link in /proc names the inode that was opened, whatever happened to the
 * path since. Elsewhere the path's real path, accepted only while it still
 * leads to the inode that was opened. Undefined when neither can tell.
 */
export const FD_LINKS = existsSync('/proc/self/fd') ? '/proc/self/fd/' : undefined;

function whereIs(fd: number, path: string): string | undefined {
  try {
    if (FD_LINKS !== undefined) return readlinkSync(`${FD_LINKS}${fd}`);
    const real = realpathSync(path);
    const opened = fstatSync(fd);
    const there = statSync(real);
    return opened.ino === there.ino && opened.dev === there.dev ? real : undefined;
  } catch {
    return undefined;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Opens `path` without following a link at the last step and proves that what
 * was opened lies inside `root`. A folder on the way swapped for a link to
 * the outside after the walker listed it (the path now leads out) is caught
 * here, at the moment of use, not at listing time.
 */
export function openInside(root: string, path: string, flags: number): { fd: number; where: string } | { refused: Refusal } {
  let fd: number;
  try {
    fd = openSync(path, flags | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link where the walker saw a file or folder: not followed now (O_NOFOLLOW gives
    // ELOOP, or ENOTDIR with O_DIRECTORY); the next listing sees it as a link and decides.
    if (code === 'ELOOP' || (code === 'ENOTDIR' && isLink(path))) return { refused: 'outside' };
    return { refused: code === 'ENOTDIR' ? 'not-regular' : 'missing' };
  }
  const where = whereIs(fd, path);
  if (where === undefined || !isInside(root, where)) {
    closeSync(fd);
    return { refused: 'outside' };
  }
  return { fd, where };
}

/**
 * Reads a regular file inside `root`: opened without blocking and without
 * following a link at the last step, then checked: a file swapped for a FIFO,
 * a device or a symbolic link between the check and the read is refused, never
 * waited on (opening a FIFO for reading blocks until a writer comes, and holds
 * a thread meanwhile).
 */
export function readRegular(root: string, path: string, maxBytes = Number.POSITIVE_INFINITY): FileRead | { refused: Refusal } {
  const opened = openInside(root, path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  if ('refused' in opened) return opened;
  const { fd } = opened;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { refused: 'not-regular' };
    // Refused on the size of the file opened, not the one catalogued: a file
    // that grew since is not read whole just to find out.
    if (info.size > maxBytes) return { refused: 'too-large' };
    // One read of the size fstat reported (what readFileSync does after a
    // second fstat of its own); a file that reports no size is read to its end.
    const stamp = stampOf(info);
    const executable = (info.mode & 0o100) !== 0;
    if (info.size === 0) {
      const bytes = readFileSync(fd);
      return bytes.length > maxBytes ? { refused: 'too-large' } : { bytes, stamp, executable };
    }
    const bytes = Buffer.allocUnsafe(info.size);
    let length = 0;
    for (let n = -1; n !== 0 && length < bytes.length; length += n) n = readSync(fd, bytes, length, bytes.length - length, null);
    return { bytes: bytes.subarray(0, length), stamp, executable };
  } catch {
    return { refused: 'missing' };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}
