/**
 * The official SDK clients list and call skillport's tools: v1
 * (@modelcontextprotocol/sdk) over stdio and over Streamable HTTP, v2
 * (@modelcontextprotocol/client) pinned to 2026-07-28 over HTTP. The server is
 * test/fixtures/servers/tools.mjs, a real process built from the public API.
 */
import type { ChildProcess } from 'node:child_process';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startHttpFixture } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';

const FIXTURE = `${ROOT}test/fixtures/servers/tools.mjs`;
const TOOLS = ['echo', 'add', 'weather', 'content_kinds', 'reports', 'ask_name', 'fails'];

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** Starts the fixture and resolves with its endpoint. */
function startHttp(): Promise<{ url: URL; child: ChildProcess }> {
  return startHttpFixture(FIXTURE, ['--http'], closers);
}

/** Every tool's name, page by page (at most 20 pages). */
async function allToolNames(client: ClientV1 | ClientV2): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return names;
}

/** What every client does: list every page, call each kind of tool, see each kind of failure. */
async function journey(client: ClientV1 | ClientV2, inputErrorsAsResults: boolean): Promise<void> {
  expect(await allToolNames(client)).toEqual(TOOLS);

  expect((await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).content).toEqual([{ type: 'text', text: 'hello' }]);
  expect((await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).content).toEqual([{ type: 'text', text: '42' }]);
  // The SDK checks structured content against the listed output schema.
  const weather = await client.callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
  expect(weather.structuredContent).toEqual({ city: 'Lisbon', celsius: 21 });
  const kinds = await client.callTool({ name: 'content_kinds' });
  expect((kinds.content as Array<{ type: string }>).map((b) => b.type)).toEqual(['text', 'image', 'audio', 'resource_link', 'resource']);
  expect(await client.callTool({ name: 'fails' })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the upstream service is down' }] });

  const bad = client.callTool({ name: 'add', arguments: { a: 1, b: 'two' } });
  if (inputErrorsAsResults) expect(await bad).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('/b:') }] });
  else await expect(bad).rejects.toMatchObject({ code: -32602 });
  await expect(client.callTool({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
}

describe('SDK v1', () => {
  it('over stdio: lists and calls tools, and hears of a changed list', async () => {
    const transport = new StdioV1({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
    const client = new ClientV1({ name: 'sdk-v1-stdio', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    await journey(client, true);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    transport.pid && process.kill(transport.pid, 'SIGUSR2');
    await eventually(() => changed === 1);
    expect(await allToolNames(client)).toContain('added');
  });

  it('over Streamable HTTP with a session', async () => {
    const { url } = await startHttp();
    const client = new ClientV1({ name: 'sdk-v1-http', version: '1.0.0' });
    await client.connect(new HttpV1(url));
    closers.push(() => client.close());
    await journey(client, true);
  });

  it('over Streamable HTTP: progress and log messages arrive with the call, on its own stream', async () => {
    const { url } = await startHttp();
    const transport = new HttpV1(url);
    const client = new ClientV1({ name: 'sdk-v1-http', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    await client.setLoggingLevel('info');
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await client.callTool({ name: 'reports' }, undefined, { onprogress: (p) => void progress.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'reported' }]);
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
    expect(logs).toEqual(['info', 'error']);

    // On the wire: the POST's answer is an event stream carrying them before the result.
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId as string,
        'mcp-protocol-version': transport.protocolVersion as string,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'raw', method: 'tools/call', params: { name: 'reports', _meta: { progressToken: 7 } } }),
    });
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await answer.text())
      .split('\n')
      // A priming event (2025-11-25: an id and empty data) carries no message.
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.map((e) => e.method ?? e.id)).toEqual([
      'notifications/message',
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
      'raw',
    ]);
  });

  it('over Streamable HTTP at 2025-06-18, where bad arguments are a protocol error', async () => {
    const { url } = await startHttp();
    const transport = new HttpV1(url);
    // v1 always offers its newest revision; rewrite the offer to pin the older one.
    const send = transport.send.bind(transport);
    transport.send = (message, options) =>
      send(
        'method' in message && message.method === 'initialize'
          ? ({ ...message, params: { ...message.params, protocolVersion: '2025-06-18' } } as typeof message)
          : message,
        options,
      );
    const client = new ClientV1({ name: 'sdk-v1-http', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    expect(transport.protocolVersion).toBe('2025-06-18');
    await journey(client, false);
  });
});

describe("SDK v1 answering the server's questions on a session", () => {
  async function withElicitation(transport: StdioV1 | HttpV1): Promise<{ client: ClientV1; asked: string[] }> {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const wants = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties);
      return { action: 'accept', content: wants.includes('language') ? { language: 'python' } : { name: 'Linus' } };
    });
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, asked };
  }

  async function journey(client: ClientV1, asked: string[]): Promise<void> {
    expect((await client.callTool({ name: 'ask_name' })).content).toEqual([{ type: 'text', text: 'Hello, Linus.' }]);
    const prompt = await client.getPrompt({ name: 'review', arguments: { code: 'print(1)' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Review this python: print(1)' });
    expect(asked).toEqual(['What is your name?', 'Code review needs language.']);
  }

  it('over stdio: a tool asks the user, and a prompt its missing argument', async () => {
    const { client, asked } = await withElicitation(new StdioV1({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
    await journey(client, asked);
  });

  it("over Streamable HTTP with a session: the question comes on the call's own stream", async () => {
    const { url } = await startHttp();
    const { client, asked } = await withElicitation(new HttpV1(url));
    await journey(client, asked);
  });
});

describe('SDK v2 pinned to 2026-07-28', () => {
  it('over Streamable HTTP: lists and calls tools without a handshake', async () => {
    const { url } = await startHttp();
    const client = new ClientV2({ name: 'sdk-v2-http', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(url));
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await journey(client, true);
  });

  it('answers input-required results through its elicitation handler: a tool, and a prompt missing an argument', async () => {
    const { url } = await startHttp();
    const client = new ClientV2(
      { name: 'sdk-v2-http', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      const wants = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties);
      return { action: 'accept', content: wants.includes('language') ? { language: 'rust' } : { name: 'Grace' } };
    });
    await client.connect(new HttpV2(url));
    closers.push(() => client.close());
    expect((await client.callTool({ name: 'ask_name' })).content).toEqual([{ type: 'text', text: 'Hello, Grace.' }]);
    const prompt = await client.getPrompt({ name: 'review', arguments: { code: 'fn main() {}' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Review this rust: fn main() {}' });
    expect(asked).toEqual(['What is your name?', 'Code review needs language.']);
  });
});
