/**
 * A skills folder served from a git repository: cloned shallowly, fetched
 * again every `pullIntervalMs` (and whenever {@link GitSkillsFolder.sync} is
 * called, e.g. by a webhook), and swapped whole when the fetched ref names a
 * new commit. The new commit is checked out into its own folder and its
 * catalogue built before anything changes for clients; a fetch that fails, a
 * commit that cannot be checked out, or one whose folder fails to load or
 * adds error-level findings (a skill that would disappear) keeps the last
 * good catalogue, and says why in the log.
 */
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { type Logger, silentLogger } from '../../core/context.js';
import { createEmitter, type Emitter } from '../../util/emitter.js';
import { buildCatalogue, type Catalogue, slugify } from '../catalogue/catalogue.js';
import { formatIssue, type Issue } from '../load/issues.js';
import { DEFAULT_LIMITS } from '../load/scan.js';
import { createPoller } from '../poll.js';
import { type SkillsFolder, type SkillsFolderOptions, type SwappableFolder, servedFolder } from '../provider.js';
import { GitError, type GitRunner } from './run-git.js';
import { type GitSpec, parseGitSpec } from './spec.js';
import { type CheckoutLimits, DEFAULT_MAX_CHECKOUT_BYTES } from './tree-limits.js';
import { type Checkout, createWorkspace, servedRoot, type Workspace } from './workspace.js';

/** Options of {@link loadGitSkills}. */
export interface GitSkillsOptions extends Omit<SkillsFolderOptions, 'watch' | 'debounceMs'> {
  /** Where checkouts are kept. Default `~/.cache/skillport/git`. */
  cacheDir?: string;
  /** Fetch this often, in ms; 0 fetches only when {@link GitSkillsFolder.sync} is called. Default 60000. */
  pullIntervalMs?: number;
  /** The git program. Default `git`, found on PATH. */
  git?: string;
  /** Longest one git command may run, in ms. Default 120000. */
  gitTimeoutMs?: number;
  /** The environment git runs with (credentials helpers, `HOME`, `SSH_AUTH_SOCK`...). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Bytes of all files a checkout may write (of the subfolder served, if one
   * is set). A commit past it, or with a file over `limits.maxFileBytes` or
   * more than `limits.maxEntries` entries, is refused before anything is
   * written, and the last good commit stays served. Default 256 MiB.
   */
  maxCheckoutBytes?: number;
  /** Told of each fetch: true when it succeeded (a new commit or none), false when it failed or the commit was refused. For metrics. */
  onFetch?: (ok: boolean) => void;
}

/** What one fetch found. */
export interface GitSyncResult {
  /** Whether a new commit is now served. */
  changed: boolean;
  /** The commit served after the fetch. */
  commit: string;
}

/** A skills folder served from git, with the commit it serves and a way to fetch now. */
export interface GitSkillsFolder extends SkillsFolder {
  /** The commit served now (40 or 64 hex digits). */
  readonly commit: string;
  /** The repository as it may be shown: credentials replaced by `***`. */
  readonly source: string;
  /** The folder served now (the commit's tree, or its subfolder). */
  readonly root: string;
  /**
   * Fetches now and serves the ref's commit if it is new and good. Calls made
   * while a fetch runs share one more fetch after it. Rejects (after logging)
   * when the fetch fails or the new commit is refused; the last good one stays.
   */
  sync(): Promise<GitSyncResult>;
  /** Calls `listener` with each new commit once it is served. Returns a function that removes it. */
  onCommit(listener: (commit: string) => void): () => void;
  /** Stops fetching and removes the checkouts. */
  close(): Promise<void>;
}

/** A commit checked out and loaded, not yet served. */
interface Prepared {
  checkout: Checkout;
  /** The folder served: the checkout's tree, or its subfolder. */
  root: string;
  catalogue: Catalogue;
}

/** What makes two findings the same across commits: not the line, which moves with edits above it. */
function findingKey(issue: Issue): string {
  return JSON.stringify([issue.severity, issue.code, issue.folder ?? '', issue.path, issue.message]);
}

