/**
 * The `skillport` command. `run` is pure apart from the streams it is given
 * and returns an exit code (0 ok, 1 failure, 2 usage); `main` is the only
 * place that touches process.argv, signals and process.exit.
 */
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createDemoServer } from '../example/demo.js';
import { SUPPORTED_VERSIONS } from '../index.js';
import { serveStdio } from '../stdio.js';
import { createStderrLogger, LOG_LEVELS, type LogLevel } from './logger.js';

/** The process pieces a command may use. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Registers a handler for SIGINT and SIGTERM. */
  onShutdownSignal(handler: () => void): void;
}

const USAGE = `Usage: skillport <command> [options]

Commands:
  serve            Serve the bundled example prompts over stdio (the default)

Options:
  --log-level L    debug | info | warn | error | silent (default: info), to stderr
  --page-size N    Items per page of list results (default: 50)
  -h, --help       Show this help
  -v, --version    Show the version

Protocol revisions: ${SUPPORTED_VERSIONS.join(', ')}
`;

class UsageError extends Error {
  override name = 'UsageError';
}

function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'log-level': { type: 'string', default: 'info' },
        'page-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function serve(values: ReturnType<typeof parse>['values'], io: CliIo): Promise<number> {
  const level = values['log-level'] as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  let pageSize: number | undefined;
  if (values['page-size'] !== undefined) {
    pageSize = Number(values['page-size']);
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new UsageError('--page-size must be a positive integer');
  }
  const logger = createStderrLogger(level, (line) => io.stderr.write(line));
  const server = createDemoServer({ version: packageVersion(), logger, ...(pageSize ? { pageSize } : {}) });
  await server.prompts();
  const running = serveStdio(server, { input: io.stdin, output: io.stdout, logger });
  io.onShutdownSignal(() => void running.shutdown());
  logger.info(`serving ${server.info.name} over stdio (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
  await running.done;
  server.close();
  return 0;
}

/** Runs the command line `argv` (without node and script) and returns the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
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
    if (command !== 'serve') throw new UsageError(`Unknown command "${command}"`);
    if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}"`);
    return await serve(values, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`skillport: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr.write(`skillport: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

/** Entry point of the bin script. */
export async function main(): Promise<void> {
  const code = await run(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onShutdownSignal(handler) {
      process.once('SIGINT', handler);
      process.once('SIGTERM', handler);
    },
  });
  // Let stdout drain before exiting, so the last responses are not cut off.
  process.stdout.write('', () => process.exit(code));
}
