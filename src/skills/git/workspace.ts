/**
 * Where a git source lives on disk: one folder per running source,
 * `<cacheDir>/<digest of the remote>/<pid>-<random>/`, holding a bare
 * repository (`repo.git`, shallow) and one tree per checkout
 * (`trees/<n>-<commit>/`). A commit (the subfolder served of it) is checked
 * out whole into a folder of its own before it is served, so a reload never
 * sees a tree half-way between two commits; the old tree is removed once
 * nothing serves it. A folder per
 * checkout rather than per commit: a branch reverted by a force-push (A, B,
 * then A again) checks A out anew while A's old tree may still be read, and
 * neither removing one may touch the other.
 *
 * Why a folder per process rather than one per remote: replicas on one host
 * would otherwise fetch into one repository at once, and git's lock files make
 * all but one of them fail. A folder left by a process that died is removed
 * by the next source that starts for the same remote on the same host.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { credentialsEnv, GitError, type GitRunner, runGit } from './run-git.js';
import type { GitSpec } from './spec.js';
import { type CheckoutLimits, measureTree } from './tree-limits.js';

/** A commit checked out: its tree's folder, which no other checkout shares. */
export interface Checkout {
  readonly commit: string;
  readonly tree: string;
}

/** One source's folder and the git commands it runs there. */
export interface Workspace {
  /** The instance folder. */
  readonly dir: string;
  /** Fetches the spec's ref (depth 1) and resolves the commit it names. */
  fetch(): Promise<string>;
  /**
   * Checks `commit` out (the spec's subfolder of it, if one is set) into a
   * fresh folder of its own, once its tree is measured against the limits.
   */
  checkout(commit: string): Promise<Checkout>;
  /** Removes a checkout no longer served. */
  removeCheckout(checkout: Checkout): Promise<void>;
  /** Removes the whole instance folder. */
  remove(): Promise<void>;
}

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The repository's own attributes (`info/attributes`, above every
 * `.gitattributes` of the tree, macros included: gitattributes(5)): a checkout
 * writes the blobs' bytes as they are, with no line-ending, `$Id$` or encoding
 * conversion and no filter, whatever a pushed `.gitattributes` says.
 */
const NEUTRAL_ATTRIBUTES = '* -text -eol -crlf -ident -filter -working-tree-encoding\n';

/** Whether a process of this host with this id is running (signal 0 only probes). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes instance folders under `parent` whose process (on this host) is gone. */
async function sweep(parent: string): Promise<void> {
  const host = hostname();
  for (const name of await readdir(parent).catch(() => [])) {
    const owner = await readFile(join(parent, name, 'owner'), 'utf8').catch(() => undefined);
    if (owner === undefined) continue;
    const [ownerHost, pid] = owner.split('\n');
    if (ownerHost === host && Number.isSafeInteger(Number(pid)) && !alive(Number(pid))) {
      await rm(join(parent, name), { recursive: true, force: true }).catch(() => {});
    }
  }
}

/** What a workspace's commands need: its spec, runner, limits and folders. */
interface Instance {
  spec: GitSpec;
  runner: GitRunner;
  limits: CheckoutLimits;
  dir: string;
  repo: string;
  gitDir: string;
  /** Checkouts made so far: each one's folder is new, whatever commit it holds. */
  checkouts: number;
}

/**
 * Makes this process's folder under `parent` (`<pid>-<random>`, with its
 * `owner` file), after sweeping those of dead processes; returns its path.
 * A discovery index source (remote/) keeps its versions in one too.
 */
