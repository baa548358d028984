/**
 * The archive readers against archives made by python3's tarfile and
 * zipfile (hostile ones included): traversal, absolute paths, links,
 * devices, decompression bombs, headers that lie, long names; and through
 * loadIndexSkills, that a refused archive is a finding and writes nothing.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveFormat, readArchive } from '../../../src/skills/remote/archive.js';
import { ArchiveError } from '../../../src/skills/remote/archive-entry.js';
import { loadIndexSkills } from '../../../src/skills.js';
import { skillMd } from '../git/_repo.js';
import { publish, python, sha256, tarGz } from './_publisher.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LIMITS = { maxBytes: 1024 * 1024, maxFileBytes: 512 * 1024, maxEntries: 100 };
const SKILL = skillMd('demo', 'A demo skill.');

/**
 * A .tar.gz of `entries`, each [name, kind, content or link target], made by
 * python3's tarfile in `format` (gnu, pax or ustar).
 */
function tar(entries: Array<[string, 'file' | 'symlink' | 'hardlink' | 'device' | 'dir', string?]>, format = 'pax'): Uint8Array {
  const script = `import sys, io, json, tarfile
formats = {'gnu': tarfile.GNU_FORMAT, 'pax': tarfile.PAX_FORMAT, 'ustar': tarfile.USTAR_FORMAT}
kinds = {'file': tarfile.REGTYPE, 'symlink': tarfile.SYMTYPE, 'hardlink': tarfile.LNKTYPE, 'device': tarfile.CHRTYPE, 'dir': tarfile.DIRTYPE}
with tarfile.open(sys.argv[1], 'w:gz', format=formats[sys.argv[2]]) as t:
    for name, kind, content in json.loads(sys.stdin.read()):
        info = tarfile.TarInfo(name)
        info.type = kinds[kind]
        data = (content or '').encode()
        if kind == 'file':
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        else:
            info.linkname = content or ''
            t.addfile(info)`;
  return python(script, JSON.stringify(entries.map(([n, k, c]) => [n, k, c ?? null])), format);
}

/** A .zip of `entries` [name, content, unix mode or 0], made by python3's zipfile; `lie` rewrites every declared size to that many bytes. */
function zipOf(entries: Array<[string, string, number?]>, lie?: number): Uint8Array {
  const script = `import sys, json, zipfile, struct
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, content, mode in json.loads(sys.stdin.read()):
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        if mode:
            info.create_system = 3
            info.external_attr = mode << 16
        z.writestr(info, content)
lie = int(sys.argv[2])
if lie >= 0:
    data = bytearray(open(sys.argv[1], 'rb').read())
    at = data.find(b'PK\\x01\\x02')
    while at != -1:
        struct.pack_into('<I', data, at + 24, lie)
        at = data.find(b'PK\\x01\\x02', at + 4)
    open(sys.argv[1], 'wb').write(bytes(data))`;
  return python(script, JSON.stringify(entries.map(([n, c, m]) => [n, c, m ?? 0])), String(lie ?? -1));
}

const read = (bytes: Uint8Array, format: 'tar.gz' | 'zip') => () => readArchive(bytes, format, LIMITS);

