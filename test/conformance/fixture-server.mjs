// The server the official MCP conformance suite runs against, built with
// skillport's public API from the built package (dist/). It exposes the
// fixture names the suite's scenarios ask for (prompts-*, resources-*,
// completion-complete, sep-2164-resource-not-found) over Streamable HTTP.
//
//   node test/conformance/fixture-server.mjs --http 127.0.0.1:0
//
// prints one line, {"url":"http://127.0.0.1:PORT/mcp"}, once it listens.
// SIGUSR2 adds a prompt and updates test://watched-resource (the suite can
// only trigger changes through tools, which skillport does not serve).
// SIGTERM and SIGINT close the server gracefully.
import { parseArgs } from 'node:util';
import { serveHttp } from '../../dist/http.js';
import { createServer, definePrompt, defineResource, defineResourceTemplate, livePrompts, liveResources, ResourceNotFoundError } from '../../dist/index.js';

const { values } = parseArgs({ options: { http: { type: 'string', default: '127.0.0.1:0' }, stateless: { type: 'boolean', default: false } } });
const match = /^(.*):(\d+)$/.exec(values.http);
if (!match) {
  process.stderr.write('usage: fixture-server.mjs --http HOST:PORT\n');
  process.exit(2);
}
const [, host, port] = match;

// A 1x1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const basePrompts = [
  definePrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments', get: () => 'This is a simple prompt for testing.' }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true, complete: ['paris', 'park', 'party'] },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    description: 'A prompt that includes image content',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  }),
];

let watchedVersion = 1;
const staticResources = [
  defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  }),
  defineResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => Uint8Array.from(Buffer.from(PNG, 'base64')),
  }),
  defineResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource that changes on SIGUSR2, for subscriptions',
    mimeType: 'text/plain',
    read: () => `Watched resource, version ${watchedVersion}`,
  }),
];
const template = defineResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'template-data',
  description: 'A resource template with a parameter',
  mimeType: 'application/json',
  complete: { id: ['123', '456'] },
  read: (uri, { id }) => {
    if (!/^\w+$/.test(id)) throw new ResourceNotFoundError(uri);
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  },
});

const prompts = livePrompts(basePrompts);
const resources = liveResources({ resources: staticResources, templates: [template] });
const logger = {
  debug() {},
  info() {},
  warn: (message) => process.stderr.write(`warn: ${message}\n`),
  error: (message, details) => process.stderr.write(`error: ${message} ${details instanceof Error ? details.stack : ''}\n`),
};

const server = createServer({
  name: 'skillport-conformance-fixture',
  version: '1.0.0',
  description: 'The server the MCP conformance suite tests',
  prompts,
  resources,
  cache: { ttlMs: 0 },
  logger,
});

const http = await serveHttp(server, { host, port: Number(port), sessions: !values.stateless, logger });
process.stdout.write(`${JSON.stringify({ url: http.url.href })}\n`);

process.on('SIGUSR2', () => {
  prompts.set([...basePrompts, definePrompt({ name: 'test_added_prompt', description: 'Added on SIGUSR2', get: () => 'added' })]);
  watchedVersion++;
  resources.updated('test://watched-resource');
});
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await http.close();
    server.close();
    process.exit(0);
  });
}
