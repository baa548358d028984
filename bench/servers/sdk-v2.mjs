// Official SDK v2 (@modelcontextprotocol/server 2.x): createMcpHandler with a
// per-request McpServer factory (its documented shape), serving 2026-07-28 and,
// through its default `legacy: 'stateless'` fallback, 2025-era requests.
// Mounted on node:http with @hono/node-server's getRequestListener (what
// @modelcontextprotocol/node's toNodeHandler wraps; that package is not installed).
//   http PORT | stdio (serveStdio from @modelcontextprotocol/server/stdio)
import http from 'node:http';
import { completable, createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { onTerm, promptSet, readArgs, ready, unavailable } from './_common.mjs';

const { mode, port } = readArgs();
const { prompts, values } = promptSet();

const schemas = prompts.map((p) => {
  if (p.arguments.length === 0) return undefined;
  const shape = {};
  for (const a of p.arguments) {
    // completable() must be the outermost wrapper: describe()/optional() return
    // new schema instances that drop its completion metadata.
    let s = z.string().describe(a.description);
    if (!a.required) s = s.optional();
    if (a.completes) s = completable(s, (value) => values.filter((v) => v.startsWith(value)));
    shape[a.name] = s;
  }
  return z.object(shape);
});

function build() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  prompts.forEach((p, i) => {
    const config = { description: p.description, ...(schemas[i] ? { argsSchema: schemas[i] } : {}) };
    server.registerPrompt(p.name, config, (args) => ({
      description: p.description,
      messages: [{ role: 'user', content: { type: 'text', text: p.render(args ?? {}) } }],
    }));
  });
  return server;
}

if (mode === 'stdio') {
  let serveStdio;
  try {
    ({ serveStdio } = await import('@modelcontextprotocol/server/stdio'));
  } catch (error) {
    unavailable(error.message);
  }
  if (typeof serveStdio !== 'function') {
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    const server = build();
    onTerm(() => server.close());
    await server.connect(new StdioServerTransport());
  } else {
    const running = await serveStdio(() => build());
    onTerm(() => running?.close?.());
  }
} else {
  const { getRequestListener } = await import('@hono/node-server');
  const handler = createMcpHandler(() => build(), { onerror: () => {} });
  const httpServer = http.createServer(getRequestListener((request) => handler.fetch(request)));
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${httpServer.address().port}/mcp`));
  onTerm(async () => {
    await handler.close();
    await new Promise((r) => httpServer.close(r));
  });
}
