/**
 * What every command shares: the process pieces it may use, and how a skills
 * folder becomes a server.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Readable, Writable } from 'node:stream';
import { createServer, type Logger, type RequestContext, type Server } from '../index.js';
import { loadSkillsFolder, type SkillsFolder } from '../skills.js';

/** The process pieces a command may use. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether stderr is a terminal (progress output is drawn only then). */
  stderrIsTty?: boolean;
  /** Registers a handler for SIGINT and SIGTERM. */
  onShutdownSignal(handler: () => void): void;
  /** Shape V8's heap with flags while a folder loads (see {@link skillsServer}); only where those flags are known. */
  leanHeap?: boolean;
}

/** The skills that ship in the package, served when no folder is given. */
export const BUNDLED_SKILLS = fileURLToPath(new URL('../../skills/', import.meta.url));

export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/**
 * Runs `load` with V8's young generation held at its starting size, then
 * collects what the load left behind.
 *
 * Loading a large folder keeps most of what it allocates, and V8 answers that
 * by doubling the young generation up to its 32 MB ceiling, which then stays
 * resident while the server idles (10,000 skills: about 30 MB of the RSS).
 * What lives on is promoted either way, so the load is no slower. Growth is
 * allowed again afterwards (V8's default factor, 2), so a busy server still
 * sizes its young generation to its traffic.
 *
 * What the load used only while it ran (the folder's scan, outgrown tables)
 * was promoted too, and V8's next full collection would come only once the
 * heap had grown well past it: one full collection now gives those pages back
 * (10,000 skills: about 6 ms, and 4 MB of RSS).
 */
async function loadLean<T>(load: () => Promise<T>): Promise<T> {
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await load();
  } finally {
    // Before growth is allowed again: a full collection also resizes the young generation.
    collectGarbage();
    setFlagsFromString('--semi-space-growth-factor=2');
  }
}

/** One full garbage collection, by the `gc` function V8 gives a new context while `--expose-gc` is set. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Throws a plain message for a folder argument that does not exist or is not
 * a folder, instead of the loader's system error (`ENOENT ... lstat`).
 */
export function requireFolders(dirs: readonly string[]): void {
  for (const dir of dirs) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(`no such folder: ${dir}`);
      throw new Error(`cannot open folder ${dir}: ${(error as Error).message}`);
    }
    if (!isDirectory) throw new Error(`not a folder: ${dir}`);
  }
}

/** How the server presents itself to clients; the defaults are skillport's. */
export interface ServerIdentity {
  name?: string;
  title?: string;
  /** An empty string sends none. */
  instructions?: string;
}

const INSTRUCTIONS = 'Agent Skills served as prompts; every skill file is also a resource under skill://<skill>/<path>.';

/** Loads folders (the bundled skills when none) and builds a server over them. */
export async function skillsServer(
  dirs: readonly string[],
  options: { watch?: boolean; prefix?: string; logger: Logger; pageSize?: number; leanHeap?: boolean; identity?: ServerIdentity },
): Promise<{ server: Server; folder: SkillsFolder }> {
  requireFolders(dirs);
  const load = () =>
    loadSkillsFolder(dirs.length > 0 ? dirs : [BUNDLED_SKILLS], {
      watch: options.watch ?? false,
      logger: options.logger,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    });
  const folder = options.leanHeap ? await loadLean(load) : await load();
  const name = options.identity?.name ?? 'skillport';
  const instructions = options.identity?.instructions ?? INSTRUCTIONS;
  const server = createServer({
    name,
    // Clients show the title over the name: a server given only a name is shown by it.
    title: options.identity?.title ?? name,
    version: packageVersion(),
    ...(instructions !== '' ? { instructions } : {}),
    prompts: folder.prompts,
    resources: folder.resources,
    skills: folder.skills,
    logger: options.logger,
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
  });
  return { server, folder };
}

/** A request context for commands that call the engine directly. */
export function commandContext(logger: Logger): RequestContext {
  return { signal: new AbortController().signal, logger };
}
