/**
 * Command-line parsing on node:util parseArgs, with the usage errors the CLI
 * maps to exit code 2. Every command's options are parsed by one table
 * ({@link OPTIONS}); which of them a command accepts is its own list in
 * `usage.ts`, checked by {@link parse} from the tokens, so a flag given to a
 * command it does not apply to is an error rather than ignored.
 */
import { parseArgs } from 'node:util';
import { notAnOptionOf, refusal } from './parse-errors.js';
import { COMMANDS, type CommandName, isCommand, type OptionName } from './usage.js';

/** A mistake in how the command was called: exit code 2, and the usage of `command` (or of skillport). */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly command: CommandName | undefined;

  constructor(message: string, command?: CommandName) {
    super(message);
    this.command = command;
  }
}

/** Every option any command accepts. */
export const OPTIONS = {
  dir: { type: 'string', multiple: true },
  http: { type: 'string' },
  watch: { type: 'boolean' },
  'no-tools': { type: 'boolean' },
  'no-page': { type: 'boolean' },
  prefix: { type: 'string' },
  name: { type: 'string' },
  title: { type: 'string' },
  instructions: { type: 'string' },
  arg: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  strict: { type: 'boolean' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'page-size': { type: 'string' },
  'auth-token': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scope': { type: 'string', multiple: true },
  'auth-claim': { type: 'string' },
  'auth-introspection': { type: 'string' },
  'auth-client-id': { type: 'string' },
  'auth-client-secret-env': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-host': { type: 'string', multiple: true },
  'pull-interval': { type: 'string' },
  'cache-dir': { type: 'string' },
  'index-origin': { type: 'string', multiple: true },
  'index-insecure-http': { type: 'boolean' },
  'hook-secret-env': { type: 'string' },
  redis: { type: 'string' },
  metrics: { type: 'string' },
  to: { type: 'string' },
  force: { type: 'boolean' },
  'token-env': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  'no-index': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies Record<OptionName, unknown>;

function parseRaw(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS, tokens: true });
  } catch (error) {
    const { message, command } = refusal(argv, OPTIONS, (error as Error).message);
    throw new UsageError(message, command);
  }
}

export type Values = ReturnType<typeof parseRaw>['values'];

/** A command line, sorted out. */
export interface Invocation {
  /** The command, `serve` when none is named; undefined for `skillport --help` and `--version` alone. */
  command: CommandName | undefined;
  /** Positionals after the command that are not folders (`get NAME`, `complete NAME ARG VALUE`, `help COMMAND`). */
  args: string[];
  /**
   * The folders, in command-line order: every `--dir`, and for the commands
   * that take positional folders (serve, list, check) every positional.
   */
  folders: string[];
  values: Values;
}

/**
 * Parses argv: unknown flags, and flags the command does not accept, are
 * usage errors. `--help` and `--version` apply to every command.
 */
export function parse(argv: string[]): Invocation {
  const { values, positionals, tokens } = parseRaw(argv);
  const named = positionals[0];
  if (named !== undefined && !isCommand(named)) throw new UsageError(`Unknown command "${named}"`);
  // `skillport --help` is skillport's help, not serve's.
  const command = named ?? (values.help || values.version ? undefined : 'serve');
  if (command === undefined) return { command, args: [], folders: [], values };
  const spec = COMMANDS[command];
  const folders: string[] = [];
  const args: string[] = [];
  let seenCommand = named === undefined;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!seenCommand) seenCommand = true;
      else if (spec.positionalFolders) folders.push(token.value);
      else args.push(token.value);
    } else if (token.kind === 'option') {
      const name = token.name as OptionName;
      // With --help the command's help is what was asked for, whatever else is there.
      if (name !== 'help' && name !== 'version' && !(name in spec.options) && !values.help) {
        throw new UsageError(notAnOptionOf(token.rawName, name, command), command);
      }
      if (name === 'dir' && token.value !== undefined) folders.push(token.value);
    }
  }
  return { command, args, folders, values };
}

/**
 * `k=v` pairs from repeated `--arg` flags. A name given twice is an error:
 * which of the two values was meant cannot be told.
 */
export function keyValues(pairs: readonly string[] | undefined, command: CommandName): Record<string, string> {
  const out = new Map<string, string>();
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--arg expects name=value, got "${pair}"`, command);
    const name = pair.slice(0, at);
    if (out.has(name)) throw new UsageError(`--arg ${name} is given twice`, command);
    out.set(name, pair.slice(at + 1));
  }
  // fromEntries defines own properties: a name such as __proto__ stays a plain key.
  return Object.fromEntries(out);
}

/** A positive integer option. */
export function positiveInteger(value: string | undefined, flag: string, command: CommandName): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`, command);
  return n;
}

/** A whole number of seconds, zero allowed, as milliseconds. */
export function seconds(value: string | undefined, flag: string, command: CommandName): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0 || n > 86_400 * 365)
    throw new UsageError(`${flag} must be a whole number of seconds (0 turns it off)`, command);
  return n * 1000;
}

/** `HOST:PORT` (IPv6 hosts in brackets); a bare port means 127.0.0.1. */
export function hostPort(value: string, flag = '--http'): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${flag} expects HOST:PORT, got "${value}"`, 'serve');
  const host = match[1] ?? '127.0.0.1';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}