/** A source being served: what it was given, what it serves now, and the state of its fetches. */
interface Source {
  spec: GitSpec;
  /** The repository and ref as they may be shown. */
  where: string;
  logger: Logger;
  workspace: Workspace;
  catalogueOptions: GitSkillsOptions /* as given, the prefix settled */;
  folder: SwappableFolder;
  commits: Emitter<string>;
  served: Prepared;
  /** The checkout served before the current one: its tree stays until the next swap, for reads begun before this one. */
  previous: Checkout | undefined;
  /** The last commit refused, and why, so a broken head is checked out once rather than at every fetch. */
  refused: { commit: string; reason: string } | undefined;
  lastFailure: string | undefined;
  closed: boolean;
}

/** Checks `commit` out and loads it; a checkout that fails to load is removed. */
async function prepare(workspace: Workspace, spec: GitSpec, catalogueOptions: SkillsFolderOptions, commit: string): Promise<Prepared> {
  const checkout = await workspace.checkout(commit);
  try {
    const root = await servedRoot(checkout.tree, spec.subfolder);
    return { checkout, root, catalogue: await buildCatalogue([root], catalogueOptions) };
  } catch (error) {
    await workspace.removeCheckout(checkout);
    throw error;
  }
}

/** Fetches once and serves the ref's commit if it is new and good. */
async function fetchOnce(source: Source): Promise<GitSyncResult> {
  const { workspace } = source;
  const head = await workspace.fetch();
  const commit = source.served.checkout.commit;
  if (head === commit || source.closed) return { changed: false, commit };
  if (source.refused?.commit === head) throw new Error(source.refused.reason);
  let next: Prepared;
  try {
    next = await prepare(workspace, source.spec, source.catalogueOptions, head);
    const known = new Set(source.folder.catalogue.issues.map(findingKey));
    const added = next.catalogue.issues.filter((i) => i.severity === 'error' && !known.has(findingKey(i)));
    if (added.length > 0) {
      await workspace.removeCheckout(next.checkout);
      throw new Error(`${added.length} new error${added.length > 1 ? 's' : ''} in its skills, first: ${formatIssue(added[0] as Issue)}`);
    }
  } catch (error) {
    const reason = `commit ${head.slice(0, 12)} is not served: ${(error as Error).message}`;
    // A git failure (a timeout, a full disk) may pass: only a commit that loaded badly is refused for good.
    if (!(error instanceof GitError)) source.refused = { commit: head, reason };
    throw new Error(reason);
  }
  if (source.closed) {
    await workspace.removeCheckout(next.checkout);
    return { changed: false, commit };
  }
  // A commit served before (a revert by force-push) is a checkout of its own: retiring the older one leaves it be.
  const retired = source.previous;
  source.previous = source.served.checkout;
  source.served = next;
  source.folder.swap(next.catalogue);
  if (retired !== undefined) await workspace.removeCheckout(retired);
  source.logger.info(
    `Serving ${source.where} at commit ${head.slice(0, 12)}: ${next.catalogue.prompts.length} prompts, ${next.catalogue.skills.length} skills`,
  );
  source.commits.emit(head);
  return { changed: true, commit: head };
}

/** {@link fetchOnce}, its failure logged once per distinct reason. */
async function logged(source: Source): Promise<GitSyncResult> {
  try {
    const result = await fetchOnce(source);
    source.lastFailure = undefined;
    source.catalogueOptions.onFetch?.(true);
    return result;
  } catch (error) {
    const message = (error as Error).message;
    // Once per distinct reason: a repository down for an hour is one warning, not sixty.
    if (message !== source.lastFailure)
      source.logger.warn(`Fetching ${source.where} failed; still serving commit ${source.served.checkout.commit.slice(0, 12)}: ${message}`);
    else source.logger.debug(`Fetching ${source.where} failed again: ${message}`);
    source.lastFailure = message;
    source.catalogueOptions.onFetch?.(false);
    throw error;
  }
}

