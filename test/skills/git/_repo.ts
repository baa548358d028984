/**
 * A real git repository for the git-source tests: a bare repository in a temp
 * folder (the "remote", reached by file://) and a second clone that commits
 * and pushes to it, with the /usr/bin/git the server runs too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const GIT = '/usr/bin/git';

/** A file's text, or a symbolic link to `link`. */
export type Content = string | { link: string };

export interface TestRepo {
  /** The temp folder holding everything (remote, clone, caches). */
  readonly dir: string;
  /** The bare repository's file:// URL. */
  readonly url: string;
  /** The bare repository's path. */
  readonly bare: string;
  /** A cache folder for the source under test. */
  readonly cache: string;
  /** Writes (or, for null, deletes) files in the clone, commits and pushes them to `branch`; returns the commit. */
  push(files: Record<string, Content | null>, branch?: string): string;
  /** Points `branch` of the remote at `commit` (a force-push: a revert to a commit seen before, say), creating it if need be. */
  force(commit: string, branch?: string): void;
  /** Deletes `branch` from the remote. */
  deleteBranch(branch: string): void;
  /** Moves the bare repository away (a fetch then fails), or back. */
  move(away: boolean): void;
  remove(): void;
}

/** An environment for git with no user or system configuration but what the test gives. */
export function gitEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
}

function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  return execFileSync(GIT, ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
  }).trim();
}

export const skillMd = (name: string, description: string, body = `Body of ${name}.`) => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

/** Creates a remote with `main` as its default branch and one commit of `files`. */
export function createRepo(files: Record<string, Content>): TestRepo & { first: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-git-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = gitEnv(home);
  const bare = join(dir, 'remote.git');
  const work = join(dir, 'work');
  git(dir, env, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(dir, env, 'init', '--quiet', '--initial-branch=main', work);
  // The clone stores the bytes the test wrote, whatever .gitattributes it commits (git's own highest-precedence attributes file).
  writeFileSync(join(work, '.git', 'info', 'attributes'), '* -text -eol -crlf -ident -filter -working-tree-encoding\n');
  const push = (changes: Record<string, Content | null>, branch = 'main'): string => {
    for (const [rel, content] of Object.entries(changes)) {
      const path = join(work, rel);
      rmSync(path, { force: true, recursive: true });
      if (content === null) continue;
      mkdirSync(dirname(path), { recursive: true });
      if (typeof content === 'string') writeFileSync(path, content);
      else symlinkSync(content.link, path);
    }
    git(work, env, 'add', '--all');
    git(work, env, 'commit', '--quiet', '--allow-empty', '-m', `change ${Object.keys(changes).join(', ')}`);
    git(work, env, 'push', '--quiet', bare, `HEAD:refs/heads/${branch}`);
    return git(work, env, 'rev-parse', 'HEAD');
  };
  const first = push(files);
  return {
    dir,
    url: `file://${bare}`,
    bare,
    cache: join(dir, 'cache'),
    env,
    first,
    push,
    force(commit, branch = 'main') {
      // The clone follows, so the next push builds on the commit forced.
      git(work, env, 'reset', '--quiet', '--hard', commit);
      git(work, env, 'push', '--quiet', '--force', bare, `${commit}:refs/heads/${branch}`);
    },
    deleteBranch(branch) {
      git(work, env, 'push', '--quiet', bare, `:refs/heads/${branch}`);
    },
    move(away) {
      if (away) renameSync(bare, `${bare}.moved`);
      else renameSync(`${bare}.moved`, bare);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
