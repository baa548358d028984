/**
 * Faults while serving: skill files deleted, truncated, made unreadable and
 * replaced by a FIFO in the middle of live reloads, and a file swapped for a
 * FIFO between the folder walk and the read. The server must keep serving a
 * whole catalogue (the last good one, or the new one), never hang, and exit 0.
 *
 * Tests run as root in CI, where chmod 000 does not stop a read: there the
 * "unreadable" fault replaces the file with a directory of the same name
 * instead (and RELIABILITY.md says so).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, constants, cpSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfined } from '../../src/skills/load/confined-fs.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modernMeta } from '../_wire.js';
import { BIN, type Message, sleep, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const figures = new Figures();
const ROOT_USER = process.getuid?.() === 0;
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-faults-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  writeSection(
    'faults',
    `### Faults\n\n${ROOT_USER ? 'Run as root: "unreadable" is a directory put in place of the file (chmod 000 does not stop root).' : 'Run as an ordinary user: "unreadable" is chmod 000.'}\n\n${figures.table()}`,
  );
});

function withGuard<T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)))]).finally(() => clearTimeout(timer));
}

describe('faults', () => {
  it('a file swapped for a FIFO between the walk and the read is refused, not waited on', async () => {
    const dir = join(root, 'fifo-swap');
    mkdirSync(join(dir, 's'), { recursive: true });
    writeFileSync(join(dir, 's', 'notes.md'), 'notes\n');
    const fs = await openConfined(dir);
    const { entries } = await fs.list('s');
    const entry = entries.find((e) => e.rel === 's/notes.md');
    expect(entry).toBeDefined();
    unlinkSync(join(dir, 's', 'notes.md'));
    expect(spawnSync('mkfifo', [join(dir, 's', 'notes.md')]).status).toBe(0);
    // Opening a FIFO for reading blocks until a writer comes: the read must not.
    try {
      const outcome = await withGuard(fs.readListed(entry!), 5000);
      expect(outcome).toEqual({ refused: 'not-regular' });
      const direct = await withGuard(fs.read('s/notes.md'), 5000);
      expect(direct).toEqual({ refused: 'not-regular' });
    } finally {
      // Release a reader stuck on the FIFO (only before the fix), so the worker can exit.
      try {
        closeSync(openSync(join(dir, 's', 'notes.md'), constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader was waiting.
      }
    }
    figures.add('File replaced by a FIFO between listing and reading', 'refused, no wait');
  });

  it('serve --watch keeps serving a whole catalogue through deletions, truncation, unreadable files and FIFOs mid-reload', async () => {
    const dir = join(root, 'watched');
    cpSync(VALID_SKILLS, dir, { recursive: true });
    const client = RawStdioClient.spawn(BIN, ['serve', dir, '--watch', '--log-level', 'info']);
    let n = 0;
    const list = async (): Promise<string[]> => {
      const reply = await client.request('prompts/list', {}, `l-${++n}`);
      expect(reply.error, JSON.stringify(reply)).toBeUndefined();
      return (reply.result.prompts as Message[]).map((p) => p.name as string).sort();
    };
    /** Polls until the listing satisfies `test`; every listing seen on the way must be non-empty. */
    const until = async (test: (names: string[]) => boolean, what: string): Promise<string[]> => {
      for (let i = 0; i < 200; i++) {
        const names = await list();
        expect(names.length, 'an empty catalogue was served').toBeGreaterThan(0);
        if (test(names)) return names;
        await sleep(50);
      }
      throw new Error(`Hang guard: ${what} never showed; stderr: ${client.stderr.slice(-2000)}`);
    };
    try {
      await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'f', version: '1' } }, 'init');
      client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const initial = await list();
      expect(initial).toContain('greeting');

      // Deleted mid-reload: a burst of changes, then the file goes.
      writeFileSync(join(dir, 'localized', 'SKILL.md'), '---\nname: localized\ndescription: Changing.\n---\nv2\n');
      rmSync(join(dir, 'localized', 'SKILL.md'));
      rmSync(join(dir, 'localized', 'SKILL.fr.md'));
      await until((names) => !names.includes('localized'), 'the deletion');
      figures.add('SKILL.md deleted during a reload burst', 'skill dropped, the rest served');

      // Truncated to nothing: the skill is reported and skipped.
      writeFileSync(join(dir, 'unicode-skill', 'SKILL.md'), '');
      await until((names) => !names.includes('unicode-skill') && names.includes('greeting'), 'the truncation');
      figures.add('SKILL.md truncated to 0 bytes', 'skill skipped with a logged issue, the rest served');

      // Unreadable.
      const target = join(dir, 'pdf-tools', 'SKILL.md');
      if (ROOT_USER) {
        rmSync(target);
        mkdirSync(target);
      } else chmodSync(target, 0o000);
      await until((names) => !names.includes('pdf-tools'), 'the unreadable file');
      figures.add(
        ROOT_USER ? 'SKILL.md replaced by a directory (root: chmod 000 would not stop reads)' : 'SKILL.md chmod 000',
        'skill skipped, the rest served',
      );

      // A FIFO where a file was, and a FIFO as a new file: the reload must finish.
      rmSync(join(dir, 'greeting', 'SKILL.md'));
      expect(spawnSync('mkfifo', [join(dir, 'greeting', 'SKILL.md')]).status).toBe(0);
      expect(spawnSync('mkfifo', [join(dir, 'references', 'pipe.md')]).status).toBe(0);
      await until((names) => !names.includes('greeting'), 'the FIFO reload');
      // A later change still reloads: nothing is stuck behind the FIFO.
      mkdirSync(join(dir, 'fresh'));
      writeFileSync(join(dir, 'fresh', 'SKILL.md'), '---\nname: fresh\ndescription: Added after the faults.\n---\nFresh.\n');
      const final = await until((names) => names.includes('fresh'), 'the reload after the FIFO');
      expect(final).toContain('summarize');
      figures.add('SKILL.md replaced by a FIFO, and a FIFO added under references/', 'reload finishes; later reloads still happen');
      expect(client.received.filter((m) => m.method === 'notifications/prompts/list_changed').length).toBeGreaterThan(0);
    } finally {
      if (!ROOT_USER) chmodSync(join(dir, 'pdf-tools', 'SKILL.md'), 0o644);
    }
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect(client.garbage).toEqual([]);
  }, 90_000);
});

