// A replica for test/cluster/tasks.test.ts: the CLI's bundled server has no
// tool that runs as a task, so this one is built with the public API (dist/):
// `sleep` waits `seconds` honouring its signal, `ask` asks the client inside
// its task. It logs to stderr each task request it serves and what its tools
// see, which is how the test tells which replica did what.
// Usage: node _task-server.mjs --port PORT --redis URL [--lease-ms MS]
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { serveHttp } from '../../dist/http.js';
import { createServer, defineTool, staticTools } from '../../dist/index.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, redis: { type: 'string' }, 'lease-ms': { type: 'string' } } });
const line = (level) => (message) => process.stderr.write(`${level} ${message}\n`);
const logger = { debug: () => {}, info: line('info'), warn: line('warn'), error: line('error') };

const tools = staticTools([
  defineTool({
    name: 'sleep',
    description: 'Sleeps for `seconds`, then answers; stops when its task is cancelled',
    task: 'optional',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } }, required: ['seconds', 'label'] },
    call: async ({ seconds, label }, ctx) => {
      logger.info(`work started ${label}`);
      try {
        await sleep(seconds * 1000, undefined, { signal: ctx.signal });
      } catch (error) {
        logger.info(`work aborted ${label}`);
        throw error;
      }
      return `slept ${label}`;
    },
  }),
  defineTool({
    name: 'ask',
    description: 'Asks whether to go on, from inside its task',
    task: 'optional',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    call: async ({ label }, ctx) => {
      logger.info(`work started ${label}`);
      const answer = await ctx.input('go', {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] } },
      });
      return `answered ${answer.action} ${answer.content?.go}`;
    },
  }),
]);

const server = createServer({
  name: 'task-cluster',
  version: '1.0.0',
  tools,
  logger,
  tasks: { leaseMs: Number(values['lease-ms'] ?? 2000), pollIntervalMs: 100 },
  ...(process.env.SKILLPORT_REQUEST_STATE_KEY ? { requestStateKey: process.env.SKILLPORT_REQUEST_STATE_KEY } : {}),
});
server.observe({
  request({ method, params }) {
    if (method.startsWith('tasks/')) logger.info(`served ${method} ${params.taskId ?? ''}`);
    else if (method === 'tools/call') logger.info(`served ${method} ${params.name}`);
    return undefined;
  },
});
const http = await serveHttp(server, { host: '127.0.0.1', port: Number(values.port), redis: values.redis, logger });
process.once('SIGTERM', async () => {
  logger.info('stopping');
  await http.close();
  server.close();
  logger.info('stopped');
  process.exit(0);
});
