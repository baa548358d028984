/**
 * createServer's prompts, tools and resources as arrays of definitions,
 * served to the official v1 client (@modelcontextprotocol/sdk) over
 * Streamable HTTP; providers still taken; anything else a TypeError naming
 * the option at createServer, where an array passed as a provider used to
 * answer the first call with -32603 "Internal error".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, serveHttp } from '../../src/http.js';
import {
  createServer,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  livePrompts,
  liveResources,
  liveTools,
  type Server,
  staticPrompts,
  staticResources,
  staticTools,
} from '../../src/index.js';

const review = definePrompt({
  name: 'review',
  arguments: [{ name: 'language', required: true, complete: ['go', 'python'] }],
  get: ({ language }) => `Review this ${language} code.`,
});
const echo = defineTool({
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  call: ({ text }) => String(text),
});
const readme = defineResource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown', read: () => '# Read me' });
const notes = defineResourceTemplate({
  uriTemplate: 'notes://{topic}',
  name: 'notes',
  complete: { topic: ['design', 'roadmap'] },
  read: (_uri, { topic }) => `Notes on ${topic}`,
});

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Serves `server` over HTTP and connects a v1 client to it. */
async function connect(server: Server): Promise<Client> {
  running = await serveHttp(server, { host: '127.0.0.1', port: 0 });
  const client = new Client({ name: 'provider-options', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(running.url));
  return client;
}

/** What a client sees of the three sets built from the definitions above. */
async function journey(client: Client): Promise<void> {
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['review']);
  expect(await client.getPrompt({ name: 'review', arguments: { language: 'go' } })).toMatchObject({
    messages: [{ role: 'user', content: { type: 'text', text: 'Review this go code.' } }],
  });
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
  expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['docs://readme']);
  expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://{topic}']);
  expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Read me' }]);
  expect((await client.readResource({ uri: 'notes://design' })).contents).toEqual([{ uri: 'notes://design', text: 'Notes on design' }]);
  const topics = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{topic}' }, argument: { name: 'topic', value: 'ro' } });
  expect(topics.completion.values).toEqual(['roadmap']);
}

describe('createServer with arrays of definitions', () => {
  it('serves prompts, tools and mixed resources to the v1 client', async () => {
    const server = createServer({ name: 'arrays', version: '1.0.0', prompts: [review], tools: [echo], resources: [notes, readme] });
    const client = await connect(server);
    // Fixed sets: nothing can change, so nothing says it may.
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, tools: {}, resources: {} });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    await journey(client);
    await client.close();
  });

  it('serves the same through providers, the deprecated resource set included', async () => {
    const server = createServer({
      name: 'providers',
      version: '1.0.0',
      prompts: staticPrompts([review]),
      tools: staticTools([echo]),
      resources: staticResources({ resources: [readme], templates: [notes] }),
    });
    const client = await connect(server);
    await journey(client);
    await client.close();
  });

  it('keeps live providers live', async () => {
    const server = createServer({
      name: 'live',
      version: '1.0.0',
      prompts: livePrompts([review]),
      tools: liveTools([echo]),
      resources: liveResources([readme, notes]),
    });
    const client = await connect(server);
    expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, tools: { listChanged: true }, resources: { listChanged: true } });
    await journey(client);
    await client.close();
  });

  it('treats an empty array as an empty set, declared', async () => {
    const server = createServer({ name: 'empty', version: '1.0.0', tools: [] });
    expect(server.engine.features.tools).toBeDefined();
    const client = await connect(server);
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
  });

  it('throws on a duplicate name in an array, as the static sets do', () => {
    expect(() => createServer({ name: 'dup', version: '1', tools: [echo, echo] })).toThrow(/Duplicate tool name "echo"/);
    expect(() => createServer({ name: 'dup', version: '1', resources: [readme, readme] })).toThrow(/Duplicate resource URI/);
  });
});

describe('createServer refuses what is neither definitions nor a provider', () => {
  const info = { name: 'bad', version: '1' };
  // What plain JavaScript can pass: the casts stand for no types at all.
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a tool definition not in an array',
      { tools: echo },
      'createServer: tools takes an array of defineTool definitions or a ToolProvider; put the one definition in an array: tools: [definition]',
    ],
    [
      'a prompt definition not in an array',
      { prompts: review },
      'createServer: prompts takes an array of definePrompt definitions or a PromptProvider; put the one definition in an array: prompts: [definition]',
    ],
    [
      'a resource template not in an array',
      { resources: notes },
      'createServer: resources takes an array of defineResource or defineResourceTemplate definitions or a ResourceProvider; put the one definition in an array: resources: [definition]',
    ],
    ['a tool in the prompts', { prompts: [review, echo] }, 'createServer: prompts[1] is not a definePrompt definition'],
    ['a tool input rather than a definition', { tools: [{ name: 'raw', call: () => 'x' }] }, 'createServer: tools[0] is not a defineTool definition'],
    ['a provider in an array', { tools: [staticTools([echo])] }, 'createServer: tools[0] is not a defineTool definition'],
    [
      'a string',
      { resources: 'docs://readme' },
      'createServer: resources must be an array of defineResource or defineResourceTemplate definitions or a ResourceProvider',
    ],
    [
      'an object without the methods',
      { prompts: { list: () => [] } },
      'createServer: prompts must be an array of definePrompt definitions or a PromptProvider',
    ],
    ['false', { tools: false }, 'createServer: tools must be an array of defineTool definitions or a ToolProvider'],
  ];

  it.each(cases)('throws a TypeError for %s', (_name, options, message) => {
    expect(() => createServer({ ...info, ...options } as never)).toThrow(new TypeError(message));
  });

  it('takes null as no provider, as it always did', () => {
    const server = createServer({ ...info, tools: null, prompts: null, resources: null } as never);
    expect(server.engine.features.tools).toBeUndefined();
    expect(server.engine.features.prompts).toBeUndefined();
  });
});
