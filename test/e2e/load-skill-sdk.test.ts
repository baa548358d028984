/**
 * `load_skill` of a skill with a required argument, as the official clients
 * meet it over a real stdio pipe on every revision they speak: SDK v1
 * (@modelcontextprotocol/sdk) on 2025-06-18 and 2025-11-25, SDK v2
 * (@modelcontextprotocol/client) on those and on 2026-07-28. A client without
 * elicitation gets the skill and a note of what it takes (the model fills the
 * rest in); a client with it is asked, as before; `prompts/get` keeps its
 * -32602 either way. Every message the server sends is checked against the
 * revision's official schema.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { hasDefinition, type RevisionName, schemaErrors } from '../_schema.js';
import { BIN, type Message, ROOT } from '../_stdio-client.js';
import { offering } from './_offering.js';

const SKILLS = `${ROOT}skills`;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** The result definition of each method the clients send here. */
const RESULTS: Record<string, string> = {
  initialize: 'InitializeResult',
  'server/discover': 'DiscoverResult',
  'tools/call': 'CallToolResult',
  'prompts/get': 'GetPromptResult',
};

/**
 * Every message `transport` hands its client, kept with the method of the
 * request it answers: the client sets `onmessage` and calls `send` on
 * connect, so both are wrapped before.
 */
function recording(transport: object): Array<{ message: Message; method: string | undefined }> {
  const seen: Array<{ message: Message; method: string | undefined }> = [];
  const sent = new Map<unknown, string>();
  const target = transport as { send(message: Message, options?: unknown): Promise<void>; onmessage?: (message: Message, extra?: unknown) => void };
  const send = target.send.bind(target);
  target.send = (message, options) => {
    if (message.method !== undefined && message.id !== undefined) sent.set(message.id, message.method);
    return send(message, options);
  };
  let deliver: ((message: Message, extra?: unknown) => void) | undefined;
  Object.defineProperty(target, 'onmessage', {
    configurable: true,
    get: () =>
      deliver === undefined
        ? undefined
        : (message: Message, extra?: unknown) => (seen.push({ message, method: sent.get(message.id) }), deliver?.(message, extra)),
    set: (handler) => {
      deliver = handler;
    },
  });
  return seen;
}

/** Each recorded message against the revision's schema: its envelope, and the result of a method named above. */
function expectValid(revision: RevisionName, seen: ReturnType<typeof recording>): void {
  expect(seen.length).toBeGreaterThan(0);
  const old = revision === '2025-06-18';
  for (const { message, method } of seen) {
    const at = JSON.stringify(message).slice(0, 300);
    if ('error' in message) {
      expect(schemaErrors(revision, old ? 'JSONRPCError' : 'JSONRPCErrorResponse', message), at).toEqual([]);
    } else if ('result' in message) {
      const result = method === undefined ? undefined : RESULTS[method];
      const response = result !== undefined && hasDefinition(revision, `${result}Response`) ? `${result}Response` : undefined;
      expect(schemaErrors(revision, response ?? (old ? 'JSONRPCResponse' : 'JSONRPCResultResponse'), message), at).toEqual([]);
      if (result !== undefined && response === undefined) expect(schemaErrors(revision, result, message.result), at).toEqual([]);
    } else {
      expect(schemaErrors(revision, message.id === undefined ? 'JSONRPCNotification' : 'JSONRPCRequest', message), at).toEqual([]);
      if (message.method === 'elicitation/create') expect(schemaErrors(revision, 'ElicitRequest', message), at).toEqual([]);
    }
  }
}

type Sdk = 'v1' | 'v2';
const CASES: Array<[Sdk, RevisionName]> = [
  ['v1', '2025-06-18'],
  ['v1', '2025-11-25'],
  ['v2', '2025-06-18'],
  ['v2', '2025-11-25'],
  ['v2', '2026-07-28'],
];

interface Connected {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
}

/** A client of `sdk` on `revision` over stdio, answering elicitations with `answer` when given one; and what it received. */
async function connect(sdk: Sdk, revision: RevisionName, answer?: () => Message) {
  const command = { command: process.execPath, args: [BIN, 'serve', SKILLS, '--log-level', 'silent'], stderr: 'ignore' as const };
  const capabilities = answer ? { elicitation: sdk === 'v1' ? {} : { form: {} } } : {};
  const asked: Message[] = [];
  const respond = async (request: Message) => {
    asked.push(request.params);
    return (answer as () => Message)();
  };
  let client: Connected & { close(): Promise<void> };
  let seen: ReturnType<typeof recording>;
  if (sdk === 'v1') {
    const wire = new StdioV1(command);
    offering(wire, revision);
    seen = recording(wire);
    const v1 = new ClientV1({ name: 'tool-only-host', version: '1' }, { capabilities });
    if (answer) v1.setRequestHandler(ElicitRequestSchema, respond as never);
    await v1.connect(wire);
    client = v1 as never;
  } else {
    const wire = new StdioV2(command);
    seen = recording(wire);
    const negotiation = revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
    const v2 = new ClientV2({ name: 'tool-only-host', version: '2' }, { ...negotiation, capabilities } as never);
    if (answer) v2.setRequestHandler('elicitation/create', respond as never);
    await v2.connect(wire);
    expect(v2.getNegotiatedProtocolVersion()).toBe(revision);
    client = v2 as never;
  }
  closers.push(() => client.close());
  return { client, asked, seen };
}

const texts = (result: unknown): string[] => (result as { content: Message[] }).content.map((block) => block.text);

describe.each(CASES)('load_skill with the SDK %s client on %s', (sdk, revision) => {
  it('without elicitation: the skill, a note of what it takes, and prompts/get still -32602', { tags: ['schema'] }, async () => {
    const { client, seen } = await connect(sdk, revision);
    const result = await client.callTool({ name: 'load_skill', arguments: { name: 'code-review', arguments: { focus: 'security' } } });
    expect((result as Message).isError).toBeFalsy();
    const [note, skill] = texts(result);
    expect(note).toContain('The skill "code-review" was loaded without language, which it requires.');
    expect(note).toContain('- language (required, not given): Main programming language of the change; suggested values: c, cpp, csharp, go,');
    expect(note).toContain('- focus (optional, given: "security")');
    expect(skill).toContain('written mainly in **{{language}}**');
    expect(skill).toContain('Requested focus (empty means none): security');
    await expect(client.getPrompt({ name: 'code-review' })).rejects.toMatchObject({ code: -32602 });
    expectValid(revision, seen);
  });

  it('with elicitation: the user is asked, and the skill comes filled in', { tags: ['schema'] }, async () => {
    const { client, asked, seen } = await connect(sdk, revision, () => ({ action: 'accept', content: { language: 'rust' } }));
    const result = await client.callTool({ name: 'load_skill', arguments: { name: 'code-review' } });
    expect((result as Message).isError).toBeFalsy();
    expect(texts(result)[0]).toContain('written mainly in **rust**');
    expect(texts(result).join('\n')).not.toContain('was loaded without');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.requestedSchema.required).toEqual(['language']);
    expectValid(revision, seen);
  });
});
