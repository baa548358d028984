/**
 * deploy/ says only what `serve` reads, checked against the source rather
 * than a list kept here: the command lines (compose.yaml and the Deployment)
 * are parsed by the CLI's own parser, so a flag it does not know, or one
 * that does not apply to serve, fails; every environment variable set is one
 * src/cli reads (or one an argument or a `--*-env` flag names); probes and
 * health checks use the health routes' paths on the port of `--http`; and
 * nginx forwards exactly the paths of the server's route table, with the
 * server's body caps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostPort, parse } from '../../src/cli/args.js';
import { createServer } from '../../src/index.js';
import { discoveryRoutes } from '../../src/skills.js';
import { createAuthGate } from '../../src/transport/http/auth/gate.js';
import { createUserRoutes } from '../../src/transport/http/extra-routes.js';
import { createGitHook, DEFAULT_HOOK_BODY_BYTES, GIT_HOOK_PATH } from '../../src/transport/http/git-hook.js';
import { HEALTH_PATH, READY_PATH } from '../../src/transport/http/health.js';
import type { HttpOptions } from '../../src/transport/http/options.js';
import { routeTable } from '../../src/transport/http/routes.js';
import { serveHttp } from '../../src/transport/http/serve.js';
import { DEFAULT_DRAIN_TIMEOUT_MS } from '../../src/transport/lifecycle.js';
import { ROOT } from '../_stdio-client.js';
import { compose, envFileNames, manifestOf, nginxText } from './_deploy.js';

const server = createServer({ name: 'deploy-test', version: '1.0.0' });
afterAll(() => server.close());

/** Every environment variable src/cli reads by name (`env.NAME`, `env['NAME']`): what serve can be configured with. */
function variablesTheCliReads(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g))
          names.add((match[1] ?? match[2]) as string);
      }
    }
  };
  walk(join(ROOT, 'src', 'cli'));
  return names;
}

/** One skillport container as deployed: its command line after the program, and the variables its environment gets. */
interface Launch {
  where: string;
  argv: string[];
  env: string[];
}

const PROGRAM = ['node', '/app/bin/skillport.js'];
const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

