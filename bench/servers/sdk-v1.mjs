// Official SDK v1 (@modelcontextprotocol/sdk 1.x): McpServer + Streamable HTTP.
//   http PORT stateless -> the documented stateless idiom: a fresh McpServer and
//                          transport per request, sessionIdGenerator undefined,
//                          enableJsonResponse true
//   http PORT stateful  -> one McpServer + transport per session (randomUUID),
//                          default SSE-framed POST responses
//   stdio               -> StdioServerTransport

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { onTerm, promptSet, readArgs, readBody, ready } from './_common.mjs';

const { mode, port, variant } = readArgs();
const { prompts, values } = promptSet();

// Schemas are built once and shared by every server instance.
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
  return shape;
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
  const server = build();
  onTerm(() => server.close());
  await server.connect(new StdioServerTransport());
} else if (variant === 'stateless') {
  const httpServer = http.createServer(async (req, res) => {
    const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${httpServer.address().port}/mcp`));
  onTerm(() => new Promise((r) => httpServer.close(r)));
} else {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (body?.method !== 'initialize') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No valid session"}}');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${httpServer.address().port}/mcp`));
  onTerm(() => new Promise((r) => httpServer.close(r)));
}
