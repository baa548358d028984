/**
 * `skillport serve [DIR...]`: stdio by default, Streamable HTTP with
 * `--http HOST:PORT`. The HTTP-only options are usage errors over stdio
 * rather than ignored: a token that protects nothing is a mistake to report.
 */
import { SUPPORTED_VERSIONS } from '../../index.js';
import { serveStdio } from '../../stdio.js';
import { hostPort, type Invocation, positiveInteger, seconds, UsageError } from '../args.js';
import { type CliIo, gitSourceOf, remoteSettings, type ServerIdentity, skillsServer } from '../context.js';
import { emptyWarning } from '../load-report.js';
import { createStderrLogger, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../logger.js';
import { counted, printText } from '../output.js';
import { OAUTH_FLAGS } from './serve-auth.js';
import { bindError, stdioTerminalNote } from './serve-hints.js';
import { serveOverHttp } from './serve-http.js';
import { folderMetrics, metricsAddress, startMetrics } from './serve-metrics.js';
import { serveTracing } from './serve-tracing.js';

const HTTP_ONLY = ['auth-token', 'allow-origin', 'allow-host', 'hook-secret-env', 'redis', 'trust-proxy', 'no-index', 'no-page', ...OAUTH_FLAGS] as const;
const GIT_ONLY = ['pull-interval', 'cache-dir', 'hook-secret-env'] as const;

/** The secret of POST /hooks/git: from the variable --hook-secret-env names, else SKILLPORT_HOOK_SECRET; none turns the hook off. */
function hookSecret(values: Invocation['values'], env: Record<string, string | undefined>): string | undefined {
  const variable = values['hook-secret-env'];
  if (variable === undefined) return env.SKILLPORT_HOOK_SECRET || undefined;
  const secret = env[variable];
  // Named but empty: the user meant a hook, and it would answer 404 without a word.
  if (!secret) throw new UsageError(`--hook-secret-env names ${variable}, which is not set`, 'serve');
  return secret;
}

/** --log-format: text for people, json (one object per line) for log pipelines. */
function logFormat(value: string | undefined): LogFormat {
  const format = (value ?? 'text') as LogFormat;
  if (!LOG_FORMATS.includes(format)) throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}`, 'serve');
  return format;
}

/** --name, --title and --instructions; a name or title must say something. */
function identity(values: Invocation['values']): ServerIdentity {
  const out: ServerIdentity = {};
  for (const key of ['name', 'title'] as const) {
    const value = values[key];
    if (value === undefined) continue;
    if (value.trim() === '') throw new UsageError(`--${key} must not be empty`, 'serve');
    out[key] = value;
  }
  if (values.instructions !== undefined) out.instructions = values.instructions;
  return out;
}

export async function serve({ folders, values }: Invocation, io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  if (values.http === undefined) {
    const given = HTTP_ONLY.find((key) => values[key] !== undefined);
    if (given) throw new UsageError(`--${given} applies only with --http`, 'serve');
  }
  const address = values.http === undefined ? undefined : hostPort(values.http);
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`, 'serve');
  const pageSize = positiveInteger(values['page-size'], '--page-size', 'serve');
  const git = gitSourceOf(folders, 'serve');
  if (git === undefined) {
    const given = GIT_ONLY.find((key) => values[key] !== undefined);
    if (given) throw new UsageError(`--${given} applies only to a git or index source`, 'serve');
  } else if (values.watch) throw new UsageError('--watch does not apply to a git or index source: it is fetched every --pull-interval', 'serve');
  const secret = git !== undefined && address !== undefined ? hookSecret(values, env) : undefined;
  const fetched = remoteSettings(git, values, env, 'serve');
  const logger = createStderrLogger(level, (line) => io.stderr.write(line), logFormat(values['log-format']));
  const pullIntervalMs = seconds(values['pull-interval'], '--pull-interval', 'serve') ?? 60_000;
  // 0 stops polling only: a push webhook or another replica's news (Redis) still fetches. With neither, nothing ever will.
  if (git !== undefined && pullIntervalMs === 0 && secret === undefined && values.redis === undefined)
    logger.warn('--pull-interval 0 with no webhook (--http and a hook secret) and no --redis: the source is loaded once and never fetched again');
  const metricsAt = metricsAddress(values.metrics);
  const metrics = metricsAt && (await folderMetrics());
  const { server, folder } = await skillsServer(folders, {
    ...(metrics ? { hooks: metrics.hooks } : {}),
    watch: values.watch === true,
    tools: values['no-tools'] !== true,
    logger,
    leanHeap: io.leanHeap === true,
    identity: identity(values),
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    // Several replicas must seal and open each other's input-required state: one key for all, from the environment.
    ...(env.SKILLPORT_REQUEST_STATE_KEY ? { requestStateKey: env.SKILLPORT_REQUEST_STATE_KEY } : {}),
    git: { ...fetched, pullIntervalMs },
  });
  const tracing = await serveTracing(server, env, logger);
  if (level === 'debug') server.observe((await import('../request-log.js')).requestLog(logger));
  const { catalogue } = folder;
  // The folder's two tools (load_skill, read_skill_file), counted without building their listing at start.
  const tools = folder.tools ? ' and 2 tools' : '';
  const from = 'commit' in folder ? ` of ${folder.source} at ${folder.commit.slice(0, 12)}` : 'source' in folder ? ` of ${folder.source}` : '';
  const summary = `${counted(catalogue.prompts.length, 'prompt')}${tools} from ${counted(catalogue.skills.length, 'skill')}${from}${values.watch ? ', watching for changes' : ''}`;
  const empty = emptyWarning(catalogue, folders);
  if (empty !== undefined) logger.warn(empty);
  const metricsServer =
    metrics &&
    metricsAt &&
    (await startMetrics(server, folder, metrics.registry, metricsAt).catch((error: unknown) => {
      throw bindError(error, '--metrics', values.metrics ?? '');
    }));
  if (metricsServer) logger.info(`serving metrics at ${metricsServer.url.href}`);

  if (address !== undefined) {
    await serveOverHttp({ server, folder, values, env, io, logger, address, secret, summary, ...(metrics ? { metrics: metrics.registry } : {}) });
  } else {
    const running = serveStdio(server, { input: io.stdin, output: io.stdout, logger });
    io.onShutdownSignal(() => void running.shutdown());
    logger.info(`serving ${summary} over stdio (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
    if (io.stdinIsTty) printText(io.stderr, stdioTerminalNote(folders));
    await running.done;
  }
  await metricsServer?.close();
  await folder.close();
  server.close();
  await tracing?.shutdown();
  return 0;
}
