// The server the official MCP conformance suite runs against, built with
// skillport's public API from the built package (dist/). It exposes the
// fixture names the suite's scenarios ask for (prompts-*, resources-*,
// completion-complete, sep-2164-resource-not-found, the tools-* scenarios,
// json-schema-2020-12, logging-set-level, the input-required-result-*
// scenarios in _input-required.mjs, and the diagnostic tools of
// server-stateless: test_trigger_tool_change, test_trigger_prompt_change,
// test_logging_tool, test_missing_capability, test_streaming_elicitation)
// over Streamable HTTP, with logging on. Tools that need server-to-client
// requests on 2025 sessions (tools-call-sampling, tools-call-elicitation,
// elicitation-sep1034-defaults, elicitation-sep1330-enums) or x-mcp-header
// are not registered: the library has neither yet (see IN_SCOPE in run.mjs).
//
//   node test/conformance/fixture-server.mjs --http 127.0.0.1:0
//
// prints one line, {"url":"http://127.0.0.1:PORT/mcp"}, once it listens.
// SIGUSR2 adds a prompt and updates test://watched-resource, for manual
// checks. SIGTERM and SIGINT close the server gracefully.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { serveHttp } from '../../dist/http.js';
import {
  createServer,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  livePrompts,
  liveResources,
  liveTools,
  ResourceNotFoundError,
} from '../../dist/index.js';
import { inputPrompts, inputTools } from './_input-required.mjs';
import { sessionInputTools } from './_session-input.mjs';
import { taskTools } from './_tasks.mjs';

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
  ...inputPrompts,
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

/** The shortest valid WAV file: a RIFF header, a PCM `fmt ` chunk (mono, 8 kHz, 8-bit) and one silent sample. */
function wav() {
  const bytes = Buffer.alloc(45);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(bytes.length - 8, 4);
  bytes.write('WAVEfmt ', 8, 'ascii');
  bytes.writeUInt32LE(16, 16); // fmt chunk size
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22); // channels
  bytes.writeUInt32LE(8000, 24); // sample rate
  bytes.writeUInt32LE(8000, 28); // byte rate
  bytes.writeUInt16LE(1, 32); // block align
  bytes.writeUInt16LE(8, 34); // bits per sample
  bytes.write('data', 36, 'ascii');
  bytes.writeUInt32LE(1, 40);
  bytes.writeUInt8(0x80, 44); // silence, for unsigned 8-bit PCM
  return bytes.toString('base64');
}

// The tools the tools-* scenarios call, with the names, arguments and
// content their descriptions ask for. test_simple_text comes first:
// http-header-validation calls the first listed tool with no arguments.
const baseTools = [
  defineTool({ name: 'test_simple_text', description: 'Returns simple text content', call: () => 'This is a simple text response for testing.' }),
  defineTool({
    name: 'test_image_content',
    description: 'Returns image content',
    call: () => [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Returns audio content',
    call: () => [{ type: 'audio', data: wav(), mimeType: 'audio/wav' }],
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    call: () => [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, image and an embedded resource',
    call: () => [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
      },
    ],
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails, to test error reporting',
    call: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  // json-schema-2020-12: the listing must keep these keywords as written
  // (SEP-1613: $schema, $defs, additionalProperties; SEP-2106: $anchor,
  // allOf/anyOf, if/then/else). The schema is 0.2.0-alpha.12's, a superset
  // of 0.1.16's.
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; its value is an object, so no thenable
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    call: ({ name }) => `Received ${name ?? 'no name'}`,
  }),
];

// http-custom-header-server-validation (2026-07-28): the first listed tool
// with an x-mcp-header string parameter; the suite calls it with that
// parameter's Mcp-Param header plain, Base64-encoded, malformed and missing.
const headerTools = [
  defineTool({
    name: 'test_custom_headers',
    description: 'Runs a query in a region; region and priority are mirrored into Mcp-Param headers',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', description: 'How urgent', 'x-mcp-header': 'Priority' },
        query: { type: 'string', description: 'Not mirrored' },
      },
      required: ['region', 'query'],
    },
    call: ({ region, query }) => `Ran ${JSON.stringify(query)} in ${JSON.stringify(region)}`,
  }),
];

