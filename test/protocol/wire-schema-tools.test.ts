/**
 * Tools on the wire, in every revision: tools/list, tools/call with every
 * content kind and structured content, a tool's failure, bad arguments (a
 * protocol error in 2025-06-18, a tool result from 2025-11-25 on), an unknown
 * tool, and tools/list_changed; each message captured from a real stdio pipe
 * and validated against that revision's official schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RevisionName, schemaErrors } from '../_schema.js';
import { initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';

const FIXTURE = `${ROOT}test/fixtures/servers/tools.mjs`;
const REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function expectSchema(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe.each(REVISIONS)('tools at %s', (revision) => {
  const isModern = revision === '2026-07-28';
  const params = (p: Message = {}): Message => (isModern ? modern(p) : p);

  async function open(): Promise<RawStdioClient> {
    client = RawStdioClient.spawn(FIXTURE);
    if (!isModern) {
      const init = await initialize(client, revision);
      expect(init.result.capabilities).toEqual({ logging: {}, completions: {}, prompts: {}, tools: { listChanged: true } });
    }
    return client;
  }

  function result(name: string, response: Message): Message {
    expect(response.error, JSON.stringify(response.error)).toBeUndefined();
    expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse', response);
    expectSchema(revision, name, response.result);
    if (isModern) expect(response.result.resultType).toBe('complete');
    return response.result as Message;
  }

  function error(response: Message, code: number): Message {
    expect(response.error?.code, JSON.stringify(response)).toBe(code);
    expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', response);
    return response.error as Message;
  }

  it('lists tools page by page with their schemas', { tags: ['schema'] }, async () => {
    const c = await open();
    const tools: Message[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = result('ListToolsResult', await c.request('tools/list', params(cursor ? { cursor } : {})));
      if (isModern) expect(page).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
      tools.push(...page.tools);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'weather', 'content_kinds', 'reports', 'ask_name', 'fails']);
    const [echo, add, weather, kinds] = tools as [Message, Message, Message, Message];
    expect(echo).toMatchObject({ title: 'Echo', annotations: { readOnlyHint: true, openWorldHint: false } });
    // Icons exist on tools from 2025-11-25 on.
    expect('icons' in echo).toBe(revision !== '2025-06-18');
    // The zod schema, listed as JSON Schema.
    expect(add.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] });
    expect(weather.outputSchema).toMatchObject({ required: ['city', 'celsius'] });
    expect(kinds.inputSchema).toEqual({ type: 'object', additionalProperties: false });
  });

  it('calls tools: every content kind, structured content, a failure', { tags: ['schema'] }, async () => {
    const c = await open();
    const echo = result('CallToolResult', await c.request('tools/call', params({ name: 'echo', arguments: { text: 'hi' } })));
    expect(echo.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(echo.isError).toBeUndefined();
    expect(result('CallToolResult', await c.request('tools/call', params({ name: 'add', arguments: { a: 2, b: 40 } }))).content[0].text).toBe('42');

    const weather = result('CallToolResult', await c.request('tools/call', params({ name: 'weather', arguments: { city: 'Oslo' } })));
    expect(weather.structuredContent).toEqual({ city: 'Oslo', celsius: -3 });
    // server/tools §Structured Content: the same data as text, for clients that read only content.
    expect(JSON.parse(weather.content[0].text)).toEqual(weather.structuredContent);

    const kinds = result('CallToolResult', await c.request('tools/call', params({ name: 'content_kinds' })));
    expect(kinds.content.map((b: Message) => b.type)).toEqual(['text', 'image', 'audio', 'resource_link', 'resource']);
    expect('icons' in kinds.content[3]).toBe(revision !== '2025-06-18');

    const failed = result('CallToolResult', await c.request('tools/call', params({ name: 'fails' })));
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the upstream service is down' }] });
  });

  it('answers bad arguments as the revision says, and an unknown tool with -32602', { tags: ['schema'] }, async () => {
    const c = await open();
    for (const [name, args, where] of [
      ['echo', { text: '' }, '/text'],
      ['echo', { text: 'x', extra: 1 }, '/'],
      ['add', { a: 1, b: 'two' }, '/b'],
      ['weather', {}, '/'],
    ] as const) {
      const response = await c.request('tools/call', params({ name, arguments: args }));
      if (revision === '2025-06-18') {
        // 2025-06-18 server/tools §Error Handling: invalid arguments are a protocol error.
        const wire = error(response, -32602);
        expect(wire.data).toMatchObject({ name });
        expect(wire.data.issues.some((issue: string) => issue.startsWith(`${where}:`))).toBe(true);
      } else {
        // 2025-11-25 and later: an input validation error is a tool execution error.
        const answer = result('CallToolResult', response);
        expect(answer.isError).toBe(true);
        expect(answer.content[0].text).toContain(`Invalid arguments for tool "${name}": ${where}:`);
      }
    }
    expect(error(await c.request('tools/call', params({ name: 'nope' })), -32602).message).toBe('Unknown tool: "nope"');
    // Malformed params are a protocol error in every revision.
    error(await c.request('tools/call', params({ name: 'echo', arguments: 'text' })), -32602);
    error(await c.request('tools/call', params({})), -32602);
  });

  it('sends a request its progress and the log messages it asked for', { tags: ['schema'] }, async () => {
    const c = await open();
    const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
    /** Calls `reports` and returns what came for it: progress and log messages, in order. */
    async function report(id: string, meta: Message): Promise<{ progress: Message[]; logs: Message[] }> {
      const before = c.received.length;
      const base = params({ name: 'reports' });
      c.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...base, _meta: { ...base._meta, ...meta } } });
      const answer = await c.waitFor((m) => m.id === id);
      expect(result('CallToolResult', answer).content).toEqual([{ type: 'text', text: 'reported' }]);
      const came = c.received.slice(before, c.received.indexOf(answer));
      for (const m of came) expectSchema(revision, m.method === 'notifications/progress' ? 'ProgressNotification' : 'LoggingMessageNotification', m);
      return { progress: came.filter((m) => m.method === 'notifications/progress'), logs: came.filter((m) => m.method === 'notifications/message') };
    }
    const levels = (logs: Message[]) => logs.map((m) => m.params.level);

    const first = await report('p1', { progressToken: 'tok' });
    expect(first.progress.map((m) => m.params)).toEqual([1, 2, 3].map((step) => ({ progressToken: 'tok', progress: step, total: 3, message: `step ${step}` })));
    if (isModern) {
      // 2026-07-28 server/utilities/logging: no log level in _meta, no log messages.
      expect(first.logs).toEqual([]);
      expect(levels((await report('p2', { [LOG_LEVEL]: 'info' })).logs)).toEqual(['info', 'error']);
      expect((await report('p3', { [LOG_LEVEL]: 'debug' })).logs.map((m) => m.params)).toEqual([
        { level: 'debug', data: { step: 'start' } },
        { level: 'info', logger: 'fixture', data: 'working' },
        { level: 'error', data: { problem: 'none really' } },
      ]);
      const refused = await c.request('tools/call', { ...params({ name: 'reports' }), _meta: { ...params()._meta, [LOG_LEVEL]: 'loud' } });
      expect(error(refused, -32602).message).toContain(LOG_LEVEL);
      error(await c.request('logging/setLevel', params({ level: 'info' })), -32601);
    } else {
      // A session that set no level gets every level; setLevel sets the least severe one.
      expect(levels(first.logs)).toEqual(['debug', 'info', 'error']);
      expect(result('EmptyResult', await c.request('logging/setLevel', { level: 'warning' }))).toEqual({});
      const second = await report('p2', {});
      expect(second.progress).toEqual([]);
      expect(levels(second.logs)).toEqual(['error']);
      error(await c.request('logging/setLevel', { level: 'loud' }), -32602);
    }
  });

  it('tells of a changed tool list', { tags: ['schema'] }, async () => {
    const c = await open();
    if (isModern) {
      c.send({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: modern({ notifications: { toolsListChanged: true } }) });
      const ack = await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      expectSchema(revision, 'SubscriptionsAcknowledgedNotification', ack);
      expect(ack.params.notifications).toEqual({ toolsListChanged: true });
    }
    c.child.kill('SIGUSR2');
    const changed = await c.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expectSchema(revision, 'ToolListChangedNotification', changed);
    if (isModern) expect(changed.params._meta[SUBSCRIPTION_ID]).toBe('l');
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = result('ListToolsResult', await c.request('tools/list', params(cursor ? { cursor } : {})));
      names.push(...page.tools.map((t: Message) => t.name));
      cursor = page.nextCursor;
    } while (cursor && names.length < 20);
    expect(names).toContain('added');
  });
});

