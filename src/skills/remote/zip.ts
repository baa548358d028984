/**
 * A reader of zip archives (PKWARE APPNOTE 6.3), in memory and bounded: the
 * central directory at the end names each entry, its local header gives
 * where its data starts, and each file is inflated (`inflateRawSync`) with its
 * output capped at what the directory declares and at what is left of the
 * archive's budget, so a decompression bomb stops at the cap whatever its
 * headers claim. Stored and deflated entries only; encrypted entries,
 * ZIP64 and entries whose Unix mode says link or device are refused.
 */
import { inflateRawSync } from 'node:zlib';
import { type ArchiveEntry, ArchiveError, type ArchiveLimits } from './archive-entry.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of at most 65535. */
const END_SEARCH = 22 + 0xffff;
const decoder = new TextDecoder('utf-8', { fatal: true });

function name(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    // Names in the legacy code page (flag bit 11 unset) that are not ASCII: no URI could name them anyway.
    throw new ArchiveError('an entry name is not UTF-8');
  }
}

/** Where the end-of-central-directory record starts. */
function endRecord(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - END_SEARCH); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw new ArchiveError('not a zip archive (no end of central directory)');
}

/** The bytes of one file entry: stored as is, or inflated within `cap` bytes. */
function content(raw: Uint8Array, method: number, size: number, cap: number, shown: string): Uint8Array {
  if (size > cap) throw new ArchiveError(`${shown} unpacks to more than the bytes allowed`);
  let data: Uint8Array;
  if (method === 0) data = raw;
  else if (method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ArchiveError(
        code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError ? `${shown} unpacks to more bytes than its header says` : `${shown} cannot be inflated`,
      );
    }
  } else throw new ArchiveError(`${shown} uses compression method ${method}; only stored and deflated entries are read`);
  if (data.length !== size) throw new ArchiveError(`${shown} unpacks to ${data.length} bytes, not the ${size} its header says`);
  return data;
}

/** The entries of a zip archive, within `limits`; throws an {@link ArchiveError} for anything refused. */
export function readZip(archive: Uint8Array, limits: ArchiveLimits): ArchiveEntry[] {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  if (archive.length < 22) throw new ArchiveError('not a zip archive (too short)');
  const end = endRecord(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ArchiveError('ZIP64 archives are not read');
  if (count > limits.maxEntries) throw new ArchiveError(`it has more than ${limits.maxEntries} entries`);
  const entries: ArchiveEntry[] = [];
  let budget = limits.maxBytes;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new ArchiveError('the central directory is malformed');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const [nameLength, extraLength, commentLength] = [view.getUint16(at + 28, true), view.getUint16(at + 30, true), view.getUint16(at + 32, true)];
    // The external attributes hold a Unix mode only when the archive was made on Unix (host 3 in "version made by").
    const mode = view.getUint16(at + 4, true) >> 8 === 3 ? view.getUint32(at + 38, true) >>> 16 : 0;
    const local = view.getUint32(at + 42, true);
    const path = name(archive.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    const shown = JSON.stringify(path);
    if ((flags & 1) !== 0) throw new ArchiveError(`${shown} is encrypted`);
    if (packed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) throw new ArchiveError('ZIP64 archives are not read');
    const type = mode & 0o170000;
    // The Unix mode (when the archiver wrote one): links and devices are not files.
    if (type !== 0 && type !== 0o100000 && type !== 0o040000)
      throw new ArchiveError(`${shown} is ${type === 0o120000 ? 'a symbolic link' : 'not a file or folder'}`);
    if (path.endsWith('/') || type === 0o040000) {
      entries.push({ path, kind: 'directory' });
      continue;
    }
    if (local + 30 > archive.length || view.getUint32(local, true) !== LOCAL_HEADER) throw new ArchiveError(`${shown} has no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + packed > archive.length) throw new ArchiveError(`${shown} lies past the end of the archive`);
    const data = content(archive.subarray(start, start + packed), method, size, budget, shown);
    budget -= data.length;
    entries.push({ path, kind: 'file', data });
  }
  return entries;
}
