/**
 * Runs the `git` program: `execFile` with an argument array (never a shell),
 * a timeout, and the environment and configuration that keep a hostile or
 * unreachable repository from doing more than failing:
 *
 * - `GIT_ALLOW_PROTOCOL=https:ssh:file`: git refuses every other transport,
 *   `ext::` (which runs a command) among them, wherever the URL came from
 *   (an `insteadOf` rewrite, a redirect, a submodule);
 * - `core.hooksPath=/dev/null`: no hook of any repository runs;
 * - `GIT_TERMINAL_PROMPT=0` and ssh in batch mode: a repository that wants
 *   credentials it was not given fails at once instead of waiting for a
 *   password nobody will type;
 * - no submodules are fetched.
 *
 * The user's own git configuration (credential helpers, `insteadOf`) still
 * applies: it is how private repositories are reached.
 */
import { execFile } from 'node:child_process';
import { redact } from './spec.js';

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

const CONFIG = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'protocol.allow=never',
  '-c',
  'protocol.https.allow=always',
  '-c',
  'protocol.ssh.allow=always',
  '-c',
  'protocol.file.allow=always',
  '-c',
  'submodule.recurse=false',
  '-c',
  'fetch.recurseSubmodules=false',
];

/** The environment of every git command. */
function environment(base: GitRunner['env'], extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  env.GIT_ALLOW_PROTOCOL = 'https:ssh:file';
  env.GIT_TERMINAL_PROMPT = '0';
  // ssh asks for a passphrase or a host key on the terminal, not through git: batch mode refuses instead.
  if (env.GIT_SSH_COMMAND === undefined && env.GIT_SSH === undefined) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  // Nothing from the served process's own repository, if it runs inside one.
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  return Object.assign(env, extra);
}

/** Runs `git args...`; resolves its stdout, rejects with a {@link GitError} naming the command and git's own reason. */
export function runGit(runner: GitRunner, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      runner.program,
      [...CONFIG, ...args],
      { env: environment(runner.env, extraEnv), timeout: runner.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const command = args.find((a) => !a.startsWith('-')) ?? 'git';
        const killed = (error as { killed?: boolean }).killed === true;
        const reason = killed
          ? `timed out after ${runner.timeoutMs} ms`
          : (stderr.trim().split('\n').filter(Boolean).pop() ?? (error as NodeJS.ErrnoException).code ?? error.message);
        reject(new GitError(redact(`git ${command} failed: ${reason}`)));
      },
    );
  });
}
