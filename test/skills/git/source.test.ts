/**
 * loadGitSkills against a real repository: a bare repository served by
 * file://, commits pushed to it from a clone, the real git program.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { type GitSkillsFolder, loadGitSkills } from '../../../src/skills.js';
import { createRepo, GIT, skillMd, type TestRepo } from './_repo.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A repository removed after the test. */
function repo(files: Parameters<typeof createRepo>[0]) {
  const made = createRepo(files);
  cleanups.push(() => made.remove());
  return made;
}

/** Warnings and errors the source logs. */
function recorder() {
  const lines: string[] = [];
  const logger = { ...silentLogger, warn: (message: string) => void lines.push(message), error: (message: string) => void lines.push(message) };
  return { lines, logger };
}

async function open(
  r: TestRepo & { env: Record<string, string> },
  fragment = '#main',
  options: Parameters<typeof loadGitSkills>[1] = {},
): Promise<GitSkillsFolder> {
  const folder = await loadGitSkills(`git+${r.url}${fragment}`, { cacheDir: r.cache, git: GIT, env: r.env, pullIntervalMs: 0, ...options });
  cleanups.push(() => folder.close());
  return folder;
}

const names = (folder: GitSkillsFolder) => folder.catalogue.prompts.map((p) => p.name).sort();