/** The runner and checkout limits of `options`, each default filled in; throws on an invalid value. */
function settings(options: GitSkillsOptions): { runner: GitRunner; limits: CheckoutLimits } {
  const runner: GitRunner = { program: options.git ?? 'git', timeoutMs: options.gitTimeoutMs ?? 120_000, env: options.env ?? process.env };
  const maxBytes = options.maxCheckoutBytes ?? DEFAULT_MAX_CHECKOUT_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new TypeError('maxCheckoutBytes must be a positive whole number of bytes');
  // What the catalogue would serve of a checkout bounds what it may write.
  const limits: CheckoutLimits = {
    maxFileBytes: options.limits?.maxFileBytes ?? (DEFAULT_LIMITS.maxFileBytes as number),
    maxEntries: options.limits?.maxEntries ?? DEFAULT_LIMITS.maxEntries,
    maxBytes,
  };
  return { runner, limits };
}

/**
 * Serves the skills of a git repository. `source` is `git+https://…`,
 * `git+ssh://…`, `git+file://…` or `file://…`, with an optional `#ref` and
 * `#ref:subfolder`. Throws when the first clone or its folder fails.
 *
 * @example
 * const folder = await loadGitSkills('git+https://example.com/team/skills.git#main:skills');
 * const server = createServer({ name: 'skills', version: '1.0.0', ...folder });
 * folder.onCommit((commit) => console.error(`now serving ${commit}`));
 */
export async function loadGitSkills(source: string, options: GitSkillsOptions = {}): Promise<GitSkillsFolder> {
  const spec = parseGitSpec(source);
  const logger = options.logger ?? silentLogger;
  const interval = options.pullIntervalMs ?? 60_000;
  if (!Number.isFinite(interval) || interval < 0) throw new TypeError('pullIntervalMs must be 0 or more');
  const { runner, limits } = settings(options);
  // The tree's folder is named by its commit: shared references are named by the repository instead.
  const catalogueOptions = { ...options, prefix: options.prefix ?? slugify(spec.subfolder === '' ? spec.name : basename(spec.subfolder)) };
  const where = `${spec.display}${spec.ref ? `#${spec.ref}` : ''}`;
  const workspace = await createWorkspace(spec, options.cacheDir ?? join(homedir(), '.cache', 'skillport', 'git'), runner, limits).catch((error: Error) => {
    throw new Error(`cannot load ${where}: ${error.message}`);
  });
  let served: Prepared;
  try {
    served = await prepare(workspace, spec, catalogueOptions, await workspace.fetch());
  } catch (error) {
    await workspace.remove();
    throw new Error(`cannot load ${where}: ${(error as Error).message}`);
  }
  logger.info(`Serving ${where} at commit ${served.checkout.commit.slice(0, 12)}`);
  // A reload reads the folder served at that moment.
  const folder = await servedFolder(() => [state.served.root], served.catalogue, { ...catalogueOptions, watch: false });
  const state: Source = {
    spec,
    where,
    logger,
    workspace,
    catalogueOptions,
    folder,
    commits: createEmitter<string>((error) => logger.error('An onCommit listener failed', error)),
    served,
    previous: undefined,
    refused: undefined,
    lastFailure: undefined,
    closed: false,
  };
  const poller = createPoller(() => logged(state), interval);
  return {
    prompts: folder.prompts,
    resources: folder.resources,
    skills: folder.skills,
    ...(folder.tools ? { tools: folder.tools } : {}),
    instructions: folder.instructions,
    get catalogue() {
      return folder.catalogue;
    },
    get commit() {
      return state.served.checkout.commit;
    },
    get root() {
      return state.served.root;
    },
    source: spec.display,
    reload: () => folder.reload(),
    sync: () => poller.sync(),
    onCommit: (listener) => state.commits.watch(listener),
    async close() {
      state.closed = true;
      // A fetch in flight ends first: removing the folders it writes into under it can fail (ENOTEMPTY).
      await poller.stop();
      folder.close();
      await workspace.remove();
    },
  };
}
