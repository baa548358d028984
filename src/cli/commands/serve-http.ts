/**
 * `serve --http`: the Streamable HTTP server with what the flags and the
 * environment ask for (tokens, OAuth, hosts, the git hook, Redis, the
 * transport's metrics, the discovery index), until a shutdown signal.
 */
import { type Logger, type Server, SUPPORTED_VERSIONS } from '../../index.js';
import { cataloguePage, discoveryRoutes, formatIssue, type GitSkillsFolder, type SkillsFolder } from '../../skills.js';
import type { MetricsRegistry } from '../../telemetry.js';
import { type Invocation, UsageError } from '../args.js';
import type { CliIo } from '../context.js';
import { oauthOptions } from './serve-auth.js';
import { bindError, hostsWarned } from './serve-hints.js';
import { shareChanges } from './share-changes.js';

export interface HttpServing {
  server: Server;
  folder: SkillsFolder | GitSkillsFolder;
  values: Invocation['values'];
  env: Record<string, string | undefined>;
  io: CliIo;
  logger: Logger;
  address: { host: string; port: number };
  /** The secret of POST /hooks/git, with a git source. */
  secret: string | undefined;
  /** What is served, for the start-up line. */
  summary: string;
  metrics?: MetricsRegistry;
}

export async function serveOverHttp({ server, folder, values, env, io, logger, address, secret, summary, metrics }: HttpServing): Promise<void> {
  const { host, port } = address;
  const { createGitHook, GIT_HOOK_PATH, serveHttp } = await import('../../http.js');
  // A hook fetches now; the fetch logs its own failures.
  const hook = secret !== undefined && 'sync' in folder ? createGitHook({ secret, onHook: () => void folder.sync().catch(() => {}) }) : undefined;
  const oauth = oauthOptions(values, env);
  const authToken = values['auth-token'] ?? (oauth ? undefined : env.SKILLPORT_AUTH_TOKEN);
  if (authToken && oauth) throw new UsageError('--auth-token and --auth-issuer exclude each other', 'serve');
  const redis = values.redis ?? env.SKILLPORT_REDIS_URL;
  let endpoint: URL | undefined;
  // The page is for people: behind the same gate as the MCP endpoint, and it shows each caller only the skills it may use.
  const page =
    values['no-page'] === true
      ? undefined
      : cataloguePage(folder, {
          url: () => endpoint ?? new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`),
          ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
          ...(values.name ? { name: values.name } : {}),
          ...(values['trust-proxy'] ? { trustProxy: true } : {}),
        });
  // The Agent Skills discovery index, behind the same token or OAuth as /mcp; each request publishes the catalogue served then.
  const index = values['no-index'] ? undefined : discoveryRoutes(folder, { onIssue: (issue) => logger.warn(formatIssue(issue)) });
  const routes = {
    ...(hook ? { [GIT_HOOK_PATH]: hook } : {}),
    ...index,
    ...(page ? { '/': { answer: page, access: 'authorized' as const } } : {}),
  };
  const running = await serveHttp(server, {
    host,
    port,
    logger: hostsWarned(logger, host, values['allow-host']),
    ...(authToken ? { authToken } : {}),
    ...(oauth ? { oauth } : {}),
    ...(values['allow-origin'] ? { allowedOrigins: values['allow-origin'] } : {}),
    ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
    ...(Object.keys(routes).length > 0 ? { routes } : {}),
    ...(redis ? { redis } : {}),
    ...(values['trust-proxy'] ? { trustProxy: true } : {}),
    ...(metrics ? { metrics } : {}),
  }).catch((error: unknown) => {
    throw bindError(error, '--http', values.http ?? '');
  });
  endpoint = running.url;
  // The handler goes in before the line that says it serves: a SIGTERM sent on reading that line
  // could otherwise arrive before it, and the default action would kill the process undrained.
  const stop = new Promise<void>((resolve) => io.onShutdownSignal(() => resolve()));
  const stopSharing = running.changes ? shareChanges(folder, running.changes, logger) : undefined;
  if (hook) logger.info(`accepting push webhooks at ${new URL(GIT_HOOK_PATH, running.url).href}`);
  if (index) logger.info(`publishing the discovery index at ${new URL('/.well-known/agent-skills/index.json', running.url).href}`);
  // Before the line that says it serves, which tests and scripts wait for as the last one.
  if (page) logger.info(`catalogue page for browsers at ${new URL('/', running.url).href}`);
  logger.info(`serving ${summary} at ${running.url.href} (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
  if (oauth) logger.info(`accepting access tokens from ${oauth.issuer} issued for ${oauth.audience ?? running.url.href}`);
  await stop;
  // Said before and after the drain, so a container's log shows a stop that drained, not one that was killed.
  logger.info('stopping: finishing the requests in flight');
  stopSharing?.();
  await running.close();
  logger.info('stopped');
}
