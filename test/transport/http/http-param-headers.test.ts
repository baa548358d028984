/**
 * Tool parameters mirrored into `Mcp-Param-*` headers (2026-07-28
 * server/tools §x-mcp-header, basic/transports/streamable-http §Custom
 * Headers from Tool Parameters): the annotation's rules when a tool is
 * defined, and the server's check of the headers against the arguments, on
 * both HTTP targets; the official v2 client sends them and is served. Over
 * stdio, and on the 2025 revisions, there are no such headers to check.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { mirroredParams } from '../../../src/core/tool-headers.js';
import { serveHttp } from '../../../src/http.js';
import { createServer, defineTool, type Server, staticTools } from '../../../src/index.js';
import { HTTP_CLIENTS, json, modernPost, type RawHttpClient } from '../../_http-client.js';
import { schemaErrors } from '../../_schema.js';
import type { Message } from '../../_wire.js';

const ROUTE_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    priority: { type: 'integer', 'x-mcp-header': 'Priority' },
    dry_run: { type: 'boolean', 'x-mcp-header': 'DryRun' },
    target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    query: { type: 'string' },
  },
  required: ['region', 'query'],
};

function routeServer(): Server {
  const route = defineTool({
    name: 'route',
    description: 'Runs a query in a region.',
    inputSchema: ROUTE_SCHEMA,
    call: (args) => `ran ${JSON.stringify(args)}`,
  });
  return createServer({ name: 'param-headers', version: '1.0.0', tools: staticTools([route]) });
}

function base64(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

describe('x-mcp-header annotations when a tool is defined', () => {
  const define = (properties: Message, extra: Message = {}) =>
    defineTool({ name: 't', inputSchema: { type: 'object', properties, ...extra }, call: () => 'ok' });

  it('reads each mirrored parameter with its path, header and type', () => {
    expect(mirroredParams(ROUTE_SCHEMA)).toEqual({
      params: [
        { path: ['region'], header: 'Region', type: 'string' },
        { path: ['priority'], header: 'Priority', type: 'integer' },
        { path: ['dry_run'], header: 'DryRun', type: 'boolean' },
        { path: ['target', 'zone'], header: 'Zone', type: 'string' },
      ],
      problems: [],
    });
    // Instance data that looks like an annotation is data.
    expect(mirroredParams({ type: 'object', properties: { a: { type: 'object', default: { 'x-mcp-header': 'A' } } } }).problems).toEqual([]);
  });

  it.each([
    ['empty', { value: { type: 'string', 'x-mcp-header': '' } }],
    ['on an object', { data: { type: 'object', 'x-mcp-header': 'Data' } }],
    ['on an array', { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }],
    ['on null', { nil: { type: 'null', 'x-mcp-header': 'Nil' } }],
    ['on a number', { score: { type: 'number', 'x-mcp-header': 'Score' } }],
    ['on a type list', { flag: { type: ['boolean', 'null'], 'x-mcp-header': 'Flag' } }],
    ['without a type', { any: { 'x-mcp-header': 'Any' } }],
    ['repeated', { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }],
    ['repeated in another case', { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }],
    ['with a space', { value: { type: 'string', 'x-mcp-header': 'My Region' } }],
    ['with a colon', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }],
    ['not ASCII', { value: { type: 'string', 'x-mcp-header': 'Région' } }],
    ['with a control character', { value: { type: 'string', 'x-mcp-header': 'Region\t1' } }],
    ['not a string', { value: { type: 'string', 'x-mcp-header': 7 } }],
    ['under items', { list: { type: 'array', items: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'V' } } } } }],
    ['under oneOf', { pick: { oneOf: [{ type: 'string', 'x-mcp-header': 'Pick' }] } }],
  ])('refuses one %s', (_, properties) => {
    expect(() => define(properties as Message)).toThrow(/Tool "t": x-mcp-header/);
  });

  it('refuses one at the root, under $defs or under additionalProperties', () => {
    expect(() => define({}, { 'x-mcp-header': 'Root' })).toThrow(/schema root/);
    expect(() => define({}, { $defs: { id: { type: 'string', 'x-mcp-header': 'Id' } } })).toThrow(/x-mcp-header/);
    expect(() => define({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } })).toThrow(/x-mcp-header/);
  });
});

describe.each(Object.entries(HTTP_CLIENTS))('Mcp-Param-* headers, %s', (_, makeClient) => {
  let client: RawHttpClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function call(args: Message, headers: Record<string, string | undefined>): Promise<{ status: number; body: Message }> {
    client ??= await makeClient(routeServer());
    const response = await modernPost(client, 'tools/call', { name: 'route', arguments: args }, headers);
    return { status: response.status, body: await json(response) };
  }

  async function accepted(args: Message, headers: Record<string, string | undefined>): Promise<void> {
    const { status, body } = await call(args, headers);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.result?.isError, JSON.stringify(body)).toBeUndefined();
    expect(schemaErrors('2026-07-28', 'CallToolResult', body.result)).toEqual([]);
  }

  async function refused(args: Message, headers: Record<string, string | undefined>, message: RegExp): Promise<void> {
    const { status, body } = await call(args, headers);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.error?.code).toBe(-32020);
    expect(body.error?.message).toMatch(message);
    expect(schemaErrors('2026-07-28', 'JSONRPCErrorResponse', body)).toEqual([]);
  }

  const args = { region: 'us-west1', query: 'SELECT 1' };

  it('serves a call whose headers say what its arguments say, plain or Base64', { tags: ['schema'] }, async () => {
    await accepted(args, { 'mcp-param-region': 'us-west1' });
    await accepted({ ...args, region: 'Hello, 世界' }, { 'mcp-param-region': base64('Hello, 世界') });
    await accepted({ ...args, region: ' padded ' }, { 'mcp-param-region': base64(' padded ') });
    // Only a value with both markers is encoded: one with a prefix alone is a literal.
    await accepted({ ...args, region: '=?base64?SGVsbG8=' }, { 'mcp-param-region': '=?base64?SGVsbG8=' });
    // Integers compare as numbers, booleans as lowercase words, nested properties by their path.
    await accepted(
      { ...args, priority: 42, dry_run: false, target: { zone: 'b' } },
      { 'mcp-param-region': 'us-west1', 'mcp-param-priority': '42.0', 'mcp-param-dryrun': 'false', 'mcp-param-zone': 'b' },
    );
    // A header the tool does not declare is not the server's.
    await accepted(args, { 'mcp-param-region': 'us-west1', 'mcp-param-other': 'x' });
    // A null value is not mirrored: no header is expected, and the schema, not the header check, answers.
    const nullValue = await call({ ...args, dry_run: null }, { 'mcp-param-region': 'us-west1' });
    expect(nullValue.status).toBe(200);
    expect(nullValue.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('/dry_run') }] });
  });

  it('refuses with 400 and -32020 a missing, different, malformed or unexpected header', { tags: ['schema'] }, async () => {
    await refused(args, {}, /missing Mcp-Param-Region header for params\.arguments\.region/);
    await refused(args, { 'mcp-param-region': 'eu-west1' }, /Mcp-Param-Region differs/);
    await refused(args, { 'mcp-param-region': '=?base64?SGVsbG8?=' }, /malformed Base64/);
    await refused(args, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, /malformed Base64/);
    await refused(args, { 'mcp-param-region': base64('us-west2') }, /differs/);
    await refused({ ...args, priority: 7 }, { 'mcp-param-region': 'us-west1', 'mcp-param-priority': '8' }, /Mcp-Param-Priority differs/);
    await refused({ ...args, priority: 7 }, { 'mcp-param-region': 'us-west1', 'mcp-param-priority': 'seven' }, /differs/);
    await refused({ ...args, dry_run: true }, { 'mcp-param-region': 'us-west1', 'mcp-param-dryrun': 'True' }, /Mcp-Param-DryRun differs/);
    await refused({ ...args, target: { zone: 'a' } }, { 'mcp-param-region': 'us-west1' }, /params\.arguments\.target\.zone/);
    await refused(args, { 'mcp-param-region': 'us-west1', 'mcp-param-zone': 'a' }, /Mcp-Param-Zone is given but params\.arguments\.target\.zone has no value/);
  });
});

describe('the official v2 client', () => {
  it('mirrors the annotated arguments, and skillport serves the call', async () => {
    const running = await serveHttp(routeServer(), { host: '127.0.0.1', port: 0 });
    const client = new ClientV2({ name: 'sdk-v2-headers', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new HttpV2(running.url));
      await client.listTools();
      const result = await client.callTool({ name: 'route', arguments: { region: 'Zürich', priority: 3, target: { zone: 'c' }, query: 'q' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'ran {"region":"Zürich","priority":3,"target":{"zone":"c"},"query":"q"}' }]);
    } finally {
      await client.close();
      await running.close();
    }
  });
});