// tools-call-with-logging (2025 revisions, after logging/setLevel debug) and
// tools-call-with-progress (every revision, with a progressToken): three
// messages each, ~50 ms apart, as the scenarios describe. test_logging_tool is
// server-stateless's probe: a 2026-07-28 request without
// _meta["io.modelcontextprotocol/logLevel"] must get none of its messages.
/** A request still running this long gets an SSE answer whose connection closes; the client polls (HttpOptions.resumption). */
const POLL_AFTER_MS = 1000;
const reportingTools = [
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs',
    call: async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.log('info', 'Tool processing data');
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.log('info', 'Tool execution completed');
      return 'Logging test completed';
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 while it runs',
    call: async (_args, ctx) => {
      ctx.progress(0, 100);
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.progress(50, 100);
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.progress(100, 100);
      return 'Progress test completed';
    },
  }),
  // server-sse-polling (2025-11-25, SEP-1699): runs past the fixture's
  // resumption.pollAfterMs, so its answer turns to SSE (a priming event with
  // `retry`), the connection closes mid-call, and the result comes on the GET
  // that resumes with Last-Event-ID.
  defineTool({
    name: 'test_reconnection',
    description: 'Answers after the server has closed the connection of its SSE answer',
    call: async (_args, ctx) => {
      await sleep(POLL_AFTER_MS * 2, undefined, { signal: ctx.signal });
      return 'Reconnection test completed';
    },
  }),
  defineTool({
    name: 'test_logging_tool',
    description: 'Logs at debug, info, warning and error; sent only to requests that asked for a log level',
    call: (_args, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error']) ctx.log(level, `${level} message from test_logging_tool`);
      return 'Logged at debug, info, warning and error';
    },
  }),
];

// server-stateless's diagnostic hooks: each call changes the tool or the
// prompt list (adds test_added_tool / test_added_prompt, or removes it
// again), so every call is a real change that listen streams are told of.
const addedTool = defineTool({ name: 'test_added_tool', description: 'Added by test_trigger_tool_change', call: () => 'added' });
const addedPrompt = definePrompt({ name: 'test_added_prompt', description: 'Added by test_trigger_prompt_change', get: () => 'added' });
let toolAdded = false;
let promptAdded = false;
const triggerTools = [
  defineTool({
    name: 'test_trigger_tool_change',
    description: 'Adds or removes test_added_tool, so the tool list changes',
    call: () => {
      toolAdded = !toolAdded;
      tools.set(currentTools());
      return toolAdded ? 'Added test_added_tool' : 'Removed test_added_tool';
    },
  }),
  defineTool({
    name: 'test_trigger_prompt_change',
    description: 'Adds or removes test_added_prompt, so the prompt list changes',
    call: () => {
      promptAdded = !promptAdded;
      prompts.set(promptAdded ? [...basePrompts, addedPrompt] : basePrompts);
      return promptAdded ? 'Added test_added_prompt' : 'Removed test_added_prompt';
    },
  }),
];
const currentTools = () => [
  ...baseTools,
  ...reportingTools,
  ...headerTools,
  ...inputTools,
  ...sessionInputTools,
  ...taskTools,
  ...triggerTools,
  ...(toolAdded ? [addedTool] : []),
];

const prompts = livePrompts(basePrompts);
const tools = liveTools(currentTools(), { tasks: true });
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
  tools,
  resources,
  cache: { ttlMs: 0 },
  // notifications/message for tools-call-with-logging and test_logging_tool.
  logging: true,
  logger,
});

const http = await serveHttp(server, { host, port: Number(port), sessions: !values.stateless, logger, resumption: { pollAfterMs: POLL_AFTER_MS } });
process.stdout.write(`${JSON.stringify({ url: http.url.href })}\n`);

process.on('SIGUSR2', () => {
  promptAdded = true;
  prompts.set([...basePrompts, addedPrompt]);
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