export async function createOwnedFolder(parent: string): Promise<string> {
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await sweep(parent);
  const dir = join(parent, `${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { mode: 0o700 });
  await writeFile(join(dir, 'owner'), `${hostname()}\n${process.pid}\n`);
  return dir;
}

/** Makes this process's folder under `parent` (see {@link createOwnedFolder}) with an empty bare repository; returns its path. */
async function createInstance(parent: string, runner: GitRunner): Promise<string> {
  const dir = await createOwnedFolder(parent);
  await mkdir(join(dir, 'trees'), { mode: 0o700 });
  const repo = join(dir, 'repo.git');
  try {
    // No template (an init.templateDir or GIT_TEMPLATE_DIR could bring hooks or info/attributes).
    await runGit(runner, ['init', '--quiet', '--bare', '--template=', repo]);
    await mkdir(join(repo, 'info'), { mode: 0o700 });
    await writeFile(join(repo, 'info', 'attributes'), NEUTRAL_ATTRIBUTES);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** The tree a checkout writes: the commit's, or its subfolder's, which must be a folder (a link could point anywhere). */
async function servedTree({ spec, runner, gitDir }: Instance, commit: string): Promise<string> {
  if (spec.subfolder === '') return `${commit}^{tree}`;
  const args = [gitDir, 'ls-tree', '-z', '--end-of-options', commit, '--', spec.subfolder];
  const listed = await runGit(runner, args, { env: { GIT_LITERAL_PATHSPECS: '1' } });
  // `<mode> SP <type> SP <object> TAB <path> NUL`, or nothing.
  const [mode, type, object] = (listed.split('\t')[0] ?? '').split(' ');
  if (listed === '') throw new Error(`the commit has no folder ${spec.subfolder}`);
  if (type !== 'tree' || object === undefined) {
    throw new Error(`${spec.subfolder} is not a folder in the commit${mode === '120000' ? ' (it is a symbolic link)' : ''}`);
  }
  return object;
}

/** {@link Workspace.fetch}. */
async function fetchRef({ spec, runner, gitDir }: Instance): Promise<string> {
  // FETCH_HEAD names what was fetched; no remote is configured, so the URL (and any
  // credentials in it) is never written into the repository.
  const env = credentialsEnv(spec.url, spec.credentials, runner.env);
  const ref = spec.ref ?? 'HEAD';
  // After --end-of-options (git 2.24+) the URL and the ref are never options, whatever the parser let through.
  const fetch = [gitDir, 'fetch', '--quiet', '--depth=1', '--no-tags', '--no-recurse-submodules', '--end-of-options', spec.url, ref];
  await runGit(runner, fetch, { remote: true, env }).catch((error: Error) => {
    // A branch deleted (or not pushed yet): said in words, as the one reason it is, however often it is fetched.
    if (/couldn't find remote ref/.test(error.message)) throw new GitError(`the repository has no branch, tag or commit ${ref}`);
    throw error;
  });
  const commit = (await runGit(runner, [gitDir, 'rev-parse', '--verify', '--end-of-options', 'FETCH_HEAD^{commit}'])).trim();
  if (!COMMIT.test(commit)) throw new Error(`git named no commit for ${spec.display}`);
  return commit;
}

/** {@link Workspace.checkout}. */
async function checkoutCommit(instance: Instance, commit: string): Promise<Checkout> {
  const { spec, runner, gitDir, dir } = instance;
  if (!COMMIT.test(commit)) throw new TypeError(`not a commit id: ${commit}`);
  // Measured before anything is written; only what is written counts: the subfolder served, alone.
  const served = await servedTree(instance, commit);
  await measureTree(runner, instance.repo, served, spec.subfolder, instance.limits);
  const name = `${++instance.checkouts}-${commit}`;
  const tree = join(dir, 'trees', name);
  await mkdir(tree, { mode: 0o700 });
  // read-tree -u into an index of its own: writes the files of the tree, runs no hook, and
  // leaves no .git inside the checkout (so nothing of git's is ever in the served folder).
  const index = join(dir, `index-${name}`);
  const read = spec.subfolder === '' ? ['--reset'] : [`--prefix=${spec.subfolder}/`];
  try {
    await runGit(runner, [gitDir, `--work-tree=${tree}`, 'read-tree', ...read, '-u', '--end-of-options', served], { env: { GIT_INDEX_FILE: index } });
  } catch (error) {
    await rm(tree, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(index, { force: true });
  }
  return { commit, tree };
}

/** Creates a source's folder under `cacheDir` with an empty bare repository; its checkouts keep to `limits`. */
export async function createWorkspace(spec: GitSpec, cacheDir: string, runner: GitRunner, limits: CheckoutLimits): Promise<Workspace> {
  const dir = await createInstance(join(cacheDir, spec.key), runner);
  const repo = join(dir, 'repo.git');
  const instance: Instance = { spec, runner, limits, dir, repo, gitDir: `--git-dir=${repo}`, checkouts: 0 };
  return {
    dir,
    fetch: () => fetchRef(instance),
    checkout: (commit) => checkoutCommit(instance, commit),
    async removeCheckout(checkout) {
      await rm(checkout.tree, { recursive: true, force: true });
    },
    async remove() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The folder to serve: `subfolder` of `tree`, each of its segments a real
 * folder (a link there could point anywhere; the confinement of the served
 * folder starts at the folder itself).
 */
export async function servedRoot(tree: string, subfolder: string): Promise<string> {
  let path = tree;
  for (const segment of subfolder === '' ? [] : subfolder.split('/')) {
    path = join(path, segment);
    const info = await lstat(path).catch(() => undefined);
    if (!info) throw new Error(`the commit has no folder ${subfolder}`);
    if (!info.isDirectory()) throw new Error(`${subfolder} is not a folder in the commit${info.isSymbolicLink() ? ' (it is a symbolic link)' : ''}`);
  }
  return path;
}
