/**
 * The catalogue a folder serves now, with optional live reload: every folder
 * is watched (see load/watch-tree.ts), a change builds a new catalogue, and
 * the new one replaces the old in one assignment only if it was built; a
 * failed reload keeps the last good catalogue and logs why. Its owner may
 * also swap in a catalogue it built (a git source's next commit).
 */

import { type Logger, silentLogger } from '../core/context.js';
import type { ResourceEvent } from '../core/resources.js';
import { boundedDebounce } from '../util/debounce.js';
import { createEmitter, type Emitter } from '../util/emitter.js';
import { buildCatalogue, type Catalogue, type CatalogueOptions } from './catalogue/catalogue.js';
import { formatIssue } from './load/issues.js';
import { type TreeWatcher, watchTree } from './load/watch-tree.js';

/** How a folder's catalogue is kept: {@link SkillsFolderOptions} (provider.ts) but `tools`. */
export interface LiveCatalogueOptions extends CatalogueOptions {
  /** Watch the folders and reload on change. */
  watch?: boolean;
  /**
   * Quiet period after the last change before reloading, in ms. Default 100.
   * Changes that never pause still reload at least every ten such periods.
   */
  debounceMs?: number;
  logger?: Logger;
  /** Told of each reload from the folders: true when its catalogue was built, false when the last good one stays. For metrics. */
  onReload?: (ok: boolean) => void;
}

/** The catalogue served now, what tells of its changes, and the ways to replace it. */
export interface LiveCatalogue {
  /** The catalogue served now: replaced whole, never changed (a plain field, read on every request). */
  readonly current: Catalogue;
  readonly promptChanges: Emitter<void>;
  readonly resourceChanges: Emitter<ResourceEvent>;
  readonly skillChanges: Emitter<void>;
  /** Rebuilds now from the roots; resolves false when the rebuild failed and the old catalogue stays. */
  reload(): Promise<boolean>;
  /** Serves `next` from now on, telling listeners what changed as a reload does; a reload that was reading the old roots is dropped. */
  swap(next: Catalogue): void;
  /** Stops watching. */
  close(): void;
}

interface State extends LiveCatalogue {
  current: Catalogue;
  /** Counts swaps: a rebuild that read the folders before a swap must not undo it. */
  generation: number;
  logger: Logger;
  /** Told of each replacement after the lists' listeners (the skill tools, whose listing may change). */
  replaced: ((previous: Catalogue, next: Catalogue) => void) | undefined;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Serves `next`, and tells each listener whose part changed. */
function apply(state: State, next: Catalogue): void {
  const previous = state.current;
  state.current = next;
  for (const issue of next.issues) if (issue.severity !== 'note' && !previous.issues.some((i) => same(i, issue))) state.logger.warn(formatIssue(issue));
  if (!same(previous.prompts, next.prompts)) state.promptChanges.emit();
  if (!same(previous.resources, next.resources)) state.resourceChanges.emit({ type: 'listChanged' });
  for (const [uri, entry] of previous.files) {
    const now = next.files.get(uri);
    if (!now || now.record.digest !== entry.record.digest) state.resourceChanges.emit({ type: 'updated', uri });
  }
  if (!same(previous.skillEntries, next.skillEntries)) state.skillChanges.emit();
  state.replaced?.(previous, next);
}

/** Keeps `first` until a reload from `roots()` or a swap replaces it; `replaced` is told of each replacement. */
export async function liveCatalogue(
  roots: () => readonly string[],
  first: Catalogue,
  options: LiveCatalogueOptions,
  replaced?: (previous: Catalogue, next: Catalogue) => void,
): Promise<LiveCatalogue> {
  const logger = options.logger ?? silentLogger;
  for (const issue of first.issues) if (issue.severity !== 'note') logger.warn(formatIssue(issue));
  let tree: TreeWatcher | undefined;
  let reloading: Promise<boolean> | undefined;
  let again = false;

  async function rebuild(): Promise<boolean> {
    let next: Catalogue;
    // Watch new folders before reading: a change after this is seen, one before it is read.
    await tree?.sync().catch((error: unknown) => logger.warn('Re-reading the watched folders failed', error));
    const started = state.generation;
    try {
      next = await buildCatalogue(roots(), options);
    } catch (error) {
      logger.error('Reload failed; still serving the last good catalogue', error);
      options.onReload?.(false);
      return false;
    }
    // Swapped meanwhile: what was read is the old folders', and the swap is newer.
    if (started !== state.generation) return true;
    apply(state, next);
    logger.info(`Reloaded: ${next.prompts.length} prompts, ${next.skills.length} skills`);
    options.onReload?.(true);
    return true;
  }
  function reload(): Promise<boolean> {
    if (reloading) {
      // One more pass after the running one, so a change during a rebuild is not lost.
      again = true;
      return reloading;
    }
    reloading = rebuild().finally(() => {
      reloading = undefined;
      if (again) {
        again = false;
        void reload();
      }
    });
    return reloading;
  }
  const changed = boundedDebounce(() => void reload(), options.debounceMs ?? 100);

  const state: State = {
    current: first,
    generation: 0,
    logger,
    replaced,
    promptChanges: createEmitter<void>(),
    resourceChanges: createEmitter<ResourceEvent>(),
    skillChanges: createEmitter<void>(),
    reload,
    swap(next) {
      state.generation++;
      apply(state, next);
    },
    close() {
      changed.cancel();
      tree?.close();
    },
  };
  if (options.watch === true) {
    tree = watchTree(roots(), changed, (dir, error) => logger.warn(`Cannot watch ${dir}; changes in it will not be picked up`, error));
    await tree.sync();
  }
  return state;
}
