/**
 * The real components of the cluster tests, each started from a generated
 * config in a temporary folder on a free 127.0.0.1 port and stopped by the
 * test (also when it fails): redis-server (no persistence), skillport
 * replicas (the built CLI, or a server script of the test's), and nginx running deploy/'s configuration
 * (sticky by Mcp-Session-Id, round-robin for requests without one).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../_stdio-client.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const NGINX = '/usr/sbin/nginx';
const CLI = `${ROOT}bin/skillport.js`;

/** Something the test started; `stop` is safe to call twice. */
export interface Started {
  stop(): Promise<void>;
}

/** A temporary folder, removed by `cleanup`. */
export function tempDir(prefix: string): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A port free now on 127.0.0.1 (the OS picks it; the caller binds it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `check` every 25 ms until it holds or `timeoutMs` passes (then throws with `what`). */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function answers(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
  await response.arrayBuffer();
  return response.ok;
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Ends a child: `signal`, then SIGKILL after 5 s; resolves when it has exited. */
async function end(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = exitOf(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A running redis-server: `pause` (SIGSTOP) and `resume` (SIGCONT) make a Redis that stalls with its socket open. */
export interface RedisServer extends Started {
  readonly url: string;
  readonly port: number;
  pause(): void;
  resume(): void;
}

/**
 * A redis-server on a free port (or `port`, to start one again where clients
 * expect it): no RDB, no AOF, its files in `dir`; with `password`, clients
 * must give it (the URL carries it).
 */
export async function startRedis(dir: string, options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const auth = options.password === undefined ? [] : ['--requirepass', options.password];
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...auth], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `redis://${options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`}127.0.0.1:${port}`;
  await until('redis-server to accept connections', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      await client.close().catch(() => {});
    }
  });
  return {
    url,
    port,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    // A stopped process takes SIGTERM only once continued.
    stop: () => {
      child.kill('SIGCONT');
      return end(child);
    },
  };
}

/** One `skillport serve` replica (of a folder or a git source) on a fixed port, so it can be restarted where nginx expects it. */
export interface Replica extends Started {
  readonly port: number;
  readonly url: string;
  /** Lines the replica wrote to stderr. */
  readonly log: string[];
  /** The running process's id (undefined before `start`). */
  readonly pid: number | undefined;
  /** Starts it (again) and waits until /readyz answers 200. */
  start(): Promise<void>;
  /** SIGKILL: no drain, no goodbye. */
  kill(): Promise<void>;
}

export interface ReplicaOptions {
  /** What it serves: a folder, or a git source such as `git+file:///…#main`. */
  source: string;
  redis: string;
  args?: string[];
  env?: Record<string, string>;
  /** A server script to run instead of the CLI (`source` unused): given `--port PORT --redis URL`, then `args`. */
  script?: string;
}

export async function createReplica(options: ReplicaOptions): Promise<Replica> {
  const port = await freePort();
  const log: string[] = [];
  let child: ChildProcess | undefined;
  const args = options.script
    ? [options.script, '--port', String(port), '--redis', options.redis, ...(options.args ?? [])]
    : [CLI, 'serve', options.source, '--http', `127.0.0.1:${port}`, '--redis', options.redis, '--log-level', 'info', ...(options.args ?? [])];
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    get pid() {
      return child?.pid;
    },
    async start() {
      child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } });
      child.stderr?.setEncoding('utf8').on('data', (text: string) => log.push(...text.split('\n').filter(Boolean)));
      const running = child;
      await until(`replica on port ${port} to be ready`, async () => {
        if (running.exitCode !== null) throw new Error(`replica exited: ${log.join('\n')}`);
        return answers(`http://127.0.0.1:${port}/readyz`);
      });
    },
    async kill() {
      if (child) await end(child, 'SIGKILL');
    },
    async stop() {
      if (child) await end(child);
    },
  };
}

/** deploy/'s nginx configuration: the upstream and server blocks every deployment runs. */
export const DEPLOY_NGINX_CONF = `${ROOT}deploy/nginx/skillport.conf`;

/**
 * nginx in front of `ports`, running deploy/nginx/skillport.conf itself: this
 * writes only what differs per environment, the outer nginx.conf (pid, logs
 * and temporary folders inside `dir`, so it runs unprivileged and from a
 * temporary folder) and the two files that configuration includes, the
 * listen address and one upstream line per replica.
 */
export async function startNginx(dir: string, ports: readonly number[]): Promise<Started & { url: string; accessLog(): string[] }> {
  const port = await freePort();
  const conf = `
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  # Which replica answered each request, and for which session ("-": none):
  # the tests prove how the balancer spread them.
  log_format upstream '$request_method $status $http_mcp_session_id $upstream_addr';
  access_log ${dir}/access.log upstream;
  # Bodies up to the configuration's 4 MiB cap stay in memory: run as root,
  # nginx's workers are another user that cannot enter the temp folder.
  client_body_buffer_size 4m;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${DEPLOY_NGINX_CONF};
}
`;
  // Relative includes start at the folder of the main configuration file.
  mkdirSync(join(dir, 'skillport'));
  writeFileSync(join(dir, 'skillport', 'listen.conf'), `listen 127.0.0.1:${port};\n`);
  // A replica that fails is left alone for 2 s (then tried again): short, so the tests' restarts rejoin quickly.
  writeFileSync(join(dir, 'skillport', 'upstream.conf'), ports.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;\n`).join(''));
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await until('nginx to answer', async () => {
    if (child.exitCode !== null) throw new Error('nginx exited');
    return answers(`http://127.0.0.1:${port}/healthz`);
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    // Lines `METHOD STATUS SESSION UPSTREAM[, UPSTREAM...]`, oldest first.
    accessLog: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean) : []),
    stop: () => end(child, 'SIGQUIT'),
  };
}
