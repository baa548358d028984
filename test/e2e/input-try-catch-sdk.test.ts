/**
 * The natural try/catch around `ctx.input` asks the user on every revision,
 * over stdio and Streamable HTTP, with the official clients (issue 25): SDK
 * v1 (@modelcontextprotocol/sdk) on 2025-06-18 and 2025-11-25, SDK v2
 * (@modelcontextprotocol/client) on those and on 2026-07-28, where the wait
 * is an InputPendingError the handler's catch swallows and the round still
 * ends with an InputRequiredResult. The server is
 * test/fixtures/servers/try-catch.mjs, a real process built from the public API.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { offering } from './_offering.js';

const FIXTURE = `${ROOT}test/fixtures/servers/try-catch.mjs`;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

type Transport = 'stdio' | 'http';

/** The fixture's endpoint over `transport`: its command line, or its URL. */
async function endpoint(transport: Transport): Promise<URL | undefined> {
  return transport === 'http' ? (await startHttpFixture(FIXTURE, ['--http'], closers)).url : undefined;
}

/** The name the user gives, and every question the client was asked. */
function answering(asked: string[]) {
  return async (request: { params: { message: string } }) => {
    asked.push(request.params.message);
    return { action: 'accept' as const, content: { name: 'Ada' } };
  };
}

/** What each client sees: the tool and the prompt each asked once, and greeted with the answer. */
async function journey(client: ClientV1 | ClientV2, asked: string[]): Promise<void> {
  expect((await client.callTool({ name: 'greet' })).content).toEqual([{ type: 'text', text: 'Hello, Ada.' }]);
  const prompt = await client.getPrompt({ name: 'welcome' });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Welcome, Ada.' });
  expect(asked).toEqual(['What is your name?', 'What is your name?']);
}

describe.each(['stdio', 'http'] as const)('SDK v1 over %s', (transport) => {
  it.each(['2025-06-18', '2025-11-25'])('on %s: the question reaches the user, the catch does not run', async (version) => {
    const url = await endpoint(transport);
    const wire = url ? new HttpV1(url) : new StdioV1({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
    offering(wire, version);
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, answering(asked));
    await client.connect(wire);
    closers.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('try-catch-fixture');
    expect(wire instanceof HttpV1 ? wire.protocolVersion : version).toBe(version);
    await journey(client, asked);
  });
});

describe.each(['stdio', 'http'] as const)('SDK v2 over %s', (transport) => {
  it.each(['2025-06-18', '2025-11-25', '2026-07-28'])('on %s: the question reaches the user, the catch does not run', async (version) => {
    const url = await endpoint(transport);
    const wire = url ? new HttpV2(url) : new StdioV2({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
    const negotiation = version === '2026-07-28' ? { versionNegotiation: { mode: { pin: version } } } : { supportedProtocolVersions: [version] };
    const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { ...negotiation, capabilities: { elicitation: { form: {} } } } as never);
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', answering(asked));
    await client.connect(wire);
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    await journey(client, asked);
  });
});
