/**
 * `skillport serve [DIR...]`: stdio by default, Streamable HTTP with
 * `--http HOST:PORT`. The HTTP-only options are usage errors over stdio
 * rather than ignored: a token that protects nothing is a mistake to report.
 */
import { SUPPORTED_VERSIONS } from '../../index.js';
import { serveStdio } from '../../stdio.js';
import { hostPort, type Invocation, positiveInteger, UsageError } from '../args.js';
import { type CliIo, type ServerIdentity, skillsServer } from '../context.js';
import { createStderrLogger, LOG_LEVELS, type LogLevel } from '../logger.js';
import { shareChanges } from './share-changes.js';

const HTTP_ONLY = ['auth-token', 'allow-origin', 'allow-host', 'redis', 'trust-proxy'] as const;

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
  const logger = createStderrLogger(level, (line) => io.stderr.write(line));
  const { server, folder } = await skillsServer(folders, {
    watch: values.watch === true,
    tools: values['no-tools'] !== true,
    logger,
    leanHeap: io.leanHeap === true,
    identity: identity(values),
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    // Several replicas must seal and open each other's input-required state: one key for all, from the environment.
    ...(env.SKILLPORT_REQUEST_STATE_KEY ? { requestStateKey: env.SKILLPORT_REQUEST_STATE_KEY } : {}),
  });
  const { catalogue } = folder;
  // The folder's two tools (load_skill, read_skill_file), counted without building their listing at start.
  const tools = folder.tools ? ' and 2 tools' : '';
  const summary = `${catalogue.prompts.length} prompts${tools} from ${catalogue.skills.length} skills${values.watch ? ', watching for changes' : ''}`;

  if (address !== undefined) {
    const { host, port } = address;
    const { serveHttp } = await import('../../http.js');
    const authToken = values['auth-token'] ?? env.SKILLPORT_AUTH_TOKEN;
    const redis = values.redis ?? env.SKILLPORT_REDIS_URL;
    const running = await serveHttp(server, {
      host,
      port,
      logger,
      ...(authToken ? { authToken } : {}),
      ...(values['allow-origin'] ? { allowedOrigins: values['allow-origin'] } : {}),
      ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
      ...(redis ? { redis } : {}),
      ...(values['trust-proxy'] ? { trustProxy: true } : {}),
    });
    const stopSharing = running.changes ? shareChanges(folder, running.changes, logger) : undefined;
    logger.info(`serving ${summary} at ${running.url.href} (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
    await new Promise<void>((resolve) => io.onShutdownSignal(() => resolve()));
    stopSharing?.();
    await running.close();
  } else {
    const running = serveStdio(server, { input: io.stdin, output: io.stdout, logger });
    io.onShutdownSignal(() => void running.shutdown());
    logger.info(`serving ${summary} over stdio (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
    await running.done;
  }
  folder.close();
  server.close();
  return 0;
}
