// skillport, built from the compiled package (dist/) with the shared prompt set.
//   node bench/servers/skillport.mjs http PORT   -> dist/http.js serveHttp on 127.0.0.1
//   node bench/servers/skillport.mjs stdio       -> dist/stdio.js serveStdio
import { createServer, definePrompt } from '../../dist/index.js';
import { onTerm, promptSet, readArgs, ready, unavailable } from './_common.mjs';

const { mode, port } = readArgs();
const { prompts, values } = promptSet();
const definitions = prompts.map((p) =>
  definePrompt({
    name: p.name,
    description: p.description,
    arguments: p.arguments.map((a) => ({
      name: a.name,
      description: a.description,
      required: a.required,
      ...(a.completes ? { complete: values } : {}),
    })),
    // As docs/library.md writes prompts: a body that is the same for every request
    // as a fixed `output`, everything else as `get`.
    ...(p.fixed ? { output: p.render({}) } : { get: (args) => p.render(args) }),
  }),
);

const server = createServer({
  ...{ name: 'bench', version: '1.0.0' },
  // As docs/library.md's quick start serves them: the definitions, in an array.
  prompts: definitions,
  // The peers and the floor answer prompts/list with the whole set in one
  // page; a page size of at least the set size makes skillport send the same.
  pageSize: Math.max(50, prompts.length),
});

// With an OTLP endpoint in the environment (bench/tracing.mjs), traces are on as `serve` turns
// them on; without one the telemetry entry is never imported, as in `serve`.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import('../../dist/telemetry.js');
  const tracing = await startTracing(server, { env: process.env });
  if (!tracing) unavailable('OTEL_EXPORTER_OTLP_ENDPOINT is set but tracing did not start');
}

// SKILLPORT_BENCH_METRICS=1 (bench/tracing.mjs --what=metrics): metrics on as `serve --metrics`
// turns them on: the MCP metrics observed, the HTTP transport's own, a listener of their own.
const metrics = process.env.SKILLPORT_BENCH_METRICS === '1' ? await (await import('../../dist/telemetry.js')).serveMetrics(server, { port: 0 }) : undefined;

if (mode === 'http') {
  let serveHttp;
  try {
    ({ serveHttp } = await import('../../dist/http.js'));
  } catch (error) {
    unavailable(`dist/http.js: ${error.message}`);
  }
  const running = await serveHttp(server, { host: '127.0.0.1', port, path: '/mcp', ...(metrics ? { metrics: metrics.registry } : {}) });
  onTerm(() => running.close());
  ready(running.url.href);
} else {
  const { serveStdio } = await import('../../dist/stdio.js');
  const running = serveStdio(server);
  onTerm(() => running.shutdown());
  await running.done;
  process.exit(0);
}