describe('loadGitSkills', () => {
  it('serves the skills of the ref, and a pushed commit after sync, with change events and onCommit', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'The first skill.') });
    const folder = await open(r);
    expect(folder.commit).toBe(r.first);
    expect(names(folder)).toEqual(['alpha']);
    expect(await folder.prompts.get('alpha', {}, ctx)).toMatchObject({ messages: [{ content: { text: expect.stringContaining('Body of alpha.') } }] });

    const events: string[] = [];
    folder.prompts.watch?.(() => void events.push('prompts'));
    folder.onCommit((commit) => void events.push(`commit ${commit}`));
    expect(await folder.sync()).toEqual({ changed: false, commit: r.first });
    expect(events).toEqual([]);

    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'The second skill.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: second });
    expect(folder.commit).toBe(second);
    expect(names(folder)).toEqual(['alpha', 'beta']);
    expect(events).toEqual(['prompts', `commit ${second}`]);
  });

  it('checks each commit out into its own folder and removes the ones no longer served', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'One.') });
    const folder = await open(r);
    const trees = join(folder.root, '..');
    const second = r.push({ 'alpha/SKILL.md': skillMd('alpha', 'Two.') });
    await folder.sync();
    // One folder per checkout, named by its order and commit; the tree just replaced stays for reads that began before the swap.
    expect(readdirSync(trees).sort()).toEqual([`1-${r.first}`, `2-${second}`]);
    const third = r.push({ 'alpha/SKILL.md': skillMd('alpha', 'Three.') });
    await folder.sync();
    expect(readdirSync(trees).sort()).toEqual([`2-${second}`, `3-${third}`]);
    // No .git inside a served tree: nothing of git's is ever under the served folder.
    expect(existsSync(join(folder.root, '.git'))).toBe(false);
    const instance = join(trees, '..');
    await folder.close();
    expect(existsSync(instance)).toBe(false);
  });

  it('keeps the last good catalogue when a commit breaks a skill, and serves the fix after', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.'), 'beta/SKILL.md': skillMd('beta', 'Good too.') });
    const { lines, logger } = recorder();
    const folder = await open(r, '#main', { logger });
    // beta loses its description: an error-level finding, and beta would vanish.
    const broken = r.push({ 'beta/SKILL.md': '---\nname: beta\n---\nNo description.\n' });
    await expect(folder.sync()).rejects.toThrow(`commit ${broken.slice(0, 12)} is not served`);
    expect(folder.commit).toBe(r.first);
    expect(names(folder)).toEqual(['alpha', 'beta']);
    expect(lines.join('\n')).toMatch(/still serving commit .*new error.*beta\/SKILL\.md/);
    // The same broken head again: refused again, without a second warning.
    await expect(folder.sync()).rejects.toThrow('is not served');
    expect(lines.filter((l) => l.includes('not served'))).toHaveLength(1);

    const fixed = r.push({ 'beta/SKILL.md': skillMd('beta', 'Fixed.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: fixed });
    expect(folder.catalogue.prompts.find((p) => p.name === 'beta')?.description).toBe('Fixed.');
  });

  it('serves a commit whose errors were already there', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.'), 'old/SKILL.md': '---\nname: old\n---\nNever had a description.\n' });
    const folder = await open(r);
    const next = r.push({ 'gamma/SKILL.md': skillMd('gamma', 'New.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: next });
    expect(names(folder)).toEqual(['alpha', 'gamma']);
  });

  it('keeps serving when the repository cannot be fetched, and catches up once it can', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const { lines, logger } = recorder();
    const folder = await open(r, '#main', { logger });
    r.move(true);
    await expect(folder.sync()).rejects.toThrow(/git fetch failed/);
    expect(lines.join('\n')).toMatch(/Fetching .* failed; still serving commit/);
    expect(names(folder)).toEqual(['alpha']);
    expect(await folder.prompts.get('alpha', {}, ctx)).toBeDefined();
    r.move(false);
    const next = r.push({ 'beta/SKILL.md': skillMd('beta', 'Back.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: next });
  });

  it('serves the subfolder after the ref, names shared references after it, and refuses a commit without it', async () => {
    const r = repo({
      'README.md': '# not a skill\n',
      'skills/alpha/SKILL.md': skillMd('alpha', 'In the subfolder.'),
      'skills/references/guide.md': '# Guide\n',
      'other/beta/SKILL.md': skillMd('beta', 'Outside the subfolder.'),
    });
    r.push({ 'skills/gamma/SKILL.md': skillMd('gamma', 'Only on the release branch.') }, 'release');
    const folder = await open(r, '#release:skills');
    expect(names(folder)).toEqual(['alpha', 'gamma', 'skills-references-guide']);
    expect(folder.root.endsWith('/skills')).toBe(true);
    const gone = r.push({ skills: null, 'skills2/alpha/SKILL.md': skillMd('alpha', 'Moved.') }, 'release');
    await expect(folder.sync()).rejects.toThrow(`commit ${gone.slice(0, 12)} is not served: the commit has no folder skills`);
    expect(names(folder)).toEqual(['alpha', 'gamma', 'skills-references-guide']);
  });

  it('does not serve a symbolic link that points outside the checkout', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Has links.'), 'alpha/notes.md': 'inside\n' });
    const secret = join(r.dir, 'secret.txt');
    writeFileSync(secret, 'outside the repository\n');
    r.push({ 'alpha/leak.txt': { link: secret }, 'alpha/leak-dir': { link: r.dir } });
    const folder = await open(r);
    const uris = folder.catalogue.resources.map((res) => res.uri);
    expect(uris).toContain('skill://alpha/notes.md');
    expect(uris.some((uri) => uri.includes('leak'))).toBe(false);
    await expect(folder.resources.read('skill://alpha/leak.txt', ctx)).rejects.toThrow();
  });

  it('refuses a subfolder that is a symbolic link', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.'), skills: { link: '/etc' } });
    await expect(open(r, '#main:skills')).rejects.toThrow(/skills is not a folder in the commit \(it is a symbolic link\)/);
  });

  it('fails to start, with a reason and no credentials, when the first fetch fails', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const attempt = loadGitSkills(`git+https://user:hunter2@127.0.0.1:1/${r.dir}/none.git#main`, {
      cacheDir: r.cache,
      git: GIT,
      env: r.env,
      pullIntervalMs: 0,
      gitTimeoutMs: 10_000,
    });
    const error = await attempt.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^cannot load https:\/\/\*\*\*@127\.0\.0\.1:1\/.*git fetch failed/);
    expect(error?.message).not.toContain('hunter2');
    // Nothing is left in the cache by a source that never started.
    expect(readdirSync(r.cache).flatMap((key) => readdirSync(join(r.cache, key)))).toEqual([]);
  });

  it('gives git the credentials of the URL in its environment, never on its command line', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const seen = join(r.dir, 'seen');
    // A "git" that writes down its arguments and the configuration entries of its environment, then runs git.
    const wrapper = join(r.dir, 'git-wrapper');
    writeFileSync(wrapper, `#!/bin/sh\necho "ARGS $*" >> ${seen}\nenv | grep '^GIT_CONFIG_' >> ${seen}\nexec ${GIT} "$@"\n`, { mode: 0o755 });
    const attempt = loadGitSkills('git+https://user:hunter2@127.0.0.1:1/team/skills.git#main', {
      cacheDir: r.cache,
      git: wrapper,
      env: { ...r.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'kept' },
      pullIntervalMs: 0,
    });
    await expect(attempt).rejects.toThrow(/git fetch failed/);
    const lines = readFileSync(seen, 'utf8').split('\n');
    const fetch = lines.filter((line) => line.startsWith('ARGS') && line.includes(' fetch '));
    expect(fetch).toHaveLength(1);
    expect(fetch[0]).toContain(' https://127.0.0.1:1/team/skills.git main');
    // Neither on a command line nor in a configuration entry (git copies those to its children's command lines).
    expect(lines.join('\n')).not.toContain('hunter2');
    // The user's own entry stays; after it, the operator's helpers for the origin are cleared and the environment's helper added.
    expect(lines).toContain('GIT_CONFIG_COUNT=3');
    expect(lines).toContain('GIT_CONFIG_KEY_0=user.name');
    expect(lines).toContain('GIT_CONFIG_KEY_1=credential.https://127.0.0.1:1.helper');
    expect(lines).toContain('GIT_CONFIG_VALUE_1=');
    expect(lines).toContain('GIT_CONFIG_KEY_2=credential.https://127.0.0.1:1.helper');
  });

  it('refuses ext:: even when the user configuration rewrites a URL to it', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const marker = join(r.dir, 'ext-ran');
    // A user configuration that allows ext:: (git's own default refuses it) and rewrites an https URL into a command.
    writeFileSync(
      join(r.env.HOME as string, '.gitconfig'),
      `[protocol "ext"]\n\tallow = always\n[url "ext::sh -c touch% ${marker}% >&2"]\n\tinsteadOf = https://rewritten.invalid/\n`,
    );
    const attempt = loadGitSkills('git+https://rewritten.invalid/repo.git', { cacheDir: r.cache, git: GIT, env: r.env, pullIntervalMs: 0 });
    await expect(attempt).rejects.toThrow(/transport 'ext' not allowed/);
    expect(existsSync(marker)).toBe(false);
  });

  it('coalesces syncs called while one runs into one more', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const folder = await open(r);
    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'New.') });
    const [a, b, c] = [folder.sync(), folder.sync(), folder.sync()];
    // The second and third share the one fetch after the first.
    expect(b).toBe(c);
    expect(await a).toEqual({ changed: true, commit: second });
    expect(await b).toEqual({ changed: false, commit: second });
  });

  it('fetches on its own every pullIntervalMs', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const folder = await open(r, '#main', { pullIntervalMs: 50 });
    const seen: string[] = [];
    folder.onCommit((commit) => void seen.push(commit));
    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'New.') });
    for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([second]);
    expect(names(folder)).toEqual(['alpha', 'beta']);
  });
});

