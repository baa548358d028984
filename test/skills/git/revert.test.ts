/**
 * A branch that moves back: a force-push to a commit served before (A, B,
 * then A again), and a branch deleted and pushed again. A commit seen before
 * is served like any other, every read works after the swap, and nothing is
 * logged but what happened.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { type GitSkillsFolder, loadGitSkills } from '../../../src/skills.js';
import { createRepo, GIT, skillMd } from './_repo.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Repo = ReturnType<typeof createRepo>;

function repo(): Repo {
  const made = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Version A.'), 'alpha/notes.md': 'notes of A\n' });
  cleanups.push(() => made.remove());
  return made;
}

/** Every line the source logs at warn or error, and at info. */
function recorder() {
  const problems: string[] = [];
  const infos: string[] = [];
  const logger = {
    ...silentLogger,
    info: (message: string) => void infos.push(message),
    warn: (message: string) => void problems.push(message),
    error: (message: string, error?: unknown) => void problems.push(`${message} ${String(error)}`),
  };
  return { problems, infos, logger };
}

async function open(r: Repo, logger = silentLogger, ref = 'main'): Promise<GitSkillsFolder> {
  const folder = await loadGitSkills(`git+${r.url}#${ref}`, { cacheDir: r.cache, git: GIT, env: r.env, pullIntervalMs: 0, logger });
  cleanups.push(() => folder.close());
  return folder;
}

/** What a client reads: the prompt's text and a resource's text. */
async function reads(folder: GitSkillsFolder): Promise<{ prompt: string; notes: string }> {
  const prompt = await folder.prompts.get('alpha', {}, ctx);
  const content = prompt.messages[0]?.content;
  const read = await folder.resources.read('skill://alpha/notes.md', ctx);
  return {
    prompt: content?.type === 'text' ? content.text : '',
    notes: 'text' in (read.contents[0] ?? {}) ? String((read.contents[0] as { text: string }).text) : '',
  };
}

describe('a git source whose branch moves back', () => {
  it('serves a commit seen before again, after a force-push revert (A, B, A, B)', async () => {
    const r = repo();
    const { problems, logger } = recorder();
    const folder = await open(r, logger);
    const a = r.first;
    const b = r.push({ 'alpha/SKILL.md': skillMd('alpha', 'Version B.'), 'alpha/notes.md': 'notes of B\n' });
    expect(await folder.sync()).toEqual({ changed: true, commit: b });

    r.force(a);
    expect(await folder.sync()).toEqual({ changed: true, commit: a });
    expect(await reads(folder)).toEqual({ prompt: expect.stringContaining('Version A.'), notes: 'notes of A\n' });
    expect(folder.catalogue.prompts.map((p) => p.description)).toEqual(['Version A.']);

    r.force(b);
    expect(await folder.sync()).toEqual({ changed: true, commit: b });
    expect(await reads(folder)).toEqual({ prompt: expect.stringContaining('Version B.'), notes: 'notes of B\n' });
    expect(problems).toEqual([]);
    // The served checkout and the one before it: nothing else is kept.
    expect(readdirSync(join(folder.root, '..'))).toHaveLength(2);
  });

  it('keeps the last good commit while its branch is deleted, says so once, and serves the branch when it is back', async () => {
    const r = repo();
    // The remote's HEAD branch cannot be deleted: another one.
    const release = r.push({ 'alpha/notes.md': 'notes of the release\n' }, 'release');
    const { problems, infos, logger } = recorder();
    const folder = await open(r, logger, 'release');
    r.deleteBranch('release');
    await expect(folder.sync()).rejects.toThrow(/release/);
    await expect(folder.sync()).rejects.toThrow(/release/);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`still serving commit ${release.slice(0, 12)}: .*no branch, tag or commit release`));
    expect(await reads(folder)).toEqual({ prompt: expect.stringContaining('Version A.'), notes: 'notes of the release\n' });

    // Pushed again at the commit served: nothing changes, and serving goes on without a word.
    r.force(release, 'release');
    expect(await folder.sync()).toEqual({ changed: false, commit: release });
    const back = r.push({ 'beta/SKILL.md': skillMd('beta', 'After the branch came back.') }, 'release');
    expect(await folder.sync()).toEqual({ changed: true, commit: back });
    expect(problems).toHaveLength(1);
    expect(infos.at(-1)).toContain(`at commit ${back.slice(0, 12)}`);
  });
});