describe('readArchive', () => {
  it('reads tar (system tar, GNU and pax long names, ustar) and zip archives', () => {
    const long = `${'deep/'.repeat(30)}file.md`;
    for (const format of ['gnu', 'pax', 'ustar']) {
      const name = format === 'ustar' ? `${'d/'.repeat(60)}f.md` : long;
      const files = readArchive(
        tar(
          [
            ['SKILL.md', 'file', SKILL],
            [name, 'file', 'x'],
          ],
          format,
        ),
        'tar.gz',
        LIMITS,
      );
      expect([...files.keys()]).toEqual(['SKILL.md', name]);
    }
    const system = readArchive(tarGz({ 'SKILL.md': SKILL, 'a/b.md': 'b' }), 'tar.gz', LIMITS);
    expect(Object.fromEntries([...system].map(([k, v]) => [k, Buffer.from(v).toString()]))).toEqual({ 'SKILL.md': SKILL, 'a/b.md': 'b' });
    const zipped = readArchive(
      zipOf([
        ['SKILL.md', SKILL],
        ['dir/', ''],
        ['dir/x.md', 'x'],
      ]),
      'zip',
      LIMITS,
    );
    expect([...zipped.keys()]).toEqual(['SKILL.md', 'dir/x.md']);
  });

  it('refuses traversal, absolute paths, links and devices', () => {
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['../evil', 'file', 'x'],
        ]),
        'tar.gz',
      ),
    ).toThrow('"../evil" has a ".." segment');
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['a/../../evil', 'file', 'x'],
        ]),
        'tar.gz',
      ),
    ).toThrow('has a ".." segment');
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['/etc/evil', 'file', 'x'],
        ]),
        'tar.gz',
      ),
    ).toThrow('"/etc/evil" is an absolute path');
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['link', 'symlink', '/etc/passwd'],
        ]),
        'tar.gz',
      ),
    ).toThrow('"link" is a symbolic link');
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['hard', 'hardlink', 'SKILL.md'],
        ]),
        'tar.gz',
      ),
    ).toThrow('"hard" is a hard link');
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['dev', 'device'],
        ]),
        'tar.gz',
      ),
    ).toThrow('"dev" is not a file or folder');
    expect(
      read(
        zipOf([
          ['SKILL.md', SKILL],
          ['../evil', 'x'],
        ]),
        'zip',
      ),
    ).toThrow('has a ".." segment');
    expect(
      read(
        zipOf([
          ['SKILL.md', SKILL],
          ['/abs', 'x'],
        ]),
        'zip',
      ),
    ).toThrow('is an absolute path');
    expect(
      read(
        zipOf([
          ['SKILL.md', SKILL],
          ['link', '/etc/passwd', 0o120777],
        ]),
        'zip',
      ),
    ).toThrow('"link" is a symbolic link');
    expect(
      read(
        zipOf([
          ['SKILL.md', SKILL],
          ['a\\..\\evil', 'x'],
        ]),
        'zip',
      ),
    ).toThrow('backslash');
  });

  it('refuses decompression bombs and headers that lie about sizes', () => {
    const zeros = '\u0000'.repeat(4 * 1024 * 1024);
    expect(
      read(
        tar([
          ['SKILL.md', 'file', SKILL],
          ['zeros', 'file', zeros],
        ]),
        'tar.gz',
      ),
    ).toThrow(`it unpacks to more than ${LIMITS.maxBytes} bytes`);
    expect(
      read(
        zipOf([
          ['SKILL.md', SKILL],
          ['zeros', zeros],
        ]),
        'zip',
      ),
    ).toThrow('"zeros" unpacks to more than the bytes allowed');
    // Declared as 100 bytes, inflating to 4 MiB: stopped at 100.
    expect(read(zipOf([['zeros', zeros]], 100), 'zip')).toThrow('"zeros" unpacks to more bytes than its header says');
    const many = Array.from({ length: 101 }, (_, i): [string, 'file', string] => [`f${i}`, 'file', 'x']);
    expect(read(tar(many), 'tar.gz')).toThrow('more than 100 entries');
  });

  it('needs SKILL.md at the root, and tells formats by type, extension and bytes', () => {
    expect(read(tarGz({ 'wrapped/SKILL.md': SKILL }), 'tar.gz')).toThrow('no SKILL.md at its root');
    expect(read(new TextEncoder().encode('not an archive'), 'zip')).toThrow('not a zip archive');
    expect(read(new TextEncoder().encode('not an archive'), 'tar.gz')).toThrow('not a gzip stream');
    const url = new URL('https://example.com/skill');
    expect(archiveFormat(new Uint8Array([0x50, 0x4b]), undefined, url)).toBe('zip');
    expect(archiveFormat(new Uint8Array([0x1f, 0x8b]), 'application/octet-stream', url)).toBe('tar.gz');
    expect(archiveFormat(new Uint8Array([0x1f, 0x8b]), 'application/zip', url)).toBe('zip');
    expect(archiveFormat(new Uint8Array([0]), undefined, new URL('https://example.com/s.tgz'))).toBe('tar.gz');
  });
});

