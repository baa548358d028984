/**
 * What every command shares: the process pieces it may use, and how a skills
 * folder becomes a server.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createServer, type Logger, type RequestContext, type Server } from '../index.js';
import {
  buildCatalogue,
  type Catalogue,
  type GitSkillsFolder,
  isGitSource,
  isIndexSource,
  loadGitSkills,
  loadIndexSkills,
  loadSkillsFolder,
  redactSource,
  type SkillsFolder,
  type UseListener,
} from '../skills.js';
import type { Values } from './args.js';
import { UsageError } from './args.js';
import { loadLean } from './heap.js';

/** The process pieces a command may use. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether stderr is a terminal (progress output is drawn only then). */
  stderrIsTty?: boolean;
  /** Whether stdin is a terminal: `serve` over stdio then says it waits for an MCP host, not for typing. */
  stdinIsTty?: boolean;
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
 * Throws a plain message for a folder argument that does not exist or is not
 * a folder, instead of the loader's system error (`ENOENT ... lstat`).
 */
export function requireFolders(dirs: readonly string[]): void {
  for (const dir of dirs) {
    let isDirectory: boolean;
    // What was meant as a repository (`user:password@host:org/repo.git`, ssh's short form) is named without its password.
    const shown = redactSource(dir);
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(`no such folder: ${shown}`);
      throw new Error(`cannot open folder ${shown}: ${(error as Error).message.replaceAll(dir, shown)}`);
    }
    if (!isDirectory) throw new Error(`not a folder: ${shown}`);
  }
}

/** How a git or index source is fetched: the command's flags and environment. */
export interface GitSettings {
  /** Where checkouts go (--cache-dir; else $XDG_CACHE_HOME/skillport/git; else the library's default). */
  cacheDir?: string;
  /** --pull-interval, in ms (0: never); only serve polls. */
  pullIntervalMs?: number;
  env: Record<string, string | undefined>;
  /** With an index source: other origins its artifacts may come from (--index-origin). */
  allowOrigins?: readonly string[];
  /** With an index source: plain http from other hosts than this one (--index-insecure-http). */
  allowHttp?: boolean;
}

/**
 * The git repository or discovery index among the folders, if one is: such
 * a URL must be the only source, since its catalogue is swapped whole for
 * each commit or index.
 */
export function gitSourceOf(folders: readonly string[], command: 'serve' | 'list' | 'get' | 'complete' | 'check'): string | undefined {
  const remote = folders.filter(isGitSource);
  if (remote.length === 0) return undefined;
  if (folders.length > 1) throw new UsageError('a git repository or index URL must be the only source', command);
  return remote[0];
}

/**
 * The cache folder the CLI uses for a git (`git`) or index (`index`) source:
 * --cache-dir, else under $XDG_CACHE_HOME (XDG Base Directory spec), else the library's default.
 */
export function gitCacheDir(flag: string | undefined, env: Record<string, string | undefined>, source?: string): string | undefined {
  if (flag !== undefined) return flag;
  // XDG Base Directory Specification: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  return xdg?.startsWith('/') ? join(xdg, 'skillport', source !== undefined && isIndexSource(source) ? 'index' : 'git') : undefined;
}

/**
 * How the git or index `source` (undefined: folders) is fetched, from the
 * command's flags; a flag that applies to no source given is a usage error.
 */
export function remoteSettings(
  source: string | undefined,
  values: { 'cache-dir'?: string | undefined; 'index-origin'?: string[] | undefined; 'index-insecure-http'?: boolean | undefined },
  env: Record<string, string | undefined>,
  command: 'serve' | 'list' | 'get' | 'complete' | 'check',
): GitSettings {
  if (source === undefined && values['cache-dir'] !== undefined) throw new UsageError('--cache-dir applies only to a git or index source', command);
  const index = source !== undefined && isIndexSource(source);
  const given = (['index-origin', 'index-insecure-http'] as const).find((key) => values[key] !== undefined);
  if (!index && given !== undefined) throw new UsageError(`--${given} applies only to an index source (an https:// URL)`, command);
  const cacheDir = gitCacheDir(values['cache-dir'], env, source);
  return {
    env,
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    ...(values['index-origin'] !== undefined ? { allowOrigins: values['index-origin'] } : {}),
    ...(values['index-insecure-http'] === true ? { allowHttp: true } : {}),
  };
}

