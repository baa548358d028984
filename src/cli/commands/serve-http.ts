/**
 * `serve --http`: the Streamable HTTP server with what the flags and the
 * environment ask for (tokens, OAuth, hosts, the git hook, Redis, the
 * transport's metrics, the discovery index), until a shutdown signal.
 */
import { type Logger, type Server, SUPPORTED_VERSIONS } from '../../index.js';
import { discoveryRoutes, formatIssue, type GitSkillsFolder, type SkillsFolder } from '../../skills.js';
import type { MetricsRegistry } from '../../telemetry.js';
import { type Invocation, UsageError } from '../args.js';
import type { CliIo } from '../context.js';
import { oauthOptions } from './serve-auth.js';
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
  // The Agent Skills discovery index, behind the same token or OAuth as /mcp; each request publishes the catalogue served then.
  const index = values['no-index'] ? undefined : discoveryRoutes(folder, { onIssue: (issue) => logger.warn(formatIssue(issue)) });
  const routes = { ...(hook ? { [GIT_HOOK_PATH]: hook } : {}), ...index };
  const running = await serveHttp(server, {
    host,
    port,
    logger,
    ...(authToken ? { authToken } : {}),
    ...(oauth ? { oauth } : {}),
    ...(values['allow-origin'] ? { allowedOrigins: values['allow-origin'] } : {}),
    ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
    ...(Object.keys(routes).length > 0 ? { routes } : {}),
    ...(redis ? { redis } : {}),
    ...(values['trust-proxy'] ? { trustProxy: true } : {}),
    ...(metrics ? { metrics } : {}),
  });
  const stopSharing = running.changes ? shareChanges(folder, running.changes, logger) : undefined;
  if (hook) logger.info(`accepting push webhooks at ${new URL(GIT_HOOK_PATH, running.url).href}`);
  if (index) logger.info(`publishing the discovery index at ${new URL('/.well-known/agent-skills/index.json', running.url).href}`);
  logger.info(`serving ${summary} at ${running.url.href} (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
  if (oauth) logger.info(`accepting access tokens from ${oauth.issuer} issued for ${oauth.audience ?? running.url.href}`);
  await new Promise<void>((resolve) => io.onShutdownSignal(() => resolve()));
  // Said before and after the drain, so a container's log shows a stop that drained, not one that was killed.
  logger.info('stopping: finishing the requests in flight');
  stopSharing?.();
  await running.close();
  logger.info('stopped');
}
