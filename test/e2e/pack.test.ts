/**
 * The published package: `npm pack` in a clean clone of the committed tree
 * (no dist/ there until the pack builds it) produces a tarball with the
 * licence and the documents the README links to, whose bin runs through
 * npx on a machine that has nothing but the tarball and the registry.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanClone } from '../_clean-clone.js';
import { links, readPage } from '../architecture/_docs.js';

const work = mkdtempSync(join(tmpdir(), 'skillport-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
}

describe('npm pack', () => {
  it('ships the built code, the bin, the licence and the bundled skills from a clean clone, and runs through npx from the tarball', () => {
    const clone = cleanClone(work);
    expect(existsSync(join(clone, 'dist')), 'a clean clone has no dist/').toBe(false);
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], clone)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed?.files.map((f) => f.path) ?? [];
    expect(files).toContain('bin/skillport.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('LICENSE');
    expect(files.some((f) => /^skills\/[^/]+\/SKILL\.md$/.test(f))).toBe(true);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.map'))).toBe(false);
    // The documents the README links to, so its links work in the installed package too.
    const linked = links(readPage('README.md'))
      .filter((target) => !/^[a-z][a-z0-9+.-]*:|^#/i.test(target))
      .map((target) => target.split('#')[0] ?? '');
    expect(linked.length).toBeGreaterThan(10);
    expect(linked.filter((path) => !files.includes(path))).toEqual([]);

    const tarball = join(work, packed?.filename ?? '');
    const empty = mkdtempSync(join(work, 'fresh-'));
    const run = (...args: string[]) => npm(['exec', '--yes', '--prefer-offline', `--package=${tarball}`, '--', 'skillport', ...args], empty);
    expect(run('--version').trim()).toMatch(/^\d+\.\d+\.\d+/);
    const listing = run('list');
    expect(listing).toMatch(/^\d+ prompts, \d+ skills, \d+ resources$/m);
    expect(run('check')).toMatch(/^OK: /m);
  }, 300_000);
});