describe('an index with hostile archives', () => {
  it('refuses each with a finding naming the skill, writes nothing outside the cache, serves the good one', async () => {
    const p = await publish();
    cleanups.push(() => p.close());
    const parent = mkdtempSync(join(tmpdir(), 'skillport-hostile-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const cacheDir = join(parent, 'cache');
    const archives: Record<string, Uint8Array> = {
      climb: tar([
        ['SKILL.md', 'file', skillMd('climb', 'x')],
        ['../../../../escaped', 'file', 'x'],
      ]),
      link: tar([
        ['SKILL.md', 'file', skillMd('link', 'x')],
        ['out', 'symlink', parent],
      ]),
      bomb: zipOf([
        ['SKILL.md', skillMd('bomb', 'x')],
        ['zeros', '\u0000'.repeat(2 * 1024 * 1024)],
      ]),
      good: tarGz({ 'SKILL.md': skillMd('good', 'A good skill.'), 'notes.md': 'n' }),
    };
    for (const [name, body] of Object.entries(archives)) p.files.set(`/a/${name}`, { body, type: 'application/octet-stream' });
    p.index(Object.entries(archives).map(([name, body]) => ({ name, type: 'archive', description: name, url: `/a/${name}`, digest: sha256(body) })));
    const folder = await loadIndexSkills(p.origin, { cacheDir, pullIntervalMs: 0, maxCheckoutBytes: 1024 * 1024 });
    cleanups.push(() => folder.close());
    expect(folder.catalogue.prompts.map((x) => x.name)).toEqual(['good']);
    const messages = folder.catalogue.issues.map((i) => i.message);
    expect(messages).toEqual([
      expect.stringMatching(/^The skill "climb" is not served: its tar.gz archive is refused: .* has a "\.\." segment/),
      expect.stringMatching(/^The skill "link" is not served: its tar.gz archive is refused: "out" is a symbolic link/),
      expect.stringMatching(/^The skill "bomb" is not served: its zip archive is refused: "zeros" unpacks to more than/),
    ]);
    expect(readdirSync(parent)).toEqual(['cache']);
    expect(existsSync(join(tmpdir(), 'escaped'))).toBe(false);
  });
});

describe('readArchive on corrupted archives', () => {
  it('answers every corruption with an ArchiveError, never another throw or a hang', () => {
    // A small deterministic generator (xorshift32): the same corruptions on every run.
    let seed = 0x2545f491;
    const random = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const tarred = tarGz({ 'SKILL.md': SKILL, 'a/b.md': 'b'.repeat(700) });
    const zipped = zipOf([
      ['SKILL.md', SKILL],
      ['a/b.md', 'b'.repeat(700)],
    ]);
    // The gzip layer checks its CRC, so the tar layer is reached through gzip of corrupted tar bytes too.
    const rawTar = gunzipSync(tarred);
    const cases: Array<[Uint8Array, 'tar.gz' | 'zip', boolean]> = [
      [tarred, 'tar.gz', false],
      [zipped, 'zip', false],
      [rawTar, 'tar.gz', true],
    ];
    let refused = 0;
    for (const [original, format, regzip] of cases) {
      for (let round = 0; round < 200; round++) {
        const bytes = Uint8Array.from(original);
        for (let flips = 1 + random(8); flips > 0; flips--) bytes[random(bytes.length)] = random(256);
        const cut = random(4) === 0 ? bytes.subarray(0, random(bytes.length)) : bytes;
        try {
          readArchive(regzip ? gzipSync(cut) : cut, format, LIMITS);
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveError);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
