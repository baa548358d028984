/**
 * The published package: `npm pack` in a clean clone of the committed tree
 * (no dist/ there until the pack builds it, at prepack) produces a tarball with
 * the licence and the documents the README links to, whose bin runs through
 * npx on a machine that has nothing but the tarball and the registry, and
 * whose install asks to approve no script (its package.json has no `prepare`,
 * which only a clone needs). The `engines` it declares is no lower than what
 * its runtime dependencies declare.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanClone } from '../_clean-clone.js';
import { ROOT } from '../_stdio-client.js';
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

    // The packed package.json: no prepare (npm would list it for approval), and the clone's own put back after the pack.
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(manifest.scripts.build).toBeDefined();
    expect(execFileSync('git', ['status', '--porcelain', '--ignored', '--', 'package.json', 'package.json.unpacked'], { cwd: clone, encoding: 'utf8' })).toBe(
      '',
    );
    expect(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).scripts.prepare).toBe('npm run build');
    const installed = mkdtempSync(join(work, 'install-'));
    npm(['init', '--yes'], installed);
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: installed,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts/);
  }, 300_000);

  it('declares a Node no older than its runtime dependencies need', () => {
    const floor = (range: string): number[] => {
      // The forms the lockfile's engines use: ">=20.19.0", ">= 18.19.0", ">=6".
      const found = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
      if (!found) throw new Error(`an engines range this test does not read: ${range}`);
      return [Number(found[1]), Number(found[2] ?? 0), Number(found[3] ?? 0)];
    };
    const older = (a: number[], b: number[]): boolean => {
      for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
      return false;
    };
    const own = floor(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; engines?: { node?: string } }>;
    };
    const needs: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // Runtime dependencies only: what a user of the package installs.
      if (path === '' || entry.dev === true || entry.engines?.node === undefined) continue;
      if (older(own, floor(entry.engines.node))) needs.push(`${path}: ${entry.engines.node}`);
    }
    expect(needs).toEqual([]);
    // entities (under markdown-it) declares >=20.19.0: the floor a lower engines would hide.
    expect(older([20, 18, 0], own)).toBe(true);
  });
});
