/**
 * Every example in examples/ runs, as a user would run it, and the official
 * clients use what it serves (issue 25: one runnable example per
 * capability). Each file is the one tsc checks (tsconfig includes
 * examples/); here TypeScript only strips its types into .examples/, inside
 * the package so that `import 'skillport'` resolves to this package's
 * dist/ by its own name, as it does for a user's project. The framework
 * adapters in examples/http (express, fastify, hono) are type-checked only:
 * the frameworks are not dependencies of this package.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, stopLater } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';

const OUT = `${ROOT}.examples/`;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** examples/`file` as JavaScript a plain `node` runs: its path. */
function compiled(file: string): string {
  const source = readFileSync(`${ROOT}examples/${file}`, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  const path = `${OUT}${file.replace(/\.ts$/, '.mjs')}`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, outputText);
  return path;
}

/** An SDK v1 client of examples/`file` over stdio, run from the repository's root (where `./skills` is). */
async function overStdio(file: string, capabilities: Record<string, unknown> = {}): Promise<ClientV1> {
  const client = new ClientV1({ name: 'examples', version: '1.0.0' }, { capabilities });
  await client.connect(new StdioV1({ command: process.execPath, args: [compiled(file)], cwd: ROOT, stderr: 'pipe' }));
  closers.push(() => client.close());
  return client;
}

/** Runs examples/`file` (an HTTP server) on a free port (`PORT=0`) and resolves with the endpoint it prints. */
async function overHttp(file: string): Promise<URL> {
  const child: ChildProcess = spawn(process.execPath, [compiled(file)], { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  stopLater(child, closers);
  return new Promise<URL>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${file} printed no endpoint: ${text}`)), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const endpoint = /MCP endpoint: (\S+)/.exec(text)?.[1];
      if (!endpoint) return;
      clearTimeout(timer);
      resolve(new URL(endpoint));
    });
  });
}

describe('examples', () => {
  it('quick-start.ts: a prompt with arguments and completion, a resource template with completion', async () => {
    const client = await overStdio('quick-start.ts');
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['code_review']);
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'py' } });
    expect(completed.completion.values).toEqual(['python']);
    const got = await client.getPrompt({ name: 'code_review', arguments: { language: 'go', code: 'x := 1' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: expect.stringContaining('Review this go code') });
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual(['notes://{topic}']);
    const topics = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{topic}' }, argument: { name: 'topic', value: 'ro' } });
    expect(topics.completion.values).toEqual(['roadmap']);
    expect((await client.readResource({ uri: 'notes://design' })).contents).toEqual([
      { uri: 'notes://design', mimeType: 'text/markdown', text: '# Notes on design' },
    ]);
  });

  it('skills-server.ts: the bundled skills and a prompt written in code, with their files and tools', async () => {
    const client = await overStdio('skills-server.ts');
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toContain('standup');
    expect(names.length).toBeGreaterThan(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['load_skill', 'read_skill_file']));
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
  });

  it('http/serve.ts: prompts over Streamable HTTP, for a 2026-07-28 client', async () => {
    const url = await overHttp('http/serve.ts');
    const client = new ClientV2({ name: 'examples', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(url));
    closers.push(() => client.close());
    expect((await client.getPrompt({ name: 'hello' })).messages[0]?.content).toEqual({ type: 'text', text: 'Hello!' });
  });

  it('tool.ts: zod arguments, a typed question, progress and a log message, for SDK v1 on 2025-11-25', async () => {
    const client = await overStdio('tool.ts', { elicitation: {} });
    const forms: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      forms.push((request.params as { requestedSchema?: unknown }).requestedSchema);
      return { action: 'accept', content: { confirm: true, copies: 2 } };
    });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    const [tool] = (await client.listTools()).tools;
    expect(tool?.inputSchema).toMatchObject({ type: 'object', properties: { report: { type: 'string' }, pages: { type: 'integer' } } });
    const progress: number[] = [];
    const result = await client.callTool({ name: 'print_report', arguments: { report: 'Q3', pages: 3 } }, CallToolResultSchema, {
      onprogress: (update) => void progress.push(update.progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Printed 2 copies of Q3.' }]);
    expect(forms).toEqual([expect.objectContaining({ type: 'object', properties: expect.objectContaining({ confirm: { type: 'boolean' } }) })]);
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['Printed Q3']);
    // Arguments the schema refuses are a result the model can act on (2025-11-25).
    expect(await client.callTool({ name: 'print_report', arguments: { report: 'Q3', pages: 0 } })).toMatchObject({ isError: true });
  });

  it('tool.ts: the same question as an input-required round for SDK v2 on 2026-07-28', async () => {
    const client = new ClientV2(
      { name: 'examples', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { confirm: false, copies: 1 } };
    });
    await client.connect(new StdioV2({ command: process.execPath, args: [compiled('tool.ts')], stderr: 'pipe' }));
    closers.push(() => client.close());
    expect((await client.callTool({ name: 'print_report', arguments: { report: 'Q3', pages: 1 } })).content).toEqual([{ type: 'text', text: 'Not printed.' }]);
    expect(asked).toBe(1);
  });

  it('resources.ts: a fixed resource subscribers hear of, a template completing one variable from another', async () => {
    const client = await overStdio('resources.ts');
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['status://now']);
    const ref = { type: 'ref/resource' as const, uri: 'docs://{team}/{service}' };
    expect((await client.complete({ ref, argument: { name: 'team', value: 'mo' } })).completion.values).toEqual(['mobile']);
    const services = await client.complete({ ref, argument: { name: 'service', value: '' }, context: { arguments: { team: 'platform' } } });
    expect(services.completion.values).toEqual(['api', 'billing']);
    expect((await client.readResource({ uri: 'docs://mobile/ios' })).contents[0]).toMatchObject({ text: '# ios\n\nOwned by the mobile team.' });
    let updates = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void updates++);
    await client.subscribeResource({ uri: 'status://now' });
    await eventually(() => updates > 0, 10_000);
    expect((await client.readResource({ uri: 'status://now' })).contents[0]).toMatchObject({ text: expect.stringMatching(/^Checked at /) });
  });

  it('long-task.ts: a task that asks mid-way, for SDK v1 on 2025-11-25 over HTTP', async () => {
    const client = new ClientV1({ name: 'examples', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { yes: true } }));
    await client.connect(new HttpV1(await overHttp('long-task.ts')));
    closers.push(() => client.close());
    const statuses: string[] = [];
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream({ name: 'build_report', arguments: { minutes: 0.001 } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated' || message.type === 'taskStatus') statuses.push(message.task.status);
      else if (message.type === 'result') result = message.result;
      else throw message.error;
    }
    expect(statuses).toEqual(expect.arrayContaining(['working', 'input_required']));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Report built with drafts.' }] });
  });
});
