/**
 * The `skillport` command. `run` is pure apart from the streams it is given
 * and returns an exit code (0 ok, 1 failure, 2 usage); `main` is the only
 * place that touches process.argv, process.env, signals and process.exit.
 */

import { escapeControls } from '../index.js';
import { isGitSource, redactCredentials, redactSource } from '../skills.js';
import { type Invocation, parse, UsageError } from './args.js';
import { check } from './commands/check.js';
import { complete, get, list } from './commands/inspect.js';
import { install } from './commands/install.js';
import { serve } from './commands/serve.js';
import { usage } from './commands/usage-report.js';
import { type CliIo, packageVersion } from './context.js';
import { leanHeapAllowed } from './heap.js';
import { createStderrLogger } from './logger.js';
import { printLine } from './output.js';
import { type CommandName, commandHelp, generalHelp, isCommand, usageLine } from './usage.js';

export type { CliIo } from './context.js';

/** `skillport help [COMMAND]`. */
function help(args: readonly string[]): string {
  const [topic, ...rest] = args;
  if (rest.length > 0) throw new UsageError('help expects at most one COMMAND');
  if (topic === undefined) return generalHelp();
  if (!isCommand(topic)) throw new UsageError(`Unknown command "${topic}"`);
  return commandHelp(topic);
}

async function dispatch(invocation: Invocation & { command: CommandName }, io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  switch (invocation.command) {
    case 'help':
      io.stdout.write(help(invocation.args));
      return 0;
    case 'serve':
      return serve(invocation, io, env);
    case 'list':
      return list(invocation, io, env);
    case 'get':
      return get(invocation, io, env);
    case 'complete':
      return complete(invocation, io, env);
    case 'check':
      return check(invocation, io, env);
    case 'install':
      return install(invocation, io, env);
    case 'usage':
      return usage(invocation, io);
  }
}

/** How a message names what failed: `skillport`, or `skillport COMMAND` once the command is known. */
function who(command: CommandName | undefined): string {
  return command === undefined ? 'skillport' : `skillport ${command}`;
}

/** Runs the command line `argv` (without node and script) and returns the exit code. */
export async function run(argv: string[], io: CliIo, env: Record<string, string | undefined> = {}): Promise<number> {
  // serve --log-format json: a failure is an entry like the others, so the pipeline reading them sees why it stopped.
  let json = false;
  // Every failure names the command it ended (`skillport list: ...`): one message can come from several.
  let failed: CommandName | undefined;
  try {
    const invocation = parse(argv);
    const { command, values } = invocation;
    failed = command;
    json = command === 'serve' && values['log-format'] === 'json';
    if (values.help) {
      io.stdout.write(command === undefined || command === 'help' ? help(invocation.args) : commandHelp(command));
      return 0;
    }
    // No command is left only for `skillport --version` (and --help, above).
    if (values.version || command === undefined) {
      io.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    return await dispatch({ ...invocation, command }, io, env);
  } catch (error) {
    if (error instanceof UsageError) {
      const more = error.command === undefined ? 'Run "skillport help" for the commands.' : `Run "skillport help ${error.command}" for its options.`;
      io.stderr.write(`${who(error.command)}: ${escapeControls(error.message)}\n\n${usageLine(error.command)}\n${more}\n`);
      return 2;
    }
    // Loaders' and git's errors name files and quote far ends.
    const message = error instanceof Error ? error.message : String(error);
    if (json) createStderrLogger('error', (line) => io.stderr.write(line), 'json').error(message);
    else printLine(io.stderr, `${who(failed)}: ${message}`);
    return 1;
  }
}

/**
 * The command line to show instead of `argv` when it holds credentials
 * (undefined when it holds none): the user and password of a git source, and
 * of any URL, as `***`, and the value of `--auth-token`. A secret on
 * skillport's command line is readable by every user of the host (`ps`,
 * /proc/PID/cmdline) for as long as it runs; `main` shows this instead as
 * soon as it starts (before that, from exec on, it is still visible:
 * docs/git-sources.md, "Safety", says how to keep credentials off the command line, and
 * `SKILLPORT_AUTH_TOKEN` takes the token).
 */
export function shownArguments(argv: readonly string[]): string | undefined {
  const shown = argv.map((arg, i) => {
    if (argv[i - 1] === '--auth-token') return '***';
    if (arg.startsWith('--auth-token=')) return '--auth-token=***';
    return isGitSource(arg) ? redactSource(arg) : redactCredentials(arg);
  });
  return shown.some((arg, i) => arg !== argv[i]) ? ['skillport', ...shown].join(' ') : undefined;
}

/** Entry point of the bin script. */
export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const title = shownArguments(argv);
  if (title !== undefined) process.title = title;
  const code = await run(
    argv,
    {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      stderrIsTty: process.stderr.isTTY === true,
      stdinIsTty: process.stdin.isTTY === true,
      leanHeap: leanHeapAllowed(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS),
      onShutdownSignal(handler) {
        process.once('SIGINT', handler);
        process.once('SIGTERM', handler);
      },
    },
    process.env,
  );
  // Let stdout drain before exiting, so the last responses are not cut off.
  process.stdout.write('', () => process.exit(code));
}
