/**
 * An `archive` artifact of a discovery index, read: its format told by the
 * `Content-Type` the server sent, then by the URL's extension when the type is
 * absent or generic (Agent Skills Discovery RFC, "URL Resolution"), then by
 * its first bytes; its entries checked (archive-entry.ts).
 */
import { type ArchiveLimits, checkEntries } from './archive-entry.js';
import { readTarGz } from './tar.js';
import { readZip } from './zip.js';

export type ArchiveFormat = 'tar.gz' | 'zip';

/** The format of an archive, by its media type, its URL's path, then its magic bytes. */
export function archiveFormat(bytes: Uint8Array, contentType: string | undefined, url: URL): ArchiveFormat | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/zip' || type === 'application/x-zip-compressed') return 'zip';
  if (type === 'application/gzip' || type === 'application/x-gzip' || type === 'application/x-tar+gzip') return 'tar.gz';
  const path = url.pathname.toLowerCase();
  if (path.endsWith('.zip')) return 'zip';
  if (path.endsWith('.tar.gz') || path.endsWith('.tgz')) return 'tar.gz';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  return undefined;
}

/** The checked files of an archive, by path; throws an ArchiveError saying why it is refused. */
export function readArchive(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits): Map<string, Uint8Array> {
  return checkEntries(format === 'zip' ? readZip(bytes, limits) : readTarGz(bytes, limits), limits);
}
