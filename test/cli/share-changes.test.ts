/**
 * How `serve --redis` wires a folder to the change bus: a change of its own
 * is published once per reload, and a change another replica published
 * reloads the folder without being published again (no echo between
 * replicas). The bus here is a plain in-test object implementing our own
 * ChangeBus interface; the Redis one is exercised by test:cluster.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shareChanges } from '../../src/cli/commands/share-changes.js';
import type { CatalogueChange, ChangeBus } from '../../src/http.js';
import { silentLogger } from '../../src/index.js';
import { loadSkillsFolder } from '../../src/skills.js';
import { ROOT } from '../_stdio-client.js';

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
});