describe('loadGitSkills on this host', () => {
  it('kills a git that does not finish within gitTimeoutMs, with its children, and leaves nothing behind', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const slow = join(r.dir, 'slow-git');
    const child = join(r.dir, 'child.pid');
    // A "git" whose helper waits forever, as ssh does on a host that never answers.
    writeFileSync(slow, `#!/bin/sh\nsleep 600 &\necho $! > ${child}\nwait\n`, { mode: 0o755 });
    const attempt = loadGitSkills(`git+${r.url}#main`, { cacheDir: r.cache, git: slow, env: r.env, pullIntervalMs: 0, gitTimeoutMs: 300 });
    await expect(attempt).rejects.toThrow(/git init failed: timed out after 300 ms/);
    const pid = Number(readFileSync(child, 'utf8'));
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      gone = !isRunning(pid);
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(gone).toBe(true);
    expect(readdirSync(r.cache).flatMap((key) => readdirSync(join(r.cache, key)))).toEqual([]);
  });

  it('removes the folder of a source whose process died, and keeps a live one', async () => {
    const r = repo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    const live = await open(r);
    const parent = join(live.root, '..', '..', '..');
    const dead = spawnSync('/bin/true').pid;
    mkdirSync(join(parent, 'dead-one', 'trees'), { recursive: true });
    writeFileSync(join(parent, 'dead-one', 'owner'), `${hostname()}\n${dead}\n`);
    const other = await open(r);
    const left = readdirSync(parent).sort();
    expect(left).not.toContain('dead-one');
    expect(left).toHaveLength(2);
    expect(names(live)).toEqual(names(other));
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
