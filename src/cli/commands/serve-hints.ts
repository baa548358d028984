/**
 * What `serve` tells a person at a terminal: that stdio is for an MCP host,
 * not for typing; what to do when an address cannot be bound; and that an
 * address other than loopback needs `--allow-host`. Each says it in the
 * command's flags, where the library's own messages name its options.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../index.js';
import { isGitSource } from '../../skills.js';

/** The bin script of this package, as a host would start it. */
const BIN = fileURLToPath(new URL('../../../bin/skillport.js', import.meta.url));

/** `arg` as a POSIX shell word: quoted unless it is plain. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * The lines `serve` over stdio writes once when stdin is a terminal: it reads
 * JSON-RPC messages there and would otherwise wait in silence for input no
 * person types. The `claude mcp add` line serves the same folders, absolute.
 */
export function stdioTerminalNote(folders: readonly string[]): string {
  const served = folders.map((folder) => (isGitSource(folder) ? folder : resolve(folder)));
  const command = ['node', BIN, 'serve', ...served].map(shellWord).join(' ');
  return [
    'skillport serve speaks MCP on stdin and stdout: an MCP host starts it and talks to it, so typing here does nothing.',
    'To connect Claude Code, run in your project:',
    `  claude mcp add skills -- ${command}`,
    'Other hosts (Claude Desktop, VS Code, Cursor, ...): see "Connect your host" in the README. Serving over HTTP instead: --http PORT.',
    'Stop with Ctrl+C.',
  ].join('\n');
}

/**
 * A plain message, with what to do, for an address `flag` could not bind
 * (`listen EADDRINUSE: address already in use ...` says what, not what now);
 * other errors are returned as they are.
 */
export function bindError(error: unknown, flag: string, given: string): unknown {
  const { code, port } = (error ?? {}) as { code?: string; port?: number };
  switch (code) {
    case 'EADDRINUSE':
      return new Error(`${flag} ${given}: port ${port} is already in use by another program; stop that one, or choose another port (0 picks any free one)`);
    case 'EACCES':
      return new Error(
        `${flag} ${given}: port ${port} is below 1024, which only a privileged process may bind; use a port from 1024 up (e.g. ${flag} 8080), with a reverse proxy on port ${port} if it must be that one`,
      );
    case 'EADDRNOTAVAIL':
      return new Error(`${flag} ${given}: the address is not one of this machine's; use 127.0.0.1, 0.0.0.0 (every interface) or one of its own`);
    default:
      return error;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The logger `serveHttp` is given, and the CLI's own warning first: on an
 * address other than loopback, only localhost `Host` headers are accepted
 * until `--allow-host` names the others. The library's warning says the
 * same in its own option's name (`allowedHosts`), so it is left out.
 */
export function hostsWarned(logger: Logger, host: string, allowHost: readonly string[] | undefined): Logger {
  if (LOOPBACK.has(host) || allowHost !== undefined) return logger;
  logger.warn(
    `listening on ${host}, but only localhost Host headers are accepted: clients that reach it by another name get 403; name them with --allow-host NAME (repeatable; * accepts any)`,
  );
  return {
    ...logger,
    warn: (message, details) => {
      if (!message.includes('allowedHosts')) logger.warn(message, details);
    },
  };
}
