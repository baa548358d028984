/**
 * Traces end to end (src/telemetry/tracing/): a real server over Streamable
 * HTTP, driven by the official SDK client, exports one SERVER span per
 * request to an OTLP/HTTP receiver, named and attributed as the
 * OpenTelemetry conventions for MCP say, its parent from the HTTP
 * `traceparent` or, first, from the request's `params._meta`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/http.js';
import { createServer, definePrompt, defineResource, defineTool, type Logger, staticPrompts, staticResources, staticTools } from '../../src/index.js';
import { startTracing, type Tracing } from '../../src/telemetry.js';
import { modernMeta } from '../_wire.js';
import { type ReceivedSpan, startReceiver } from './_otlp-receiver.js';

const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const META_TRACE = '0af7651916cd43dd8448eb211c80319c';
const META_SPAN = 'b7ad6b7169203331';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** Lets the `slow` prompt answer. */
let release = () => {};

function traced() {
  return createServer({
    name: 'traced',
    version: '9.9.9',
    prompts: staticPrompts([
      definePrompt({ name: 'hello', description: 'Says hello', get: () => 'Hello' }),
      definePrompt({ name: 'slow', description: 'Waits', get: () => new Promise<string>((resolve) => (release = () => resolve('late'))) }),
    ]),
    resources: staticResources({ resources: [defineResource({ uri: 'file:///notes.md', name: 'notes', read: () => 'notes' })] }),
    tools: staticTools([
      defineTool({ name: 'echo', description: 'Echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, call: () => 'hi' }),
      defineTool({
        name: 'fails',
        description: 'Fails',
        call: () => {
          throw new Error('down');
        },
      }),
    ]),
  });
}

/** A logger that keeps every line. */
function keeping(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** A traced server on 127.0.0.1, a receiver, and an SDK v1 client sending `headers` with every request. */
async function setup(env: Record<string, string>, headers: Record<string, string> = {}) {
  const receiver = await startReceiver();
  closers.push(() => receiver.close());
  const server = traced();
  const logger = keeping();
  const tracing = (await startTracing(server, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env }, logger })) as Tracing;
  expect(tracing).toBeDefined();
  closers.push(() => tracing.shutdown());
  const running = await serveHttp(server, { host: '127.0.0.1', port: 0 });
  closers.push(() => running.close());
  const client = new Client({ name: 'tracing-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(running.url, { requestInit: { headers } }));
  closers.push(() => client.close());
  return { receiver, tracing, client, logger };
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describe('tracing over Streamable HTTP', () => {
  it('exports one SERVER span per request, named and attributed as the MCP conventions say', async () => {
    const { receiver, tracing, client } = await setup({}, { traceparent: `00-${PARENT_TRACE}-${PARENT_SPAN}-01`, tracestate: 'rojo=1' });
    await client.getPrompt({ name: 'hello' });
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(await client.callTool({ name: 'fails' })).toMatchObject({ isError: true });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await tracing.flush();
    const spans = receiver.spans();
    expect(receiver.paths.every((path) => path === '/v1/traces')).toBe(true);
    // The default protocol is the specification's: binary protobuf.
    expect(receiver.received.map((r) => r.contentType)).toContain('application/x-protobuf');
    expect(spans.map((s) => s.name)).toEqual(['initialize', 'prompts/get hello', 'tools/call echo', 'tools/call fails', 'prompts/get']);
    for (const span of spans) {
      expect(span.kind).toBe(2);
      expect(span.traceId).toBe(PARENT_TRACE);
      expect(span.parentSpanId).toBe(PARENT_SPAN);
      expect(span.traceState).toBe('rojo=1');
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.end >= span.start).toBe(true);
      expect(span.resource).toMatchObject({ 'service.name': 'skillport', 'service.version': '9.9.9', 'telemetry.sdk.name': 'skillport' });
      expect(span.scope.name).toBe('skillport');
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    const [, get, echo, fails, unknown] = spans as [ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan, ReceivedSpan];
    expect(get.attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.any(String),
      'mcp.session.id': expect.any(String),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'gen_ai.prompt.name': 'hello',
    });
    expect(get.status.code).toBe(0);
    expect(echo.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool' });
    expect(echo.attributes['error.type']).toBeUndefined();
    expect(fails.attributes).toMatchObject({ 'gen_ai.tool.name': 'fails', 'error.type': 'tool_error' });
    expect(fails.status.code).toBe(2);
    // An unknown prompt is no target: its name stays out of the span's name and attributes.
    expect(unknown.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknown.attributes['gen_ai.prompt.name']).toBeUndefined();
    expect(unknown.status).toEqual({ code: 2, message: expect.stringContaining('nope') });
  });

  it('takes the parent from params._meta first, and links the HTTP context', async () => {
    const { receiver, tracing, client } = await setup({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, { traceparent: `00-${PARENT_TRACE}-${PARENT_SPAN}-01` });
    await client.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-01`, tracestate: 'congo=t61' } });
    await tracing.flush();
    const [echo] = byName(receiver.spans(), 'tools/call echo');
    expect(receiver.received[0]?.contentType).toBe('application/json');
    expect(echo).toMatchObject({ traceId: META_TRACE, parentSpanId: META_SPAN, traceState: 'congo=t61' });
    expect(echo?.links).toEqual([{ traceId: PARENT_TRACE, spanId: PARENT_SPAN, traceState: '' }]);
  });

  it('starts a new trace for an invalid traceparent', async () => {
    const { receiver, tracing, client } = await setup({}, { traceparent: `00-${PARENT_TRACE.toUpperCase()}-${PARENT_SPAN}-01` });
    await client.getPrompt({ name: 'hello' });
    await tracing.flush();
    const [get] = byName(receiver.spans(), 'prompts/get hello');
    expect(get?.parentSpanId).toBe('');
    expect(get?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(get?.traceId).not.toBe(PARENT_TRACE.toLowerCase());
  });

  it('sends the configured headers and resource to the traces endpoint as given, and logs neither', async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const server = traced();
    const logger = keeping();
    const env = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/path`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s%3Dcret, other=1',
      OTEL_SERVICE_NAME: 'skills-east',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=ignored',
      OTEL_LOG_LEVEL: 'debug',
    };
    const tracing = (await startTracing(server, { env, logger, version: '1.2.3' })) as Tracing;
    closers.push(() => tracing.shutdown());
    await server.connect({ send() {} }).receive({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'hello', _meta: modernMeta() } });
    await tracing.flush();
    expect(receiver.paths).toEqual(['/custom/path']);
    expect(receiver.received[0]?.headers).toMatchObject({ 'x-api-key': 's=cret', other: '1' });
    expect(receiver.spans()[0]?.resource).toMatchObject({ 'service.name': 'skills-east', 'deployment.environment': 'prod', 'service.version': '1.2.3' });
    expect(logger.lines.join('\n')).not.toContain('cret');
  });
});

describe('sampling', () => {
  it('exports nothing with always_off', async () => {
    const { receiver, tracing, client } = await setup({ OTEL_TRACES_SAMPLER: 'always_off' });
    await client.getPrompt({ name: 'hello' });
    await tracing.flush();
    expect(receiver.spans()).toEqual([]);
  });

  it('follows the parent: not sampled is not exported, sampled is, even over parentbased_always_off', async () => {
    const { receiver, tracing, client } = await setup({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    await client.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-00` } });
    await client.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-01` } });
    await client.getPrompt({ name: 'hello' });
    await tracing.flush();
    expect(receiver.spans().map((s) => [s.name, s.parentSpanId])).toEqual([['tools/call echo', META_SPAN]]);
  });
});

describe('spans of a connection', () => {
  async function direct() {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const server = traced();
    const tracing = (await startTracing(server, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } })) as Tracing;
    closers.push(() => tracing.shutdown());
    return { receiver, tracing, connection: server.connect({ send() {}, network: 'pipe' }) };
  }

  it("carry a 2026-07-28 request's _meta parent beside its envelope, and the resource URI read", async () => {
    const { receiver, tracing, connection } = await direct();
    const meta = { ...modernMeta(), traceparent: `00-${META_TRACE}-${META_SPAN}-01` };
    await connection.receive({ jsonrpc: '2.0', id: 'r-1', method: 'resources/read', params: { uri: 'file:///notes.md', _meta: meta } });
    await tracing.flush();
    const [read] = receiver.spans();
    expect(read).toMatchObject({ name: 'resources/read', traceId: META_TRACE, parentSpanId: META_SPAN });
    expect(read?.attributes).toEqual({
      'mcp.method.name': 'resources/read',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': 'r-1',
      'network.transport': 'pipe',
      'mcp.resource.uri': 'file:///notes.md',
    });
  });

  it('end a cancelled request with error.type cancelled and no error status', async () => {
    const { receiver, tracing, connection } = await direct();
    const answer = connection.receive({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'slow', _meta: modernMeta() } });
    await new Promise((resolve) => setImmediate(resolve));
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, _meta: modernMeta() } });
    release();
    expect(await answer).toBeUndefined();
    await tracing.flush();
    const [cancelled] = receiver.spans();
    expect(cancelled?.name).toBe('prompts/get');
    expect(cancelled?.attributes['error.type']).toBe('cancelled');
    expect(cancelled?.status.code).toBe(0);
  });

  it('stop when tracing shuts down, the last spans sent first', async () => {
    const { receiver, tracing, connection } = await direct();
    await connection.receive({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'hello', _meta: modernMeta() } });
    await tracing.shutdown();
    expect(receiver.spans().map((s) => s.name)).toEqual(['prompts/get hello']);
    await connection.receive({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'hello', _meta: modernMeta() } });
    await tracing.flush();
    expect(receiver.spans()).toHaveLength(1);
  });
});