function kubernetesLaunch(): Launch & { container: Record<string, unknown>; pod: Record<string, unknown> } {
  const pod = at(manifestOf('Deployment'), 'spec', 'template', 'spec') as Record<string, unknown>;
  const container = (pod.containers as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
  expect(container.command).toEqual(PROGRAM);
  const configMap = manifestOf('ConfigMap');
  const env = [
    ...(container.env as Array<{ name: string }>).map((v) => v.name),
    // envFrom: every key of the ConfigMap becomes a variable.
    ...Object.keys(configMap.data as Record<string, string>),
  ];
  return { where: 'deploy/kubernetes/deployment.yaml', argv: container.args as string[], env, container, pod };
}

function composeLaunches(): Launch[] {
  return Object.entries(compose().services)
    .filter(([, service]) => service.entrypoint !== undefined)
    .map(([name, service]) => {
      expect(service.entrypoint, name).toEqual(PROGRAM);
      const env = [...Object.keys(service.environment ?? {}), ...(service.env_file ? envFileNames(`${service.env_file}.example`) : [])];
      return { where: `deploy/compose.yaml ${name}`, argv: service.command as string[], env };
    });
}

function launches(): Launch[] {
  return [kubernetesLaunch(), ...composeLaunches()];
}

/** The port of `--http` in a launch, as the CLI reads it. */
function portOf(launch: Launch): number {
  return hostPort(parse(launch.argv).values.http as string).port;
}

describe('deploy/ runs serve as the CLI reads it', () => {
  it('runs three skillport replicas in compose.yaml and the Deployment', () => {
    expect(composeLaunches()).toHaveLength(3);
    expect(at(manifestOf('Deployment'), 'spec', 'replicas')).toBe(3);
  });

  it.each(launches().map((launch) => [launch.where, launch] as const))(
    '%s: flags serve takes, with --http, --trust-proxy and --allow-host',
    (_where, launch) => {
      const invocation = parse(launch.argv);
      expect(invocation.command).toBe('serve');
      expect(invocation.folders).toHaveLength(1);
      expect(invocation.values['trust-proxy']).toBe(true);
      expect(invocation.values['allow-host']).toHaveLength(1);
      expect(hostPort(invocation.values.http as string)).toEqual({ host: '0.0.0.0', port: portOf(launch) });
    },
  );

  it.each(launches().map((launch) => [launch.where, launch] as const))('%s: environment variables serve reads', (_where, launch) => {
    const read = variablesTheCliReads();
    const values = parse(launch.argv).values as Record<string, unknown>;
    // Variables an argument expands (Kubernetes `$(NAME)`) or a --*-env flag names are used too.
    const used = new Set([
      ...launch.argv.flatMap((arg) => [...arg.matchAll(/\$\(([A-Z0-9_]+)\)/g)].map((m) => m[1] as string)),
      ...Object.entries(values)
        .filter(([flag]) => flag.endsWith('-env'))
        .map(([, name]) => name as string),
    ]);
    for (const name of launch.env) expect(read.has(name) || used.has(name), `${name} is read by neither serve nor an argument`).toBe(true);
    // What replicas must share, under the names serve reads.
    for (const name of ['SKILLPORT_REDIS_URL', 'SKILLPORT_REQUEST_STATE_KEY', 'SKILLPORT_HOOK_SECRET']) {
      expect(read, name).toContain(name);
      expect(launch.env, name).toContain(name);
    }
  });

  it('probes the health routes on the Deployment’s --http port, named http for the Service', () => {
    const { container, pod, ...launch } = kubernetesLaunch();
    const port = portOf(launch);
    expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
    const probe = (name: string) => at(container, name, 'httpGet');
    expect(probe('readinessProbe')).toEqual({ path: READY_PATH, port: 'http' });
    expect(probe('livenessProbe')).toEqual({ path: HEALTH_PATH, port: 'http' });
    expect(probe('startupProbe')).toEqual({ path: HEALTH_PATH, port: 'http' });
    expect(at(manifestOf('Service'), 'spec', 'ports')).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    // preStop, then the drain after SIGTERM, both inside the grace period.
    const preStop = (at(container, 'lifecycle', 'preStop', 'exec', 'command') as string[]).join(' ');
    const preStopMs = Number(/setTimeout\(\(\) => \{\}, (\d+)\)/.exec(preStop)?.[1]);
    expect(preStopMs).toBeGreaterThan(0);
    expect((pod.terminationGracePeriodSeconds as number) * 1000).toBeGreaterThan(preStopMs + DEFAULT_DRAIN_TIMEOUT_MS);
  });

  it('checks readiness on compose’s --http port, which nginx’s upstream names', () => {
    const services = Object.entries(compose().services).filter(([, service]) => service.entrypoint !== undefined);
    const upstream = [...nginxText('compose/upstream.conf').matchAll(/^\s*server\s+([^:\s]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstream.sort()).toEqual(services.map(([name, service]) => `${name}:${portOf({ where: name, argv: service.command as string[], env: [] })}`).sort());
    for (const [name, service] of services) {
      const port = portOf({ where: name, argv: service.command as string[], env: [] });
      expect(service.healthcheck?.test.join(' '), name).toContain(`fetch('http://127.0.0.1:${port}${READY_PATH}')`);
      expect(Number.parseInt(service.stop_grace_period as string, 10) * 1000, name).toBeGreaterThan(DEFAULT_DRAIN_TIMEOUT_MS);
    }
  });
});

/** `location = PATH { ... }` blocks of the nginx configuration, by path. */
function exactLocations(text: string): Map<string, string> {
  return new Map([...text.matchAll(/location\s*=\s*(\S+)\s*\{([^}]*)\}/g)].map((m) => [m[1] as string, m[2] as string]));
}

/** The `location ^~ PREFIX { ... }` blocks (a prefix that no regex location overrides), by prefix. */
function prefixLocations(text: string): Map<string, string> {
  return new Map([...text.matchAll(/location\s*\^~\s*(\S+)\s*\{([^}]*)\}/g)].map((m) => [m[1] as string, m[2] as string]));
}

/** An nginx size (`4m`, `1k`, `512`) in bytes. */
function bytes(size: string): number {
  const unit = { k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 }[size.slice(-1).toLowerCase()];
  return unit ? Number(size.slice(0, -1)) * unit : Number(size);
}

/**
 * The paths a fully configured `serve --http` answers: the server's route
 * table with what the CLI can turn on (a git webhook, OAuth's metadata), at
 * the endpoint path serveHttp uses when the CLI names none.
 */
async function servedPaths(): Promise<string[]> {
  const running = await serveHttp(server, { port: 0 });
  const path = running.url.pathname;
  await running.close();
  const options: HttpOptions = {
    routes: {
      [GIT_HOOK_PATH]: createGitHook({ secret: 'deploy test', onHook: () => {} }),
      // On unless --no-index; its folder is read only when a request comes.
      ...discoveryRoutes({
        get catalogue(): never {
          throw new Error('not asked for');
        },
      }),
    },
    oauth: { issuer: 'https://issuer.example' },
  };
  const endpoint = { path, access: 'authorized' as const, answer: () => ({ status: 500, headers: {} }) };
  const gate = createAuthGate(options, path, 'deploy-test', { debug() {}, info() {}, warn() {}, error() {} });
  const table = routeTable({ server, options, path, endpoint, userRoutes: createUserRoutes(options, path), authRoutes: gate.routes, serving: () => true });
  // A prefix route as nginx names a prefix location.
  return table.routes.map((route) => (route.prefix === true ? `^~ ${route.path}` : route.path));
}

describe('deploy/nginx/skillport.conf', () => {
  const text = nginxText('skillport.conf');

  it('forwards exactly the paths the server’s route table serves, each to the upstream, and 404s the rest', async () => {
    const locations = new Map([...exactLocations(text), ...[...prefixLocations(text)].map(([at, block]) => [`^~ ${at}`, block] as const)]);
    expect([...locations.keys()].sort()).toEqual((await servedPaths()).sort());
    const upstream = /upstream\s+(\S+)\s*\{/.exec(text)?.[1];
    for (const [path, block] of locations) expect(block, path).toMatch(new RegExp(`proxy_pass\\s+http://${upstream};`));
    expect(text).toMatch(/location\s+\/\s*\{\s*return\s+404;\s*\}/);
  });

  it('caps bodies as the server does: the endpoint’s message limit, the webhook’s own', () => {
    const outside = text.replace(/location[^{]*\{[^}]*\}/g, '');
    expect(bytes(/client_max_body_size\s+(\S+);/.exec(outside)?.[1] ?? '')).toBe(server.limits.maxMessageBytes);
    const hook = exactLocations(text).get(GIT_HOOK_PATH) ?? '';
    expect(bytes(/client_max_body_size\s+(\S+);/.exec(hook)?.[1] ?? '')).toBe(DEFAULT_HOOK_BODY_BYTES);
  });

  it('streams the endpoint unbuffered and keeps sessions sticky by Mcp-Session-Id', () => {
    const endpoint = exactLocations(text).get('/mcp') ?? '';
    for (const directive of ['proxy_buffering off;', 'proxy_cache off;', 'proxy_read_timeout 1h;']) expect(endpoint).toContain(directive);
    expect(text).toMatch(/hash\s+\$http_mcp_session_id\s+consistent;/);
    expect(text).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    expect(text).toMatch(/proxy_next_upstream\s+error\s+timeout/);
  });
});