describe('input-required requests', () => {
  const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
  const can = (capabilities: Message): Message => ({ ...modern()._meta, [CAPABILITIES]: capabilities });

  it('on 2026-07-28: asks with an InputRequiredResult and completes on the retry', { tags: ['schema'] }, async () => {
    const REV = '2026-07-28';
    client = RawStdioClient.spawn(FIXTURE);
    const c = client;
    const ask = await c.request('tools/call', { name: 'ask_name', _meta: can({ elicitation: {} }) });
    expectSchema(REV, 'JSONRPCResultResponse', ask);
    expectSchema(REV, 'InputRequiredResult', ask.result);
    expect(ask.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(typeof ask.result.requestState).toBe('string');
    const answer = { user_name: { action: 'accept', content: { name: 'Ada' } } };
    const done = await c.request('tools/call', {
      name: 'ask_name',
      _meta: can({ elicitation: {} }),
      inputResponses: answer,
      requestState: ask.result.requestState,
    });
    expectSchema(REV, 'CallToolResult', done.result);
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada.' }] });
    // The state is bound to its request and cannot be altered.
    const tampered = await c.request('tools/call', {
      name: 'ask_name',
      _meta: can({ elicitation: {} }),
      inputResponses: answer,
      requestState: `${ask.result.requestState}-TAMPERED`,
    });
    expectSchema(REV, 'JSONRPCErrorResponse', tampered);
    expect(tampered.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // A client without elicitation is asked through sampling, as the tool falls back.
    const sampling = await c.request('tools/call', { name: 'ask_name', _meta: can({ sampling: {} }) });
    expectSchema(REV, 'InputRequiredResult', sampling.result);
    expect(Object.values(sampling.result.inputRequests).map((r) => (r as Message).method)).toEqual(['sampling/createMessage']);
    // Answers that are no answers never complete the request.
    for (const bad of [12345, null, { action: 'maybe' }]) {
      const refused = await c.request('tools/call', { name: 'ask_name', _meta: can({ elicitation: {} }), inputResponses: { user_name: bad } });
      expect(refused.error?.code, JSON.stringify(refused)).toBe(-32602);
    }
    // An answer under a key nobody asked for is ignored: the question is asked again.
    const again = await c.request('tools/call', { name: 'ask_name', _meta: can({ elicitation: {} }), inputResponses: { other: { action: 'accept' } } });
    expect(again.result.resultType).toBe('input_required');

    // A prompt's missing required argument is asked with a form; a client that cannot ask gets -32602.
    const form = await c.request('prompts/get', { name: 'review', arguments: { code: 'x := 1' }, _meta: can({ elicitation: {} }) });
    expectSchema(REV, 'InputRequiredResult', form.result);
    const question = form.result.inputRequests.prompt_arguments;
    expectSchema(REV, 'ElicitRequest', question);
    expect(question.params.requestedSchema).toEqual({
      type: 'object',
      properties: { language: { type: 'string', title: 'language', description: 'Language of the code', enum: ['go', 'python', 'rust'] } },
      required: ['language'],
    });
    const got = await c.request('prompts/get', {
      name: 'review',
      arguments: { code: 'x := 1' },
      _meta: can({ elicitation: {} }),
      inputResponses: { prompt_arguments: { action: 'accept', content: { language: 'go' } } },
      requestState: form.result.requestState,
    });
    expectSchema(REV, 'GetPromptResult', got.result);
    expect(got.result.messages[0].content.text).toBe('Review this go: x := 1');
    const declined = await c.request('prompts/get', {
      name: 'review',
      arguments: { code: 'x' },
      _meta: can({ elicitation: {} }),
      inputResponses: { prompt_arguments: { action: 'decline' } },
    });
    expect(declined.error?.code).toBe(-32602);
    const cannot = await c.request('prompts/get', { name: 'review', arguments: { code: 'x' }, _meta: can({}) });
    expect(cannot.error).toMatchObject({ code: -32602, data: { name: 'review', argument: 'language' } });

    // A tool that needs what the client did not declare: -32021 naming it.
    const missing = await c.request('tools/call', { name: 'ask_name', _meta: can({}) });
    expectSchema(REV, 'MissingRequiredClientCapabilityError', missing);
    expect(missing.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it.each(['2025-06-18', '2025-11-25'] as const)('on %s sessions: asks the client with requests of its own', { tags: ['schema'] }, async (revision) => {
    client = RawStdioClient.spawn(FIXTURE);
    const c = client;
    await c.request('initialize', { protocolVersion: revision, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } });
    c.notify('notifications/initialized');
    c.send({ jsonrpc: '2.0', id: 'get', method: 'prompts/get', params: { name: 'review', arguments: { code: 'x' } } });
    const question = await c.waitFor((m) => m.method === 'elicitation/create');
    expectSchema(revision, 'ElicitRequest', question);
    // 2025-06-18 elicitation has no mode; 2025-11-25 names form mode.
    expect('mode' in question.params).toBe(revision !== '2025-06-18');
    expect(question.params.requestedSchema.properties.language.enum).toEqual(['go', 'python', 'rust']);
    c.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { language: 'rust' } } });
    const got = await c.waitFor((m) => m.id === 'get');
    expectSchema(revision, 'GetPromptResult', got.result);
    expect(got.result.messages[0].content.text).toBe('Review this rust: x');

    // An answer that is no answer fails the request; the client's own error too.
    c.send({ jsonrpc: '2.0', id: 'tool', method: 'tools/call', params: { name: 'ask_name' } });
    const second = await c.waitFor((m) => m.method === 'elicitation/create' && m.id !== question.id);
    c.send({ jsonrpc: '2.0', id: second.id, result: { action: 'maybe' } });
    const failed = await c.waitFor((m) => m.id === 'tool');
    expect(failed.error?.code, JSON.stringify(failed)).toBe(-32603);

    // A cancelled request's question is withdrawn.
    c.send({ jsonrpc: '2.0', id: 'gone', method: 'tools/call', params: { name: 'ask_name' } });
    const third = await c.waitFor((m) => m.method === 'elicitation/create' && m.id !== question.id && m.id !== second.id);
    c.notify('notifications/cancelled', { requestId: 'gone' });
    const withdrawn = await c.waitFor((m) => m.method === 'notifications/cancelled');
    expectSchema(revision, 'CancelledNotification', withdrawn);
    expect(withdrawn.params.requestId).toBe(third.id);
  });

  it.each(['2025-06-18', '2025-11-25'] as const)(
    'on %s sessions: a client that cannot elicit gets -32602 for a missing argument',
    { tags: ['schema'] },
    async (revision) => {
      client = RawStdioClient.spawn(FIXTURE);
      await initialize(client, revision);
      const response = await client.request('prompts/get', { name: 'review', arguments: { code: 'x' } });
      expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', response);
      expect(response.error).toMatchObject({ code: -32602, data: { name: 'review', argument: 'language' } });
      // A tool that needs what the session did not declare: an invalid request naming it.
      const missing = await client.request('tools/call', { name: 'ask_name' });
      expect(missing.error).toMatchObject({ code: -32600, data: { requiredCapabilities: { sampling: {} } } });
    },
  );
});
