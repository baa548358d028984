/**
 * A whole cluster for a test: one Redis, three skillport replicas on a copy
 * of the bundled skills (the first watches the folder, the others learn of
 * changes only through Redis) or on a source the test gives (a git URL), or
 * three replicas of a server script the test gives, and
 * nginx in front, on deploy/'s configuration: sticky by Mcp-Session-Id,
 * round-robin for requests without one. `stop` ends them all and removes the
 * temporary folder, whatever state they are in.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../_stdio-client.js';
import { createReplica, type Replica, type Started, startNginx, startRedis, tempDir } from './_processes.js';

/** Shared by every replica, so any of them opens another's input-required state. */
export const REQUEST_STATE_KEY = 'cluster test key, thirty-two bytes or more';
export const PAGE_SIZE = 2;

export interface Cluster {
  /** The folder or source the replicas serve. */
  folder: string;
  /** The temporary folder holding Redis's, nginx's and the test's files. */
  dir: string;
  redis: Started & { url: string };
  replicas: Replica[];
  nginx: Started & { url: string; accessLog(): string[] };
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** What every replica serves (a folder or a git source); default a copy of the bundled skills, watched by the first. */
  source?: string;
  /** Flags of replica `index` (0, 1, 2), after the defaults; default `--watch` for the first with the default source. */
  args?: (index: number, dir: string) => string[];
  /** Environment of every replica, besides the shared request-state key. */
  env?: Record<string, string>;
  /** A server script each replica runs instead of the CLI (`createReplica`'s `script`); `args` are its own flags. */
  script?: string;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = tempDir('skillport-cluster-');
  let folder = options.source;
  if (folder === undefined) {
    folder = join(dir.path, 'skills');
    cpSync(`${ROOT}skills`, folder, { recursive: true });
  }
  const watchFirst = options.source === undefined && options.script === undefined;
  const argsOf = options.args ?? ((i: number) => (i === 0 && watchFirst ? ['--watch'] : []));
  const started: Started[] = [];
  const stop = async (): Promise<void> => {
    for (const one of started.reverse()) await one.stop().catch(() => {});
    dir.cleanup();
  };
  try {
    mkdirSync(join(dir.path, 'redis'));
    const redis = await startRedis(join(dir.path, 'redis'));
    started.push(redis);
    const replicas: Replica[] = [];
    for (let i = 0; i < 3; i++) {
      const replica = await createReplica({
        source: folder,
        redis: redis.url,
        args: options.script ? argsOf(i, dir.path) : ['--page-size', String(PAGE_SIZE), ...argsOf(i, dir.path)],
        env: { ...options.env, SKILLPORT_REQUEST_STATE_KEY: REQUEST_STATE_KEY },
        ...(options.script ? { script: options.script } : {}),
      });
      started.push(replica);
      await replica.start();
      replicas.push(replica);
    }
    mkdirSync(join(dir.path, 'nginx'));
    const nginx = await startNginx(
      join(dir.path, 'nginx'),
      replicas.map((r) => r.port),
    );
    started.push(nginx);
    return { folder, dir: dir.path, redis, replicas, nginx, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The replicas (by `127.0.0.1:PORT`) that nginx sent `method` requests to, in
 * access-log lines; with `session`, only the requests carrying that
 * Mcp-Session-Id (`-`: those carrying none). A request nginx retried names
 * every replica it tried.
 */
export function upstreamsOf(lines: readonly string[], method: string, session?: string): Set<string> {
  const seen = new Set<string>();
  for (const line of lines) {
    const [verb, , id, ...upstreams] = line.split(' ');
    if (verb !== method || (session !== undefined && id !== session)) continue;
    for (const each of upstreams.join('').split(',')) if (each) seen.add(each);
  }
  return seen;
}
