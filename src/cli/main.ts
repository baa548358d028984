/**
 * The `skillport` command. `run` is pure apart from the streams it is given
 * and returns an exit code (0 ok, 1 failure, 2 usage); `main` is the only
 * place that touches process.argv, process.env, signals and process.exit.
 */
import { SUPPORTED_VERSIONS } from '../index.js';
import { parse, UsageError } from './args.js';
import { check } from './commands/check.js';
import { complete, get, list } from './commands/inspect.js';
import { serve } from './commands/serve.js';
import { type CliIo, packageVersion } from './context.js';

export type { CliIo } from './context.js';

const USAGE = `Usage: skillport <command> [options]

Commands:
  serve [DIR...]             Serve skills folders as MCP prompts and resources (default: the bundled skills)
  list [DIR...]              List the prompts a folder yields
  get NAME [--arg k=v]...    Print a prompt's text
  complete NAME ARG [VALUE]  Print completions for a prompt argument (--arg k=v gives the other arguments)
  check [DIR...]             Lint skills folders; exit 1 on errors

Options:
  --http HOST:PORT   serve: Streamable HTTP instead of stdio (e.g. 127.0.0.1:3000)
  --watch            serve: reload when files change and notify clients
  --prefix P         Prefix of shared reference prompts (default: the folder's name)
  --dir DIR          get, complete: the folder to read (repeatable; default: the bundled skills)
  --json             list, get, complete, check: JSON output
  --strict           check: warnings fail too
  --log-level L      serve: debug | info | warn | error | silent (default: info), to stderr
  --page-size N      serve: items per page of list results (default: 50)
  --auth-token T     serve --http: require this bearer token (or SKILLPORT_AUTH_TOKEN)
  --allow-origin O   serve --http: the Origins browsers may call from (repeatable; replaces the
                     default of localhost origins; * allows any)
  --allow-host H     serve --http: the Host names accepted (repeatable; replaces the default of
                     localhost names; needed when serving beyond this machine; * allows any)
  -h, --help         Show this help
  -v, --version      Show the version

Protocol revisions: ${SUPPORTED_VERSIONS.join(', ')}
`;

/** Runs the command line `argv` (without node and script) and returns the exit code. */
export async function run(argv: string[], io: CliIo, env: Record<string, string | undefined> = {}): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (values.version) {
      io.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    const [command = 'serve', ...rest] = positionals;
    switch (command) {
      case 'serve':
        return await serve(rest, values, io, env);
      case 'list':
        return await list(rest, values, io);
      case 'get':
        return await get(rest, values, io);
      case 'complete':
        return await complete(rest, values, io);
      case 'check':
        return await check(rest, values, io);
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`skillport: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr.write(`skillport: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * Whether this V8 is one the CLI's heap flags were checked on (11.x: Node 20
 * and 21, 12.x: Node 22 and 23). V8 flags are no stable interface, and V8
 * prints an error on stderr for one it does not know, so elsewhere none is set.
 */
function v8FlagsKnown(): boolean {
  const major = Number(process.versions.v8.split('.')[0]);
  return major >= 11 && major <= 12;
}

/** Entry point of the bin script. */
export async function main(): Promise<void> {
  const code = await run(
    process.argv.slice(2),
    {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      stderrIsTty: process.stderr.isTTY === true,
      // Not when the process was started with young-generation settings of its own.
      leanHeap: v8FlagsKnown() && ![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /semi[-_]space/.test(a)),
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
