/**
 * The watcher of a served folder: its folder cap holds however many siblings
 * are walked at once, and it skips exactly what the scan skips.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type TreeWatcher, watchTree } from '../../../src/skills/load/watch-tree.js';

const temps: string[] = [];
const trees: TreeWatcher[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folders(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-watch-'));
  temps.push(dir);
  for (const name of names) mkdirSync(join(dir, name), { recursive: true });
  return dir;
}

describe('watchTree', () => {
  it('never watches more folders than its cap, with many siblings walked at once', async () => {
    const dir = folders(Array.from({ length: 300 }, (_, i) => `s${i}`));
    const tree = watchTree(
      [dir],
      () => {},
      () => {},
      { maxDepth: 12, maxFolders: 100 },
    );
    trees.push(tree);
    await tree.sync();
    expect(tree.size).toBe(100);
  });

  it('skips what the scan skips: version control, dependencies and hidden folders but the prompt ones', async () => {
    const dir = folders(['.git/objects', 'node_modules/x', '.hidden', '.claude/commands', '.github/prompts', '.cursor', 'skill/assets']);
    const tree = watchTree(
      [dir],
      () => {},
      () => {},
    );
    trees.push(tree);
    await tree.sync();
    // The root, .claude and its commands, .github and its prompts, .cursor, skill and its assets.
    expect(tree.size).toBe(8);
  });
});
