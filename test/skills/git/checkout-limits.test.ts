/**
 * A checkout is measured before anything is written: a commit whose served
 * tree holds a file over `limits.maxFileBytes`, more than `limits.maxEntries`
 * entries or more than `maxCheckoutBytes` in all is refused, and the last good
 * commit stays served. A blob of zeros compresses to almost nothing, so a
 * small fetch could otherwise write any amount; the limits are set small here
 * to keep the files small.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { type GitSkillsFolder, type GitSkillsOptions, loadGitSkills } from '../../../src/skills.js';
import { type Content, createRepo, GIT, skillMd } from './_repo.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Repo = ReturnType<typeof createRepo>;

const SMALL: GitSkillsOptions = { limits: { maxDepth: 12, maxEntries: 20, maxFileBytes: 1000 }, maxCheckoutBytes: 4000 };
const zeros = (bytes: number) => '\0'.repeat(bytes);

function repo(files: Record<string, Content> = { 'alpha/SKILL.md': skillMd('alpha', 'Small.') }): Repo {
  const made = createRepo(files);
  cleanups.push(() => made.remove());
  return made;
}

/** A "git" that counts the checkouts it writes (read-tree), then runs git. */
function countingGit(r: Repo): { program: string; checkouts: () => number } {
  const seen = join(r.dir, 'read-trees');
  writeFileSync(seen, '');
  const program = join(r.dir, 'git-wrapper');
  writeFileSync(program, `#!/bin/sh\ncase " $* " in *" read-tree "*) echo x >> ${seen};; esac\nexec ${GIT} "$@"\n`, { mode: 0o755 });
  return { program, checkouts: () => readFileSync(seen, 'utf8').split('\n').filter(Boolean).length };
}

async function open(r: Repo, options: GitSkillsOptions, fragment = '#main'): Promise<GitSkillsFolder> {
  const folder = await loadGitSkills(`git+${r.url}${fragment}`, { cacheDir: r.cache, git: GIT, env: r.env, pullIntervalMs: 0, ...options });
  cleanups.push(() => folder.close());
  return folder;
}

/** Pushes `files`, and expects the sync to refuse the commit with `reason`, before any checkout, keeping the commit served. */
async function expectRefused(r: Repo, folder: GitSkillsFolder, checkouts: () => number, files: Record<string, Content>, reason: RegExp) {
  const served = folder.commit;
  const before = checkouts();
  const pushed = r.push(files);
  await expect(folder.sync()).rejects.toThrow(new RegExp(`commit ${pushed.slice(0, 12)} is not served: .*${reason.source}`));
  expect(checkouts()).toBe(before);
  expect(folder.commit).toBe(served);
  expect(readdirSync(join(folder.root, '..'))).toHaveLength(1);
  expect(await folder.prompts.get('alpha', {}, ctx)).toBeDefined();
  // The same commit is not measured again at the next fetch.
  await expect(folder.sync()).rejects.toThrow(reason);
  r.force(served);
}

describe('a git checkout', () => {
  it('is refused before anything is written when a file, the entries or the bytes pass the limits, and the last good commit stays', async () => {
    const r = repo();
    const git = countingGit(r);
    const folder = await open(r, { ...SMALL, git: git.program });
    expect(git.checkouts()).toBe(1);
    const four = Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`alpha/${n}.bin`, zeros(1001)]));
    await expectRefused(r, folder, git.checkouts, four, /"alpha\/a\.bin" has 1001 bytes, more than limits\.maxFileBytes \(1000\)/);
    const five = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((n) => [`alpha/${n}.bin`, zeros(900)]));
    await expectRefused(r, folder, git.checkouts, five, /more than maxCheckoutBytes \(4000\) in all/);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`alpha/many/${i}.md`, '']));
    await expectRefused(r, folder, git.checkouts, many, /more than limits\.maxEntries \(20\) entries/);

    // Within the limits: served.
    const fine = r.push({ 'alpha/a.bin': zeros(1000), 'alpha/b.bin': zeros(1000), 'beta/SKILL.md': skillMd('beta', 'Within the limits.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: fine });
    expect(git.checkouts()).toBe(2);
  });

  it('counts only the served subfolder, and writes nothing outside it', async () => {
    const r = repo({
      'skills/alpha/SKILL.md': skillMd('alpha', 'Served.'),
      'outside/a.bin': zeros(3000),
      'outside/b.bin': zeros(3000),
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`outside/many/${i}`, ''])),
    });
    const folder = await open(r, SMALL, '#main:skills');
    expect(folder.catalogue.prompts.map((p) => p.name)).toEqual(['alpha']);
    const checkout = join(folder.root, '..');
    expect(readdirSync(checkout)).toEqual(['skills']);
    const git = countingGit(r);
    const refused = await open(r, { ...SMALL, git: git.program }, '#main:outside').then(
      () => 'served',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/"outside\/a\.bin" has 3000 bytes, more than limits\.maxFileBytes/);
    expect(git.checkouts()).toBe(0);
  });

  it('refuses, with the default limits, a blob of zeros over 16 MiB under four paths (a fetch of kilobytes)', async () => {
    const r = repo();
    const folder = await open(r, {});
    const big = zeros(16 * 1024 * 1024 + 1);
    const pushed = r.push(Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`alpha/${n}.bin`, big])));
    await expect(folder.sync()).rejects.toThrow(`commit ${pushed.slice(0, 12)} is not served: "alpha/a.bin" has 16777217 bytes`);
    expect(folder.commit).toBe(r.first);
  });

  it('takes only sane limits', async () => {
    const r = repo();
    for (const maxCheckoutBytes of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
      await expect(open(r, { maxCheckoutBytes }), String(maxCheckoutBytes)).rejects.toThrow(/maxCheckoutBytes must be a positive whole number/);
    }
  });
});
