/**
 * A skill's files as a deterministic `.tar.gz` (Agent Skills Discovery v0.2.0
 * §Archive Distribution: the files at the archive root, no wrapper folder, no
 * `..`, no absolute path, no link). Written by hand because every byte must
 * be the same on every replica for one commit, or the index's digest would
 * differ between them: POSIX ustar headers (POSIX.1-1988 as pax(1) §ustar
 * Interchange Format describes them) with mtime 0, uid and gid 0, no owner
 * names, mode 0644 or 0755, paths sorted by their bytes, then gzip (RFC 1952)
 * at a fixed level with the header's mtime 0 and its OS byte fixed.
 */
import { gzipSync } from 'node:zlib';
import { concatBytes } from '../../util/bytes.js';

/** One file of an archive: its path inside the skill (`/`-separated) and bytes. */
export interface ArchiveFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly executable: boolean;
}

const BLOCK = 512;
const encoder = new TextEncoder();
/** The gzip level: fixed, since another level gives other bytes. */
const LEVEL = 9;
/** RFC 1952 §2.3.1 OS field: 3 is Unix, written whatever system compressed it. */
const OS_UNIX = 3;

/** `value` in octal, zero-padded to `width` digits and a NUL, as a ustar numeric field. */
function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width, '0')}\0`;
}

/**
 * Splits a path into ustar's `prefix` (155 bytes) and `name` (100 bytes) at a
 * slash; undefined when it cannot be split so (then the skill has no archive).
 */
export function splitPath(path: Uint8Array): { prefix: Uint8Array; name: Uint8Array } | undefined {
  if (path.length <= 100) return { prefix: new Uint8Array(), name: path };
  const slash = 0x2f;
  for (let at = Math.min(path.length - 2, 155); at > 0; at--) {
    if (path[at] !== slash) continue;
    if (path.length - at - 1 > 100) return undefined;
    return { prefix: path.subarray(0, at), name: path.subarray(at + 1) };
  }
  return undefined;
}

/** The 512-byte ustar header of one regular file. */
function header(where: { prefix: Uint8Array; name: Uint8Array }, size: number, executable: boolean): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, text: string): void => block.set(encoder.encode(text), offset);
  block.set(where.name, 0);
  put(100, octal(executable ? 0o755 : 0o644, 7));
  put(108, octal(0, 7));
  put(116, octal(0, 7));
  put(124, octal(size, 11));
  put(136, octal(0, 11));
  // The checksum is summed with its own field as eight spaces.
  put(148, '        ');
  put(156, '0');
  put(257, 'ustar\0');
  put(263, '00');
  block.set(where.prefix, 345);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** Paths compared by their UTF-8 bytes, so the order is one on every system and locale. */
function byBytes(a: { key: Uint8Array }, b: { key: Uint8Array }): number {
  const length = Math.min(a.key.length, b.key.length);
  for (let i = 0; i < length; i++) if (a.key[i] !== b.key[i]) return (a.key[i] as number) - (b.key[i] as number);
  return a.key.length - b.key.length;
}

/** The uncompressed tar of `files`; undefined when a path does not fit a ustar header. */
export function tarOf(files: readonly ArchiveFile[]): Uint8Array | undefined {
  const sorted = files.map((file) => ({ file, key: encoder.encode(file.path) })).sort(byBytes);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const { file, key } of sorted) {
    const where = splitPath(key);
    if (where === undefined) return undefined;
    const padded = Math.ceil(file.bytes.length / BLOCK) * BLOCK;
    parts.push(header(where, file.bytes.length, file.executable), file.bytes, new Uint8Array(padded - file.bytes.length));
    total += BLOCK + padded;
  }
  // Two zero blocks end the archive.
  parts.push(new Uint8Array(2 * BLOCK));
  total += 2 * BLOCK;
  return concatBytes(parts, total);
}

/** `files` as the bytes of a `.tar.gz`, the same for the same files everywhere; undefined as {@link tarOf}. */
export function packArchive(files: readonly ArchiveFile[]): Uint8Array | undefined {
  const tar = tarOf(files);
  if (tar === undefined) return undefined;
  const gz = new Uint8Array(gzipSync(tar, { level: LEVEL }));
  gz[9] = OS_UNIX;
  return gz;
}
