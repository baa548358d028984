/**
 * A reader of gzip-compressed tar archives, in memory and bounded: the gzip
 * stream is inflated with a cap on its output (a decompression bomb stops
 * there), then read as 512-byte headers (POSIX ustar, IEEE 1003.1-2001, with
 * its `prefix` field; pax extended headers `x` for a long `path`; GNU `L`
 * long names). Only regular files and folders are kept; any other kind of
 * entry (a symbolic or hard link, a device, a FIFO) refuses the whole
 * archive, as the Agent Skills Discovery RFC ("Archive Safety") asks of
 * links that could resolve outside the skill, and nothing of a skill needs them.
 */
import { gunzipSync } from 'node:zlib';
import { type ArchiveEntry, ArchiveError, type ArchiveLimits } from './archive-entry.js';

const BLOCK = 512;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A NUL-terminated field as text; refuses names that are not UTF-8. */
function text(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  try {
    return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
  } catch {
    throw new ArchiveError('an entry name is not UTF-8');
  }
}

/** An octal number field (spaces and NULs around it); base-256 sizes (over 8 GiB) are refused. */
function octal(bytes: Uint8Array): number {
  if (((bytes[0] as number) & 0x80) !== 0) throw new ArchiveError('an entry is larger than 8 GiB');
  const digits = text(bytes).trim();
  if (!/^[0-7]*$/.test(digits)) throw new ArchiveError('a header has a malformed number');
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

/** Whether the header's checksum (the sum of its bytes, the checksum field read as spaces) is right. */
function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] as number);
  return sum === octal(header.subarray(148, 156));
}

/** The `path` record of a pax extended header ("<length> <key>=<value>\n" records, POSIX pax). */
function paxPath(data: Uint8Array): string | undefined {
  let path: string | undefined;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space === -1 ? Number.NaN : Number(new TextDecoder().decode(data.subarray(at, space)));
    if (!Number.isSafeInteger(length) || length <= 0 || at + length > data.length) throw new ArchiveError('a pax header is malformed');
    const record = text(data.subarray(space + 1, at + length - 1));
    const equals = record.indexOf('=');
    if (record.slice(0, equals) === 'path') path = record.slice(equals + 1);
    at += length;
  }
  return path;
}

/** The entries of a `.tar.gz` archive, within `limits`; throws an {@link ArchiveError} for anything refused. */
export function readTarGz(archive: Uint8Array, limits: ArchiveLimits): ArchiveEntry[] {
  let tar: Uint8Array;
  try {
    // Headers and padding take at most 1.5 KiB per entry beyond the files' bytes.
    tar = gunzipSync(archive, { maxOutputLength: limits.maxBytes + (limits.maxEntries + 4) * 3 * BLOCK });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw new ArchiveError(`it unpacks to more than ${limits.maxBytes} bytes`);
    throw new ArchiveError(`not a gzip stream: ${(error as Error).message}`);
  }
  const entries: ArchiveEntry[] = [];
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw new ArchiveError('a tar header has a wrong checksum (not a tar archive?)');
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] as number);
    const start = at + BLOCK;
    if (start + size > tar.length) throw new ArchiveError('the archive ends inside an entry');
    const data = tar.subarray(start, start + size);
    at = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'L') {
      longName = type === 'L' ? text(data) : (paxPath(data) ?? longName);
      continue;
    }
    if (type === 'g' || type === 'K') continue;
    // POSIX ustar ("ustar\0" "00") has a name prefix at 345; GNU's "ustar  \0" keeps times there instead.
    const ustar = text(header.subarray(257, 262)) === 'ustar' && header[262] === 0;
    const prefix = ustar ? text(header.subarray(345, 500)) : '';
    const name = longName ?? (prefix === '' ? text(header.subarray(0, 100)) : `${prefix}/${text(header.subarray(0, 100))}`);
    longName = undefined;
    if (entries.length >= limits.maxEntries) throw new ArchiveError(`it has more than ${limits.maxEntries} entries`);
    if (type === '0' || type === '\0' || type === '7') entries.push({ path: name, kind: 'file', data });
    else if (type === '5') entries.push({ path: name, kind: 'directory' });
    else throw new ArchiveError(`${JSON.stringify(name)} is ${type === '1' ? 'a hard link' : type === '2' ? 'a symbolic link' : 'not a file or folder'}`);
  }
  return entries;
}
