/**
 * The archive writer (src/skills/publish/tar.ts) and the index's name and
 * description rules (entries.ts): the same bytes for the same files in any
 * order, headers the system tar reads (long paths split into ustar's
 * prefix), what cannot be written refused, and descriptions cut without
 * splitting a character.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { cutDescription, isSkillName, MAX_DESCRIPTION } from '../../../src/skills/publish/entries.js';
import { type ArchiveFile, packArchive, splitPath, tarOf } from '../../../src/skills/publish/tar.js';

const scratch = mkdtempSync(join(tmpdir(), 'skillport-tar-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const text = (path: string, content: string, executable = false): ArchiveFile => ({ path, bytes: new TextEncoder().encode(content), executable });

const FILES: ArchiveFile[] = [
  text('SKILL.md', '---\nname: x\ndescription: y\n---\n'),
  text('scripts/run.sh', '#!/bin/sh\necho hi\n', true),
  text('references/a/b/c.md', '# C\n'),
  { path: 'assets/zeros.bin', bytes: new Uint8Array(1025), executable: false },
  text('empty.txt', ''),
  text('références/é.md', 'accents\n'),
];

function unpack(gz: Uint8Array): string {
  const dir = mkdtempSync(join(scratch, 'out-'));
  writeFileSync(`${dir}.tar.gz`, gz);
  execFileSync('tar', ['-xzf', `${dir}.tar.gz`, '-C', dir]);
  return dir;
}

describe('packArchive', () => {
  it('gives the same bytes for the same files in any order', () => {
    const one = packArchive(FILES) as Uint8Array;
    const other = packArchive([...FILES].reverse()) as Uint8Array;
    expect(Buffer.from(one).equals(Buffer.from(other))).toBe(true);
    // gzip header: no name, mtime 0, the OS byte fixed to Unix.
    expect([...one.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  });

  it('writes what the system tar unpacks to the same files, sorted, with their modes, owner 0 and mtime 0', () => {
    const dir = unpack(packArchive(FILES) as Uint8Array);
    for (const file of FILES) expect(Buffer.from(readFileSync(join(dir, file.path))).equals(Buffer.from(file.bytes)), file.path).toBe(true);
    const listing = execFileSync('tar', ['-tvzf', `${dir}.tar.gz`], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const paths = listing.map((line) => line.split(' ').pop());
    expect(paths).toEqual([...FILES.map((file) => file.path)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const line of listing) {
      expect(line).toMatch(line.endsWith('run.sh') ? /^-rwxr-xr-x 0\/0 / : /^-rw-r--r-- 0\/0 /);
      expect(line).toContain('1970-01-01 00:00');
    }
  });

  it('has valid header checksums and ends with two zero blocks', () => {
    const tar = tarOf([text('a.txt', 'a')]) as Uint8Array;
    expect(tar.length).toBe(512 * 4);
    const header = tar.subarray(0, 512);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] as number);
    expect(Number.parseInt(new TextDecoder().decode(header.subarray(148, 154)), 8)).toBe(sum);
    expect(new TextDecoder().decode(header.subarray(257, 263))).toBe('ustar\0');
    expect(tar.subarray(1024).every((byte) => byte === 0)).toBe(true);
    expect(gunzipSync(packArchive([text('a.txt', 'a')]) as Uint8Array).equals(Buffer.from(tar))).toBe(true);
  });

  it('splits a path longer than 100 bytes into prefix and name, and refuses one that cannot be split', () => {
    const deep = `${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(60)}.md`;
    const dir = unpack(packArchive([text('SKILL.md', 's'), text(deep, 'deep')]) as Uint8Array);
    expect(readFileSync(join(dir, deep), 'utf8')).toBe('deep');
    const encode = (path: string) => new TextEncoder().encode(path);
    expect(splitPath(encode('n'.repeat(101)))).toBeUndefined();
    expect(splitPath(encode(`${'p'.repeat(156)}/name`))).toBeUndefined();
    expect(splitPath(encode(`p/${'n'.repeat(101)}`))).toBeUndefined();
    expect(packArchive([text('n'.repeat(101), 'x')])).toBeUndefined();
    const split = splitPath(encode(`${'p'.repeat(155)}/${'n'.repeat(100)}`));
    expect(split?.prefix.length).toBe(155);
    expect(split?.name.length).toBe(100);
  });
});

describe('index names and descriptions', () => {
  it('takes the Agent Skills names and no other', () => {
    for (const name of ['a', 'pdf-tools', 'x1-2-3', 'a'.repeat(64)]) expect(isSkillName(name), name).toBe(true);
    for (const name of ['', 'A', 'Bad_Name', '-a', 'a-', 'a--b', 'a'.repeat(65), 'é', 'a b', 'a.b']) expect(isSkillName(name), name).toBe(false);
  });

  it('cuts a description to 1,024 UTF-16 units with an ellipsis, never inside a surrogate pair', () => {
    expect(cutDescription('short')).toBe('short');
    const exact = 'x'.repeat(MAX_DESCRIPTION);
    expect(cutDescription(exact)).toBe(exact);
    const cut = cutDescription('y'.repeat(2000));
    expect(cut.length).toBe(MAX_DESCRIPTION);
    expect(cut.endsWith('…')).toBe(true);
    // A pair whose high half would be the last unit kept is dropped whole.
    const emoji = `${'z'.repeat(MAX_DESCRIPTION - 2)}🎉🎉🎉`;
    expect(cutDescription(emoji)).toBe(`${'z'.repeat(MAX_DESCRIPTION - 2)}…`);
  });
});
