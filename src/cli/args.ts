/**
 * Command-line parsing on node:util parseArgs, with the usage errors the CLI
 * maps to exit code 2.
 */
import { parseArgs } from 'node:util';

/** A mistake in how the command was called: exit code 2 and the usage text. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Every option any command accepts; each command checks which apply. */
export const OPTIONS = {
  http: { type: 'string' },
  watch: { type: 'boolean' },
  prefix: { type: 'string' },
  dir: { type: 'string', multiple: true },
  arg: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  strict: { type: 'boolean' },
  'log-level': { type: 'string' },
  'page-size': { type: 'string' },
  'auth-token': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-host': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export type Values = ReturnType<typeof parse>['values'];

/** Parses argv; unknown flags are usage errors. */
export function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `k=v` pairs from repeated `--arg` flags. */
export function keyValues(pairs: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--arg expects name=value, got "${pair}"`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** A positive integer option. */
export function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`);
  return n;
}

/** `HOST:PORT` (IPv6 hosts in brackets); a bare port means 127.0.0.1. */
export function hostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http expects HOST:PORT, got "${value}"`);
  const host = match[1] ?? '127.0.0.1';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}
