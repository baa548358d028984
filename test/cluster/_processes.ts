/**
 * The real components of the cluster tests, each started from a generated
 * config in a temporary folder on a free 127.0.0.1 port and stopped by the
 * test (also when it fails): redis-server (no persistence), skillport
 * replicas (the built CLI), and nginx as a round-robin load balancer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
}

export async function createReplica(options: ReplicaOptions): Promise<Replica> {
  const port = await freePort();
  const log: string[] = [];
  let child: ChildProcess | undefined;
  const args = [CLI, 'serve', options.source, '--http', `127.0.0.1:${port}`, '--redis', options.redis, '--log-level', 'info', ...(options.args ?? [])];
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

/**
 * nginx in front of `ports`: round-robin, no buffering (SSE passes through
 * as written), long read timeouts for streams, and a retry on the next
 * replica when one cannot be reached or fails before answering.
 * `non_idempotent` lets it retry POSTs too: every MCP method skillport
 * serves only reads, so sending one twice is harmless.
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
  # Which replica answered each request: the tests prove the balancer spread them.
  log_format upstream '$request_method $status $upstream_addr';
  access_log ${dir}/access.log upstream;
  # Bodies stay in memory: run as root, nginx's workers are another user that cannot enter the temp folder.
  client_body_buffer_size 1m;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream skillport {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://skillport;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 3;
    }
  }
}
`;
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await until('nginx to answer', async () => {
    if (child.exitCode !== null) throw new Error('nginx exited');
    return answers(`http://127.0.0.1:${port}/healthz`);
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    // Lines `METHOD STATUS UPSTREAM[, UPSTREAM...]`, oldest first.
    accessLog: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean) : []),
    stop: () => end(child, 'SIGQUIT'),
  };
}