/** How the server presents itself to clients; the defaults are skillport's. */
/** What the folder tells of its life, for metrics (cli/commands/serve-metrics.ts). */
export interface FolderHooks {
  onUse?: UseListener;
  onReload?: (ok: boolean) => void;
  onFetch?: (ok: boolean) => void;
}

export interface ServerIdentity {
  name?: string;
  title?: string;
  /** An empty string sends none. */
  instructions?: string;
}

/** Loads folders (the bundled skills when none) and builds a server over them. */
export async function skillsServer(
  dirs: readonly string[],
  options: {
    watch?: boolean;
    prefix?: string;
    logger: Logger;
    pageSize?: number;
    leanHeap?: boolean;
    identity?: ServerIdentity;
    tools?: boolean;
    /** Seals input-required request state; replicas share it (SKILLPORT_REQUEST_STATE_KEY). */
    requestStateKey?: string;
    /** With a git or index source among `dirs` (see {@link gitSourceOf}): how it is fetched. */
    git?: GitSettings;
    /** Told of skill uses, reloads and fetches (`serve --metrics`). */
    hooks?: FolderHooks;
  },
): Promise<{ server: Server; folder: SkillsFolder | GitSkillsFolder }> {
  const remote = dirs.find(isGitSource);
  if (remote === undefined) requireFolders(dirs);
  const common = {
    logger: options.logger,
    tools: options.tools ?? true,
    ...options.hooks,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
  };
  const fetched = { pullIntervalMs: options.git?.pullIntervalMs ?? 0, ...(options.git?.cacheDir !== undefined ? { cacheDir: options.git.cacheDir } : {}) };
  const load = (): Promise<SkillsFolder | GitSkillsFolder> =>
    remote === undefined
      ? loadSkillsFolder(dirs.length > 0 ? dirs : [BUNDLED_SKILLS], { ...common, watch: options.watch ?? false })
      : isIndexSource(remote)
        ? loadIndexSkills(remote, {
            ...common,
            ...fetched,
            ...(options.git?.allowOrigins ? { allowOrigins: options.git.allowOrigins } : {}),
            allowHttp: options.git?.allowHttp === true,
          })
        : loadGitSkills(remote, { ...common, ...fetched, env: options.git?.env ?? {} });
  const folder = options.leanHeap ? await loadLean(load) : await load();
  const name = options.identity?.name ?? 'skillport';
  // The folder's own instructions say how its skills are reached (with the tools, how to load one).
  const instructions = options.identity?.instructions ?? folder.instructions;
  const server = createServer({
    name,
    // Clients show the title over the name: a server given only a name is shown by it.
    title: options.identity?.title ?? name,
    version: packageVersion(),
    ...(instructions !== '' ? { instructions } : {}),
    prompts: folder.prompts,
    resources: folder.resources,
    skills: folder.skills,
    ...(folder.tools ? { tools: folder.tools } : {}),
    logger: options.logger,
    // A folder's prompts, resources and skill tools send no log messages: no `logging` capability
    // declared that nothing uses (2026-07-28 deprecates protocol logging, SEP-2577).
    logging: false,
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.requestStateKey !== undefined ? { requestStateKey: options.requestStateKey } : {}),
  });
  return { server, folder };
}

/**
 * The catalogue of one source (a folder, or a git repository or discovery
 * index fetched once), read without a server, and how to let it go (a git
 * checkout or the index's verified artifacts are removed).
 */
export async function openCatalogue(
  source: string,
  values: Pick<Values, 'cache-dir'>,
  env: Record<string, string | undefined>,
  command: 'install',
): Promise<{ catalogue: Catalogue; close(): Promise<void> }> {
  if (!isGitSource(source)) {
    if (values['cache-dir'] !== undefined) throw new UsageError('--cache-dir applies only to a git or index source', command);
    requireFolders([source]);
    return { catalogue: await buildCatalogue([source]), close: async () => {} };
  }
  const cacheDir = gitCacheDir(values['cache-dir'], env, source);
  const once = { pullIntervalMs: 0, tools: false, ...(cacheDir !== undefined ? { cacheDir } : {}) };
  const folder = isIndexSource(source) ? await loadIndexSkills(source, once) : await loadGitSkills(source, { ...once, env });
  return { catalogue: folder.catalogue, close: () => folder.close() };
}

/** A request context for commands that call the engine directly. */
export function commandContext(logger: Logger): RequestContext {
  return { signal: new AbortController().signal, logger };
}
