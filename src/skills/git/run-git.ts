/**
 * Runs the `git` program: `spawn` with an argument array (never a shell;
 * what `execFile` does, with the process group killable), a timeout, and the
 * environment and configuration that keep a hostile or unreachable
 * repository from doing more than failing:
 *
 * - `GIT_ALLOW_PROTOCOL=https:ssh:file`: git refuses every other transport,
 *   `ext::` (which runs a command) among them, wherever the URL came from
 *   (an `insteadOf` rewrite, a redirect, a submodule);
 * - `core.hooksPath=/dev/null`: no hook of any repository runs;
 * - `GIT_TERMINAL_PROMPT=0` and ssh in batch mode: a repository that wants
 *   credentials it was not given fails at once instead of waiting for a
 *   password nobody will type;
 * - no submodules are fetched, no maintenance or gc runs after a fetch;
 * - only the command that talks to the remote (fetch) reads the operator's
 *   own git configuration (credential helpers, `insteadOf`, proxies, ssh):
 *   it is how private repositories are reached. Every other command (init,
 *   rev-parse, ls-tree, read-tree) runs with no system, user or environment
 *   configuration at all, so that nothing a pushed `.gitattributes` names
 *   (a filter driver, git-lfs among them) finds a program to run.
 */
import { spawn } from 'node:child_process';
import { type GitCredentials, redactCredentials } from './spec.js';

/** How git is run. */
export interface GitRunner {
  /** The program. Default `git` (found on PATH). */
  program: string;
  /** Longest a single git command may take, in ms. */
  timeoutMs: number;
  /** The environment git starts from (the process's by default). */
  env: Readonly<Record<string, string | undefined>>;
}

/** A git command that failed: its message has no credentials. */
export class GitError extends Error {
  override name = 'GitError';
}

/** Configuration of every command, on its command line (after any other configuration, so it wins). */
const CONFIG = [
  'core.hooksPath=/dev/null',
  'protocol.allow=never',
  'protocol.https.allow=always',
  'protocol.ssh.allow=always',
  'protocol.file.allow=always',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  // A fetch would start `git maintenance run --auto` (gc, commit-graph) in the background: nothing outlives a command.
  'maintenance.auto=false',
  'gc.auto=0',
  // The user's attributes file (default $XDG_CONFIG_HOME/git/attributes) is read even without a user configuration.
  'core.attributesFile=/dev/null',
  'core.fsmonitor=false',
].flatMap((entry) => ['-c', entry]);

/** Variables that point git at another repository than ours: the served process may run inside one. */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR'];

/** What one git command needs besides its arguments. */
export interface GitCall {
  /**
   * Whether it talks to the remote (fetch), and so reads the operator's git
   * configuration and the environment's configuration entries; default false.
   */
  remote?: boolean;
  /** Variables added to the environment. */
  env?: Record<string, string>;
  /**
   * Takes stdout as it comes instead of keeping it (a listing of any size).
   * What it throws stops git (its whole process group) and rejects the call.
   */
  read?: (chunk: string) => void;
}

/** The environment of a git command. */
function environment(base: GitRunner['env'], call: GitCall): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  for (const key of REPOSITORY_VARIABLES) delete env[key];
  if (call.remote !== true) {
    // No configuration but the repository's own (ours) and the command line's: none of the system
    // (GIT_CONFIG_NOSYSTEM), the user's (GIT_CONFIG_GLOBAL: both ~/.gitconfig and
    // $XDG_CONFIG_HOME/git/config), the environment's (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS),
    // nor the system's attributes (GIT_ATTR_NOSYSTEM) or an init template (GIT_TEMPLATE_DIR).
    for (const key of Object.keys(env)) if (key.startsWith('GIT_CONFIG') || key === 'GIT_TEMPLATE_DIR') delete env[key];
    env.GIT_CONFIG_NOSYSTEM = '1';
    env.GIT_CONFIG_GLOBAL = '/dev/null';
    env.GIT_ATTR_NOSYSTEM = '1';
  }
  env.GIT_ALLOW_PROTOCOL = 'https:ssh:file';
  env.GIT_TERMINAL_PROMPT = '0';
  // ssh asks for a passphrase or a host key on the terminal, not through git: batch mode refuses instead.
  if (env.GIT_SSH_COMMAND === undefined && env.GIT_SSH === undefined) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  return Object.assign(env, call.env);
}

