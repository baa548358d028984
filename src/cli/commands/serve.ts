/**
 * `skillport serve [DIR...]`: stdio by default, Streamable HTTP with
 * `--http HOST:PORT`.
 */
import { SUPPORTED_VERSIONS } from '../../index.js';
import { serveStdio } from '../../stdio.js';
import { hostPort, positiveInteger, UsageError, type Values } from '../args.js';
import { type CliIo, skillsServer } from '../context.js';
import { createStderrLogger, LOG_LEVELS, type LogLevel } from '../logger.js';

export async function serve(dirs: string[], values: Values, io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const pageSize = positiveInteger(values['page-size'], '--page-size');
  const logger = createStderrLogger(level, (line) => io.stderr.write(line));
  const { server, folder } = await skillsServer(dirs, {
    watch: values.watch === true,
    logger,
    leanHeap: io.leanHeap === true,
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
  });
  const { catalogue } = folder;
  const summary = `${catalogue.prompts.length} prompts from ${catalogue.skills.length} skills${values.watch ? ', watching for changes' : ''}`;

  if (values.http !== undefined) {
    const { host, port } = hostPort(values.http);
    const { serveHttp } = await import('../../http.js');
    const authToken = values['auth-token'] ?? env.SKILLPORT_AUTH_TOKEN;
    const running = await serveHttp(server, {
      host,
      port,
      logger,
      ...(authToken ? { authToken } : {}),
      ...(values['allow-origin'] ? { allowedOrigins: values['allow-origin'] } : {}),
      ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
    });
    logger.info(`serving ${summary} at ${running.url.href} (protocol ${SUPPORTED_VERSIONS.join(', ')})`);
    await new Promise<void>((resolve) => io.onShutdownSignal(() => resolve()));
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
