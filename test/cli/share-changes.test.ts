/**
 * How `serve --redis` wires a folder to the change bus: a change of its own
 * is published once per reload, and a change another replica published
 * reloads the folder without being published again (no echo between
 * replicas). For a git source (a real bare repository over file://), the
 * message carries the commit: a replica fetches at once, stays quiet when it
 * then serves the announced commit, and publishes a newer one its fetch found. The bus here is a plain in-test object implementing our own
 * ChangeBus interface; the Redis one is exercised by test:cluster.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shareChanges } from '../../src/cli/commands/share-changes.js';
import type { CatalogueChange, ChangeBus } from '../../src/http.js';
import { silentLogger } from '../../src/index.js';
import { loadGitSkills, loadSkillsFolder } from '../../src/skills.js';
import { ROOT } from '../_stdio-client.js';
import { createRepo, GIT, skillMd } from '../skills/git/_repo.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function recordingBus(): { bus: ChangeBus; published: CatalogueChange[]; deliver(change: CatalogueChange): void } {
  const published: CatalogueChange[] = [];
  const listeners = new Set<(change: CatalogueChange) => void>();
  return {
    published,
    deliver: (change) => {
      for (const listener of listeners) listener(change);
    },
    bus: {
      publish: async (change) => {
        published.push(change);
      },
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

async function folderCopy() {
  const dir = await mkdtemp(join(tmpdir(), 'skillport-share-'));
  cpSync(`${ROOT}test/fixtures/skills/valid`, dir, { recursive: true });
  const folder = await loadSkillsFolder([dir]);
  cleanups.push(
    () => rm(dir, { recursive: true, force: true }),
    () => folder.close(),
  );
  return { dir, folder };
}

const addSkill = (dir: string, name: string) => {
  cpSync(join(dir, 'greeting'), join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Added by the test.\n---\nBody.\n`);
};

describe('shareChanges', () => {
  it('publishes one message for a reload of its own that changed the catalogue, none for one that did not', async () => {
    const { dir, folder } = await folderCopy();
    const { bus, published } = recordingBus();
    cleanups.push(shareChanges(folder, bus, silentLogger));
    expect(await folder.reload()).toBe(true);
    await Promise.resolve();
    expect(published).toEqual([]);
    addSkill(dir, 'added-here');
    await folder.reload();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(published).toEqual([{}]);
  });

  it('reloads on another replica’s change without publishing it again', async () => {
    const { dir, folder } = await folderCopy();
    const { bus, published, deliver } = recordingBus();
    cleanups.push(shareChanges(folder, bus, silentLogger));
    addSkill(dir, 'added-elsewhere');
    deliver({ revision: 'abc123' });
    const deadline = Date.now() + 10_000;
    while (!folder.catalogue.prompts.some((p) => p.name === 'added-elsewhere')) {
      if (Date.now() > deadline) throw new Error('the folder was not reloaded');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(published).toEqual([]);
  });

  describe('with a git source', () => {
    async function gitReplica() {
      const repo = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'The first skill.') });
      cleanups.push(() => repo.remove());
      const folder = await loadGitSkills(`git+${repo.url}#main`, { cacheDir: repo.cache, git: GIT, env: repo.env, pullIntervalMs: 0, logger: silentLogger });
      cleanups.push(() => folder.close());
      // Counted before shareChanges sees it: each fetch the bus asks for is one call.
      let syncs = 0;
      const sync = folder.sync;
      folder.sync = () => {
        syncs++;
        return sync();
      };
      const recording = recordingBus();
      cleanups.push(shareChanges(folder, recording.bus, silentLogger));
      const serves = async (commit: string) => {
        const deadline = Date.now() + 20_000;
        while (folder.commit !== commit) {
          if (Date.now() > deadline) throw new Error(`commit ${commit} was not served`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // The publish, if any, is queued after the swap's events.
        await new Promise((resolve) => setTimeout(resolve, 0));
      };
      return { repo, folder, serves, syncs: () => syncs, ...recording };
    }

    it('publishes the commit its own fetch found, once', async () => {
      const { repo, folder, serves, published } = await gitReplica();
      const second = repo.push({ 'beta/SKILL.md': skillMd('beta', 'Added.') });
      await folder.sync();
      await serves(second);
      expect(published).toEqual([{ revision: second }]);
    });

    it('fetches at once on a commit another replica announced and does not announce it again', async () => {
      const { repo, folder, serves, published, deliver, syncs } = await gitReplica();
      const second = repo.push({ 'beta/SKILL.md': skillMd('beta', 'Added.') });
      deliver({ revision: second });
      await serves(second);
      expect(folder.catalogue.prompts.map((p) => p.name)).toContain('beta');
      // The same announcement again (a replica that fetched it too) fetches nothing and says nothing.
      deliver({ revision: second });
      // Judged after a later announcement, fetched and served: whatever the repeat set off came before it.
      const third = repo.push({ 'gamma/SKILL.md': skillMd('gamma', 'Added later.') });
      deliver({ revision: third });
      await serves(third);
      expect(syncs()).toBe(2);
      expect(published).toEqual([]);
    });

    it('publishes a newer commit than the one announced when its fetch finds one', async () => {
      const { repo, serves, published, deliver } = await gitReplica();
      const second = repo.push({ 'beta/SKILL.md': skillMd('beta', 'Added.') });
      // Pushed after the other replica fetched `second`: only this replica's fetch sees it.
      const third = repo.push({ 'gamma/SKILL.md': skillMd('gamma', 'Added later.') });
      deliver({ revision: second });
      await serves(third);
      // Without it, the replica that announced `second` would serve it until its own poll.
      expect(published).toEqual([{ revision: third }]);
    });

    it('publishes a return to a commit it once heard of (a branch reset), as news', async () => {
      const { repo, folder, serves, published, deliver } = await gitReplica();
      const second = repo.push({ 'beta/SKILL.md': skillMd('beta', 'Added.') });
      deliver({ revision: second });
      await serves(second);
      const third = repo.push({ 'gamma/SKILL.md': skillMd('gamma', 'Added later.') });
      await folder.sync();
      await serves(third);
      // main is forced back to `second`: the other replicas serve `third` and must hear of it.
      const git = (...args: string[]) => execFileSync(GIT, args, { cwd: join(repo.dir, 'work'), env: repo.env, stdio: 'ignore', timeout: 20_000 });
      git('reset', '--quiet', '--hard', second);
      git('push', '--quiet', '--force', join(repo.dir, 'remote.git'), 'HEAD:refs/heads/main');
      await folder.sync();
      await serves(second);
      expect(published).toEqual([{ revision: third }, { revision: second }]);
    });
  });
});
