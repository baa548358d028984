/**
 * Folders swapped for symbolic links to the outside while the walker is busy
 * (issue: a `--watch` reload served an outside SKILL.md and an outside
 * folder's names, sizes and digests). The walker decides "directory" from the
 * parent's listing and later lists and reads by path; every directory it lists
 * and every file it reads must be proven inside the folder at that moment.
 * These cases make the swap land exactly between the walker's steps.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openConfined } from '../../src/skills/load/confined-fs.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { BIN, GUARD, sleep } from './_harness.js';

const MARKER = `OUTSIDE-${randomUUID()}`;
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A served folder with a skill `a` (and `a/assets/`), and an outside folder shaped like it. */
function layout(): { served: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'skillport-swap-'));
  temps.push(root);
  const served = join(root, 'served');
  const outside = join(root, 'outside');
  for (const base of [served, outside]) {
    mkdirSync(join(base, 'a', 'assets'), { recursive: true });
    const text = base === outside ? MARKER : 'inside';
    writeFileSync(join(base, 'a', 'SKILL.md'), `---\nname: a\ndescription: ${text}.\n---\n${text}\n`);
    writeFileSync(join(base, 'a', 'assets', 'data.txt'), `${text}\n`);
  }
  return { served, outside };
}

/** Replaces `path` (a folder) by a link to `target`, as an attacker with write access to the folder would. */
function swapForLink(path: string, target: string): void {
  renameSync(path, `${path}.old`);
  symlinkSync(target, path);
}

const text = (read: { bytes: Uint8Array } | { refused: string }) => ('bytes' in read ? Buffer.from(read.bytes).toString() : read.refused);

describe('a folder swapped for a link to the outside mid-walk', () => {
  it('is not listed when the swap comes after its parent was listed', async () => {
    const { served, outside } = layout();
    const fs = await openConfined(served);
    const top = await fs.list('');
    const a = top.entries.find((e) => e.rel === 'a');
    expect(a?.kind).toBe('directory');
    swapForLink(join(served, 'a'), join(outside, 'a'));
    const listing = await fs.list('a', a?.abs);
    expect(listing.entries).toEqual([]);
    expect(listing.refused).toEqual([{ rel: 'a', reason: 'outside' }]);
  });

  it('is not listed when a folder above it is swapped after the parent was listed', async () => {
    const { served, outside } = layout();
    const fs = await openConfined(served);
    const inA = await fs.list('a', (await fs.list('')).entries.find((e) => e.rel === 'a')?.abs);
    const assets = inA.entries.find((e) => e.rel === 'a/assets');
    swapForLink(join(served, 'a'), join(outside, 'a'));
    const listing = await fs.list('a/assets', assets?.abs);
    expect(listing.entries.map((e) => e.rel)).toEqual([]);
  });

  it('gives no bytes of a file listed inside whose folder is then swapped', async () => {
    const { served, outside } = layout();
    const fs = await openConfined(served);
    const inA = await fs.list('a', (await fs.list('')).entries.find((e) => e.rel === 'a')?.abs);
    const skillMd = inA.entries.find((e) => e.rel === 'a/SKILL.md');
    expect(skillMd).toBeDefined();
    swapForLink(join(served, 'a'), join(outside, 'a'));
    expect(text(await fs.readListed(skillMd!))).toBe('outside');
    expect(text(await fs.read('a/SKILL.md'))).toBe('outside');
    expect(text(fs.readNow('a/assets/data.txt'))).toBe('outside');
  });
});

describe('serve --watch while skill folders are swapped for links to the outside', () => {
  it('never serves a byte, a name or a digest from the outside folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'skillport-swap-serve-'));
    temps.push(root);
    const served = join(root, 'served');
    const outside = join(root, 'outside');
    // Many skills around the target, so a reload is busy with siblings when the swap lands.
    const filler = (i: number) => `s${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 2000; i++) {
      mkdirSync(join(served, filler(i)), { recursive: true });
      writeFileSync(join(served, filler(i), 'SKILL.md'), `---\nname: ${filler(i)}\ndescription: Filler.\n---\nFiller.\n`);
    }
    for (const base of [served, outside]) {
      const text = base === outside ? MARKER : 'inside';
      mkdirSync(join(base, 'm', 'assets'), { recursive: true });
      writeFileSync(join(base, 'm', 'SKILL.md'), `---\nname: m\ndescription: ${text}.\n---\n${text}\n`);
      writeFileSync(join(base, 'm', 'assets', `${text}.txt`), `${text}\n`);
    }
    const server = RawStdioClient.spawn(BIN, ['serve', served, '--watch', '--log-level', 'error']);
    const target = join(served, 'm');
    let id = 0;
    const ask = () =>
      Promise.all([
        server.request('prompts/list', modern(), ++id),
        server.request('prompts/get', modern({ name: 'm' }), ++id),
        server.request('skills/get', modern({ uri: 'skill://m/SKILL.md' }), ++id),
        server.request('resources/read', modern({ uri: 'skill://m/SKILL.md' }), ++id),
        server.request('resources/directory/read', modern({ uri: 'skill://m/assets' }), ++id),
      ]);
    try {
      await server.request('prompts/list', modern(), ++id, 15_000 * GUARD);
      // Bounded: 16 rounds. Each starts a reload (a sibling changes), swaps the folder
      // for a link at a different moment of that reload, asks while the reloads settle,
      // and puts the folder back.
      for (let round = 0; round < 16; round++) {
        writeFileSync(join(served, filler(round), 'SKILL.md'), `---\nname: ${filler(round)}\ndescription: Filler ${round}.\n---\nFiller.\n`);
        // The reload starts after the 100 ms debounce and walks for a while after that.
        await sleep(100 + ((round * 37) % 160));
        renameSync(target, `${target}.real`);
        symlinkSync(join(outside, 'm'), target);
        for (let burst = 0; burst < 6; burst++) {
          await ask();
          await sleep(40);
        }
        unlinkSync(target);
        renameSync(`${target}.real`, target);
        await sleep(150);
      }
    } finally {
      await server.close();
    }
    expect(server.received.length).toBe(id);
    expect(JSON.stringify(server.received)).not.toContain(MARKER);
    expect(server.garbage).toEqual([]);
  }, 120_000);
});