/**
 * A credential helper (gitcredentials(7)) that answers `get` with the user and
 * password in its environment, and ignores `store` and `erase`. git runs it
 * through the shell with only the action as argument; `read`, `[` and `printf`
 * are shell builtins, so the secret is never an argument of any program.
 */
const ENV_HELPER =
  '!f() { while read -r line && [ -n "$line" ]; do :; done; [ "$1" = get ] || exit 0; ' +
  `printf 'username=%s\\npassword=%s\\n' "$SKILLPORT_GIT_USERNAME" "$SKILLPORT_GIT_PASSWORD"; }; f`;

/**
 * The environment that hands `credentials` to git for `url`'s origin only. A
 * command line is readable by every user of the host (`ps`, /proc), a
 * process's environment only by its owner; and git puts a URL's user and
 * password on the command line of its HTTPS helper (`git-remote-https`), so
 * the URL git is given carries none. Instead, configuration entries
 * (`GIT_CONFIG_COUNT`, git 2.31+), after any the environment already has:
 *
 * - `credential.<origin>.helper` empty, which clears the helpers configured
 *   so far for that origin: the operator's helpers are neither asked nor told
 *   to store these credentials (`store` would write them in clear);
 * - then {@link ENV_HELPER}, reading them from the environment.
 *
 * Scoped to the origin (scheme, host and port, as git matches
 * `credential.<url>`), so a redirect to another host gets nothing, as with
 * credentials in a URL.
 */
export function credentialsEnv(url: string, credentials: GitCredentials | undefined, env: GitRunner['env']): Record<string, string> {
  if (credentials === undefined) return {};
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  const n = Number.isSafeInteger(count) && count > 0 ? count : 0;
  const key = `credential.${new URL(url).origin}.helper`;
  return {
    GIT_CONFIG_COUNT: String(n + 2),
    [`GIT_CONFIG_KEY_${n}`]: key,
    [`GIT_CONFIG_VALUE_${n}`]: '',
    [`GIT_CONFIG_KEY_${n + 1}`]: key,
    [`GIT_CONFIG_VALUE_${n + 1}`]: ENV_HELPER,
    SKILLPORT_GIT_USERNAME: credentials.username,
    SKILLPORT_GIT_PASSWORD: credentials.password,
  };
}

/**
 * Why git failed, from its stderr: its `fatal:` and `error:` lines (and a
 * server's `ERROR:` before them), which say what happened; the last line is
 * often only the tail of advice ("and the repository exists."). Without such
 * lines, the last one.
 */
function gitReason(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reasons = lines.filter((line) => /^(?:fatal|error):/i.test(line));
  return reasons.length > 0 ? reasons.slice(-3).join('; ') : lines.at(-1);
}

/** Most bytes of output kept from one git command (it prints a commit id, or an error). */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs `git args...`; resolves its stdout, rejects with a {@link GitError}
 * naming the command and git's own reason. git runs in a process group of its
 * own, and a timeout kills the whole group: git's helpers (ssh,
 * git-remote-https) would otherwise outlive it, still waiting on the network.
 */
export function runGit(runner: GitRunner, args: readonly string[], call: GitCall = {}): Promise<string> {
  const command = args.find((a) => !a.startsWith('-')) ?? 'git';
  return new Promise((resolve, reject) => {
    const child = spawn(runner.program, [...CONFIG, ...args], {
      env: environment(runner.env, call),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    /** Why git was stopped: a timeout, or what `read` threw. */
    let stopped: Error | undefined;
    const stop = (reason: Error) => {
      stopped ??= reason;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      // A helper that left the group (setsid) could still hold the pipes open: stop reading them.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stopped) return;
      if (call.read === undefined) {
        if (stdout.length < MAX_OUTPUT) stdout += chunk;
        return;
      }
      try {
        call.read(chunk);
      } catch (error) {
        stop(error as Error);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      // The end is what says why it failed.
      stderr = (stderr + chunk).slice(-MAX_OUTPUT);
    });
    const timer = setTimeout(() => stop(new GitError(`git ${command} failed: timed out after ${runner.timeoutMs} ms`)), runner.timeoutMs);
    const fail = (reason: string) => reject(new GitError(redactCredentials(`git ${command} failed: ${reason}`)));
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(error.code === 'ENOENT' ? `no program ${runner.program}` : error.message);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (stopped) reject(stopped);
      else if (code === 0) resolve(stdout);
      else fail(gitReason(stderr) ?? `exit ${code ?? signal}`);
    });
  });
}
