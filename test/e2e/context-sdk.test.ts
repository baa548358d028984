/**
 * The handler context as the official SDK clients meet it: log messages sent
 * by default (no `logging` option) at the level the client set, progress only
 * for a request with a token, `ctx.can` telling both, and an elicitation
 * asked with a zod schema: the client gets its JSON Schema (checked against
 * the official schema), the handler the validated, typed answer. The server
 * is test/fixtures/servers/context.mjs, a real process built from the public API.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture } from '../_http-client.js';
import { type RevisionName, schemaErrors } from '../_schema.js';
import { ROOT } from '../_stdio-client.js';

const FIXTURE = `${ROOT}test/fixtures/servers/context.mjs`;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

const text = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]?.text ?? '';

async function stdioClient(capabilities: Record<string, unknown> = {}): Promise<ClientV1> {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities });
  await client.connect(new StdioV1({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
  closers.push(() => client.close());
  return client;
}

describe('log messages and progress with no logging option (SDK v1)', () => {
  it('over stdio: declares logging, sends every level before setLevel and only those at or above it after', async () => {
    const client = await stdioClient();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      levels.push(notification.params.level);
    });
    const before = JSON.parse(text(await client.callTool({ name: 'chatty' })));
    expect(before).toEqual({ progress: false, debug: true, error: true, elicit: false });
    expect(levels).toEqual(['debug', 'info', 'error']);

    levels.length = 0;
    await client.setLoggingLevel('error');
    const after = JSON.parse(text(await client.callTool({ name: 'chatty' })));
    expect(after).toMatchObject({ debug: false, error: true });
    expect(levels).toEqual(['error']);
  });

  // Over HTTP: SDK v1's stdio client settles a response read in the same chunk as the
  // notifications before it ahead of them, and drops their progress as of an unknown token.
  it('sends progress only to a request with a token, and says so in ctx.can (SDK v1 over HTTP)', async () => {
    const { url } = await startHttpFixture(FIXTURE, ['--http'], closers);
    const client = new ClientV1({ name: 'sdk-v1-http', version: '1.0.0' });
    await client.connect(new HttpV1(url));
    closers.push(() => client.close());
    const without = JSON.parse(text(await client.callTool({ name: 'chatty' })));
    expect(without.progress).toBe(false);
    const seen: number[] = [];
    const withToken = await client.callTool({ name: 'chatty' }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(JSON.parse(text(withToken)).progress).toBe(true);
    expect(seen).toEqual([1, 2]);
  });
});

describe('an elicitation asked with a zod schema', () => {
  it('over stdio (SDK v1): the client gets a valid form schema, the handler the validated answer', { tags: ['schema'] }, async () => {
    const client = await stdioClient({ elicitation: {} });
    const requests: unknown[] = [];
    let content: Record<string, unknown> = { confirm: true, copies: 3 };
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      requests.push(request);
      return { action: 'accept', content } as never;
    });
    expect(JSON.parse(text(await client.callTool({ name: 'confirm' })))).toEqual({ confirm: true, copies: 3, kind: 'number' });

    const params = (requests[0] as { params: { requestedSchema: unknown } }).params;
    expect(params.requestedSchema).toEqual({
      type: 'object',
      properties: {
        confirm: { type: 'boolean', description: 'Go ahead' },
        copies: { type: 'integer', minimum: 1, maximum: 5 },
        colour: { type: 'string', enum: ['red', 'blue'] },
      },
      required: ['confirm', 'copies'],
    });
    expect(schemaErrors(LATEST_PROTOCOL_VERSION as RevisionName, 'ElicitRequest', { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params })).toEqual([]);

    // An answer outside the schema is the client's invalid input: -32602, naming the field.
    content = { confirm: true, copies: 9 };
    await expect(client.callTool({ name: 'confirm' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('/copies') });
  });

  it('over Streamable HTTP on 2026-07-28 (SDK v2): asked in an input-required round, typed on the retry', { tags: ['schema'] }, async () => {
    const { url } = await startHttpFixture(FIXTURE, ['--http'], closers);
    const client = new ClientV2(
      { name: 'sdk-v2-http', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    const schemas: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      schemas.push((request.params as { requestedSchema: unknown }).requestedSchema);
      return { action: 'accept', content: { confirm: false, copies: 1 } };
    });
    await client.connect(new HttpV2(url));
    closers.push(() => client.close());
    expect(JSON.parse(text(await client.callTool({ name: 'confirm' })))).toEqual({ confirm: false, copies: 1, kind: 'number' });
    expect(schemas).toHaveLength(1);
    expect(schemaErrors('2026-07-28', 'ElicitRequest', { method: 'elicitation/create', params: { message: 'Proceed?', requestedSchema: schemas[0] } })).toEqual(
      [],
    );
  });
});