describe('live reload under a continuous stream of changes', () => {
  it('reloads while changes keep coming faster than the debounce, not only once they stop', async () => {
    const { loadSkillsFolder } = await import('../../src/skills.js');
    const dir = join(root, 'stream');
    mkdirSync(join(dir, 'busy'), { recursive: true });
    writeFileSync(join(dir, 'busy', 'SKILL.md'), '---\nname: busy\ndescription: Version 0.\n---\nBody.\n');
    const folder = await loadSkillsFolder([dir], { watch: true, debounceMs: 100 });
    try {
      // An edit every 20 ms for 3 s: a plain debounce would wait for a quiet 100 ms that never comes.
      const changedWhileEditing = await new Promise<boolean>((resolve) => {
        let n = 0;
        const editor = setInterval(() => {
          writeFileSync(join(dir, 'busy', 'SKILL.md'), `---\nname: busy\ndescription: Version ${++n}.\n---\nBody.\n`);
          if (n >= 150) {
            clearInterval(editor);
            resolve(folder.catalogue.prompts[0]?.description !== 'Version 0.');
          }
        }, 20);
      });
      expect(changedWhileEditing, 'no reload happened during 3 s of continuous edits').toBe(true);
      figures.add('Continuous edits faster than the debounce (every 20 ms for 3 s)', 'reloads still happen (at most 10 debounce periods apart)');
    } finally {
      folder.close();
    }
  });

  it('sees every atomic save (write a temporary file, rename it over the old one), not only the first', async () => {
    const { loadSkillsFolder } = await import('../../src/skills.js');
    const dir = join(root, 'atomic');
    mkdirSync(join(dir, 'saved'), { recursive: true });
    const file = join(dir, 'saved', 'SKILL.md');
    writeFileSync(file, '---\nname: saved\ndescription: Version 0.\n---\nBody.\n');
    const folder = await loadSkillsFolder([dir], { watch: true, debounceMs: 20 });
    try {
      for (let version = 1; version <= 4; version++) {
        // How editors save: a new inode takes the old name.
        writeFileSync(`${file}.tmp`, `---\nname: saved\ndescription: Version ${version}.\n---\nBody.\n`);
        renameSync(`${file}.tmp`, file);
        let seen = false;
        for (let i = 0; i < 100 && !seen; i++) {
          await sleep(50);
          seen = folder.catalogue.prompts[0]?.description === `Version ${version}.`;
        }
        expect(seen, `save ${version} was not picked up`).toBe(true);
      }
      // A folder replaced by a new one, then edited.
      rmSync(join(dir, 'saved'), { recursive: true });
      mkdirSync(join(dir, 'saved'));
      writeFileSync(file, '---\nname: saved\ndescription: Recreated.\n---\nBody.\n');
      await sleep(300);
      writeFileSync(file, '---\nname: saved\ndescription: Edited after.\n---\nBody.\n');
      let seen = false;
      for (let i = 0; i < 100 && !seen; i++) {
        await sleep(50);
        seen = folder.catalogue.prompts[0]?.description === 'Edited after.';
      }
      expect(seen, 'an edit in a re-created folder was not picked up').toBe(true);
      figures.add('Atomic saves (rename over) x4, then a folder deleted, re-created and edited', 'every change reloaded');
    } finally {
      folder.close();
    }
  });
});

describe('stdio shutdown under load', () => {
  it('on SIGTERM answers every request already received and exits 0', async () => {
    const client = RawStdioClient.spawn(BIN, ['serve', VALID_SKILLS, '--log-level', 'warn']);
    await client.request('server/discover', { _meta: modernMeta() }, 'ready');
    const meta = modernMeta();
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ jsonrpc: '2.0', id: i, method: 'prompts/get', params: { name: 'greeting', arguments: { who: `w${i}` }, _meta: meta } }),
    );
    const burst = lines.join('\n');
    // One write under the pipe's 64 KiB: the server reads every line in one chunk, and dispatches
    // them all before the first answer can come back.
    expect(Buffer.byteLength(burst)).toBeLessThan(60_000);
    client.write(burst);
    await client.waitFor((m) => m.id === 0);
    client.child.kill('SIGTERM');
    const exit = await client.exited;
    const answered = new Set(client.received.filter((m) => typeof m.id === 'number' && m.result).map((m) => m.id));
    expect(exit).toEqual({ code: 0, signal: null });
    expect(answered.size).toBe(200);
    figures.add('stdio: SIGTERM with 200 requests received', 'all 200 answered, exit 0');
  });
});
