/**
 * Watches every folder of a tree with one non-recursive watcher each, for
 * live reload.
 *
 * Why not `fs.watch(dir, { recursive: true })`: on Linux, Node 20 emulates
 * it with one watcher per file inode, so once a file is replaced by a rename
 * (how most editors save) or a folder is deleted and re-created, the old
 * inode is still the one watched and later changes go unseen. A folder
 * watcher reports its children by name, whatever their inode. `sync()`
 * re-reads the tree (called before each rebuild, so a change made after it
 * is seen by a watcher and one made before it is read by the rebuild) and
 * replaces the watcher of a folder that was re-created or changed.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isSkippedFolder } from './skipped.js';

/** The watchers of a tree. */
export interface TreeWatcher {
  /** Watches the folders the tree has now, and stops watching the ones gone. */
  sync(): Promise<void>;
  /** How many folders are watched. */
  readonly size: number;
  close(): void;
}

/** Watches `roots` and every folder below them (skipping what the scan skips), up to the limits. */
export function watchTree(
  roots: readonly string[],
  onChange: () => void,
  onError: (dir: string, error: unknown) => void,
  limits: { maxDepth: number; maxFolders: number } = { maxDepth: 12, maxFolders: 10_000 },
): TreeWatcher {
  // `version` tells a folder from one re-created at the same path: inode numbers are
  // reused at once on some file systems, so the change time is part of it.
  const watchers = new Map<string, { watcher: FSWatcher; version: string }>();
  let closed = false;

  async function folders(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    async function walk(dir: string, depth: number): Promise<void> {
      if (found.size >= limits.maxFolders) return;
      const info = await stat(dir).catch(() => undefined);
      // Again after the wait: siblings are walked at once, and each passed the check above
      // before any of them was counted (15,000 folders got 15,002 watchers under a 10,000 cap).
      if (!info?.isDirectory() || found.size >= limits.maxFolders) return;
      found.set(dir, `${info.ino}:${info.ctimeMs}`);
      if (depth >= limits.maxDepth) return;
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      const children = entries.filter((e) => e.isDirectory() && !isSkippedFolder(e.name));
      await Promise.all(children.map((e) => walk(join(dir, e.name), depth + 1)));
    }
    for (const root of roots) await walk(root, 0);
    return found;
  }

  function unwatch(dir: string): void {
    watchers.get(dir)?.watcher.close();
    watchers.delete(dir);
  }

  return {
    async sync() {
      const wanted = await folders();
      if (closed) return;
      for (const dir of [...watchers.keys()]) if (!wanted.has(dir)) unwatch(dir);
      for (const [dir, version] of wanted) {
        const old = watchers.get(dir);
        if (old?.version === version) continue;
        try {
          // The new watcher starts before the old one stops, so no change falls in between.
          const watcher = watch(dir, { persistent: true }, onChange);
          // A folder that disappears may report an error: forget it; the change reloads and resyncs.
          watcher.on('error', () => {
            if (watchers.get(dir)?.watcher === watcher) unwatch(dir);
            onChange();
          });
          watchers.set(dir, { watcher, version });
        } catch (error) {
          onError(dir, error);
        }
        old?.watcher.close();
      }
    },
    get size() {
      return watchers.size;
    },
    close() {
      closed = true;
      for (const dir of [...watchers.keys()]) unwatch(dir);
    },
  };
}
