/**
 * Tasks on the wire, over stdio (a child process) and Streamable HTTP on
 * 127.0.0.1 (serveHttp in a child process), each answer validated against
 * the official schema of its revision: 2025-11-25 basic/utilities/tasks
 * (the `tasks` capability, `execution.taskSupport`, CreateTaskResult,
 * tasks/get, tasks/list, tasks/cancel, tasks/result and their errors);
 * 2025-06-18, which has none of it; and the 2026-07-28 Tasks extension
 * (SEP-2663), which the official 2026 schema does not define: its results
 * are checked against the schema's `Result` and a JSON Schema written here
 * from the SEP's TypeScript definitions.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { type RevisionName, schemaErrors } from '../_schema.js';
import type { Message } from '../_wire.js';
import { type Answer, modernParams, openPeer, pollTask, TASKS_EXTENSION, type TaskPeer, type Transport } from './_task-peers.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

const TRANSPORTS: Transport[] = ['stdio', 'http'];

function expectSchema(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${revision} ${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** The result of `answer`, checked as a response and as `name` of `revision`. */
function result(revision: RevisionName, name: string | undefined, answer: Answer): Message {
  const { message } = answer;
  expect(message.error, JSON.stringify(message)).toBeUndefined();
  expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse', message);
  if (name) expectSchema(revision, name, message.result);
  return message.result as Message;
}

/** The error of `answer`, checked as an error response (and as the response `name`, where the revision defines one). */
function failure(revision: RevisionName, code: number, answer: Answer, name?: string): Message {
  const { message } = answer;
  expect(message.error?.code, JSON.stringify(message)).toBe(code);
  expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', message);
  if (name) expectSchema(revision, name, message);
  return message.error as Message;
}

describe.each(TRANSPORTS)('2025-11-25 tasks over %s', { tags: ['schema'] }, (transport) => {
  const R = '2025-11-25';
  let peer: TaskPeer;
  const call = (name: string, args: Message, task?: Message): Promise<Answer> =>
    peer.request('tools/call', { name, arguments: args, ...(task ? { task } : {}) });
  const get = (taskId: string): Promise<Answer> => peer.request('tasks/get', { taskId });
  const created = async (name: string, args: Message): Promise<Message> => {
    const answer = result(R, 'CreateTaskResult', await call(name, args, { ttl: 60_000 }));
    expect(answer.task.status).toBe('working');
    return answer.task as Message;
  };
  const statusOf = (taskId: string, status: string): Promise<Message> =>
    pollTask(
      () => get(taskId),
      (task) => task.status === status,
    );

  it('declares tasks, marks tools, and runs a task to its result: tasks/get, tasks/list, a tasks/result that waits', async () => {
    peer = await openPeer(transport, R, closers);
    // §Security Considerations: `list` only where the caller is told apart from others: stdio's one
    // caller; over HTTP without authorization anyone may connect (the OAuth tests list their own).
    const listed = transport === 'stdio';
    expect(peer.initialized?.capabilities.tasks).toEqual({ ...(listed ? { list: {} } : {}), cancel: {}, requests: { tools: { call: {} } } });
    expectSchema(R, 'InitializeResult', peer.initialized);
    const tools = result(R, 'ListToolsResult', await peer.request('tools/list', {})).tools as Message[];
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toMatchObject({ greet: undefined, slow_compute: 'optional', held: 'optional', failing_job: 'required', release: undefined });

    const task = await created('held', { label: 'one' });
    // The server keeps its own TTL (§TTL and Resource Management: receivers MAY override the requested one).
    expect(task).toMatchObject({ ttl: 3_600_000, pollInterval: 20 });
    expect(Date.parse(task.createdAt)).not.toBeNaN();
    const polled = await get(task.taskId);
    expect(result(R, 'GetTaskResult', polled)).toMatchObject({ taskId: task.taskId, status: 'working' });
    // §Input Required Status: a poll is not upgraded to an SSE stream where it can be helped.
    if (transport === 'http') expect(polled.contentType).toMatch(/^application\/json/);
    if (listed) {
      const page = result(R, 'ListTasksResult', await peer.request('tasks/list', {}));
      expect(page.tasks.map((t: Message) => t.taskId)).toContain(task.taskId);
    } else failure(R, -32601, await peer.request('tasks/list', {}));

    // §Result Retrieval: tasks/result blocks until the task is terminal.
    let answered = false;
    const payload = peer.request('tasks/result', { taskId: task.taskId }).then((answer) => {
      answered = true;
      return answer;
    });
    expect(result(R, 'GetTaskResult', await get(task.taskId)).status).toBe('working');
    expect(answered).toBe(false);
    result(R, 'CallToolResult', await call('release', { label: 'one' }));
    const final = result(R, 'CallToolResult', await payload);
    expectSchema(R, 'GetTaskPayloadResult', final);
    expect(final.content).toEqual([{ type: 'text', text: 'Released one' }]);
    // §Associating Task-Related Messages: tasks/result names its task.
    expect(final._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId });
    expect((await statusOf(task.taskId, 'completed')).status).toBe('completed');
    // §Task Cancellation: a terminal task cannot be cancelled.
    failure(R, -32602, await peer.request('tasks/cancel', { taskId: task.taskId }));
    // tasks/result of a terminal task answers at once, the same result.
    expect(result(R, 'CallToolResult', await peer.request('tasks/result', { taskId: task.taskId })).content).toEqual(final.content);
  });

  it('cancels a running task: cancelled in the answer, and it stays so; a second cancel is -32602', async () => {
    peer = await openPeer(transport, R, closers);
    const task = await created('held', { label: 'cancelled' });
    const cancelled = result(R, 'CancelTaskResult', await peer.request('tasks/cancel', { taskId: task.taskId }));
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    result(R, 'CallToolResult', await call('release', { label: 'cancelled' }));
    expect(result(R, 'GetTaskResult', await get(task.taskId)).status).toBe('cancelled');
    failure(R, -32602, await peer.request('tasks/cancel', { taskId: task.taskId }));
    // A cancelled task has no result: tasks/result answers an error, at once.
    failure(R, -32603, await peer.request('tasks/result', { taskId: task.taskId }));
  });

  it('fails a task whose tool reports an error (tasks/result gives the result) or breaks (tasks/result gives the JSON-RPC error)', async () => {
    peer = await openPeer(transport, R, closers);
    const toolError = await created('failing_job', {});
    const payload = result(R, 'CallToolResult', await peer.request('tasks/result', { taskId: toolError.taskId }));
    expect(payload).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed, as it always does' }] });
    // §Task Execution Errors: a result with isError fails the task, and tasks/get SHOULD say why.
    expect(result(R, 'GetTaskResult', await get(toolError.taskId))).toMatchObject({ status: 'failed', statusMessage: 'The job failed, as it always does' });

    // Arguments the tool refuses in its call are an isError result, as a call without a task answers them.
    const refused = await created('refusing_job', {});
    const refusedPayload = result(R, 'CallToolResult', await peer.request('tasks/result', { taskId: refused.taskId }));
    expect(refusedPayload).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('/when: not a date') }] });
    expect(result(R, 'GetTaskResult', await get(refused.taskId)).status).toBe('failed');

    const broken = await created('protocol_error_job', {});
    const error = failure(R, -32603, await peer.request('tasks/result', { taskId: broken.taskId }));
    expect(error.message).toBe('The job broke down');
    expect(result(R, 'GetTaskResult', await get(broken.taskId))).toMatchObject({ status: 'failed', statusMessage: 'The job broke down' });
  });

  it('answers -32601 for a required tool without a task and a forbidden one with, -32602 for unknown tasks, tools and cursors', async () => {
    peer = await openPeer(transport, R, closers);
    // §Tool-Level Negotiation.
    failure(R, -32601, await call('failing_job', {}));
    failure(R, -32601, await call('greet', { name: 'x' }, { ttl: 1000 }));
    // A tool that may run as a task still runs at once when called without one.
    expect(result(R, 'CallToolResult', await call('slow_compute', { seconds: 0 })).content[0].text).toMatch(/^Computed/);
    failure(R, -32602, await call('no_such_tool', {}, { ttl: 1000 }));
    failure(R, -32602, await call('slow_compute', { seconds: 0 }, 'not an object' as unknown as Message));
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      failure(R, -32602, await peer.request(method, { taskId: 'no-such-task' }));
      failure(R, -32602, await peer.request(method, {}));
    }
    failure(R, transport === 'stdio' ? -32602 : -32601, await peer.request('tasks/list', { cursor: 'made-up' }));
  });
});

describe.each(TRANSPORTS)('2025-06-18 over %s has no tasks', { tags: ['schema'] }, (transport) => {
  const R = '2025-06-18';

  it('declares nothing, marks no tool, ignores a task param and answers tasks/* with -32601', async () => {
    const peer = await openPeer(transport, R, closers);
    expect(peer.initialized?.capabilities.tasks).toBeUndefined();
    expectSchema(R, 'InitializeResult', peer.initialized);
    const tools = result(R, 'ListToolsResult', await peer.request('tools/list', {})).tools as Message[];
    expect(tools.some((tool) => 'execution' in tool)).toBe(false);
    const called = result(R, 'CallToolResult', await peer.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0 }, task: { ttl: 1000 } }));
    expect(called.content[0].text).toMatch(/^Computed/);
    for (const [method, params] of [
      ['tasks/get', { taskId: 'x' }],
      ['tasks/result', { taskId: 'x' }],
      ['tasks/cancel', { taskId: 'x' }],
      ['tasks/list', {}],
    ] as const) {
      failure(R, -32601, await peer.request(method, params));
    }
  });
});

// No official JSON Schema exists for the 2026-07-28 Tasks extension (the
// extension is outside the 2026 schema): these are written here from
// SEP-2663's TypeScript definitions (§Tasks `Task`, §Task Status
// `DetailedTask`, §Task Creation `CreateTaskResult = Result & Task`).
const TASK_SCHEMA = {
  type: 'object',
  required: ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs'],
  properties: {
    taskId: { type: 'string' },
    status: { enum: ['working', 'input_required', 'completed', 'cancelled', 'failed'] },
    statusMessage: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    lastUpdatedAt: { type: 'string', format: 'date-time' },
    ttlMs: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
    pollIntervalMs: { type: 'integer', minimum: 0 },
  },
};
const SEP_SCHEMAS = {
  CreateTaskResult: { allOf: [TASK_SCHEMA, { properties: { resultType: { const: 'task' } }, required: ['resultType'] }] },
  DetailedTask: {
    allOf: [
      TASK_SCHEMA,
      { properties: { resultType: { const: 'complete' } }, required: ['resultType'] },
      {
        oneOf: [
          { properties: { status: { const: 'working' } } },
          { properties: { status: { const: 'input_required' }, inputRequests: { type: 'object' } }, required: ['inputRequests'] },
          { properties: { status: { const: 'completed' }, result: { type: 'object' } }, required: ['result'] },
          { properties: { status: { const: 'failed' }, error: { type: 'object' } }, required: ['error'] },
          { properties: { status: { const: 'cancelled' } } },
        ],
      },
    ],
  },
} as const;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (ajv: unknown) => void)(ajv);
const sepValidators = Object.fromEntries(Object.entries(SEP_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]));

function expectSep(name: keyof typeof SEP_SCHEMAS, value: unknown): void {
  const validate = sepValidators[name]!;
  expect(validate(value) ? [] : validate.errors, `SEP-2663 ${name}: ${JSON.stringify(value)}`).toEqual([]);
}

describe.each(TRANSPORTS)('the 2026-07-28 Tasks extension over %s', { tags: ['schema'] }, (transport) => {
  const R = '2026-07-28';
  let peer: TaskPeer;
  const call = (name: string, args: Message, extension = true): Promise<Answer> =>
    peer.request('tools/call', modernParams({ name, arguments: args }, extension));
  const get = (taskId: string): Promise<Answer> => peer.request('tasks/get', modernParams({ taskId }));
  /** A tasks/get answer, checked: the 2026 `Result` and the SEP's DetailedTask, the inlined parts against the 2026 schema. */
  const detailed = (answer: Answer): Message => {
    const task = result(R, 'Result', answer);
    expectSep('DetailedTask', task);
    if (task.result) expectSchema(R, 'CallToolResult', { resultType: 'complete', ...task.result });
    if (task.inputRequests) expectSchema(R, 'InputRequests', task.inputRequests);
    if (task.error) expectSchema(R, 'Error', task.error);
    return task;
  };
  const created = async (name: string, args: Message): Promise<Message> => {
    const task = result(R, 'Result', await call(name, args));
    expectSep('CreateTaskResult', task);
    expect(task.status).toBe('working');
    return task;
  };
  const statusOf = (taskId: string, check: (task: Message) => boolean): Promise<Message> =>
    pollTask(async () => get(taskId), check).then(() => get(taskId).then(detailed));
  const ack = (answer: Answer): void => {
    const { _meta, ...rest } = result(R, 'EmptyResult', answer);
    expect(rest).toEqual({ resultType: 'complete' });
  };

  it('declares the extension, and runs a task: a flat CreateTaskResult, tasks/get per status with the result inline', async () => {
    peer = await openPeer(transport, R, closers);
    const discovered = result(R, 'DiscoverResult', await peer.request('server/discover', modernParams()));
    expect(discovered.capabilities.extensions[TASKS_EXTENSION]).toEqual({});
    const tools = result(R, 'ListToolsResult', await peer.request('tools/list', modernParams())).tools as Message[];
    // SEP-2663: the server decides per call; tools carry no execution on 2026-07-28.
    expect(tools.some((tool) => 'execution' in tool)).toBe(false);

    const task = await created('held', { label: 'modern' });
    expect(task).toMatchObject({ resultType: 'task', ttlMs: expect.any(Number), pollIntervalMs: 20 });
    expect(detailed(await get(task.taskId))).toMatchObject({ taskId: task.taskId, status: 'working', resultType: 'complete' });
    result(R, 'CallToolResult', await call('release', { label: 'modern' }, false));
    const done = await statusOf(task.taskId, (t) => t.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Released modern' }]);
    // SEP-2663 §Task Status: the id is at the root, not in the inlined result.
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
    // §Task Cancellation: an acknowledgement, for a terminal task too; it stays completed.
    ack(await peer.request('tasks/cancel', modernParams({ taskId: task.taskId })));
    expect(detailed(await get(task.taskId)).status).toBe('completed');
  });

  it('cancels with an acknowledgement; a tool error completes, a protocol error fails with the error inline', async () => {
    peer = await openPeer(transport, R, closers);
    const held = await created('held', { label: 'to-cancel' });
    ack(await peer.request('tasks/cancel', modernParams({ taskId: held.taskId })));
    expect((await statusOf(held.taskId, (t) => t.status === 'cancelled')).result).toBeUndefined();

    const toolError = await created('failing_job', {});
    const completed = await statusOf(toolError.taskId, (t) => t.status !== 'working');
    expect(completed).toMatchObject({ status: 'completed', result: { isError: true } });
    const broken = await created('protocol_error_job', {});
    const failed = await statusOf(broken.taskId, (t) => t.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The job broke down' } });
  });

  it('asks inside a task: input_required with inputRequests, a partial tasks/update, then completed', async () => {
    peer = await openPeer(transport, R, closers);
    const task = await created('multi_input', {});
    const asking = await statusOf(task.taskId, (t) => t.status === 'input_required' && Object.keys(t.inputRequests).length === 2);
    expect(Object.keys(asking.inputRequests).sort()).toEqual(['first', 'second']);
    expect(asking.inputRequests.first).toMatchObject({ method: 'elicitation/create' });
    const answer = (name: string): Message => ({ action: 'accept', content: { name, confirm: true } });
    ack(await peer.request('tasks/update', modernParams({ taskId: task.taskId, inputResponses: { first: answer('Ada'), unknown_key: answer('x') } })));
    const rest = await statusOf(task.taskId, (t) => t.status === 'input_required' && Object.keys(t.inputRequests).length === 1);
    expect(Object.keys(rest.inputRequests)).toEqual(['second']);
    // -32602: an answer that is not one to its open question.
    failure(R, -32602, await peer.request('tasks/update', modernParams({ taskId: task.taskId, inputResponses: { second: 12345 } })));
    failure(R, -32602, await peer.request('tasks/update', modernParams({ taskId: task.taskId })));
    ack(await peer.request('tasks/update', modernParams({ taskId: task.taskId, inputResponses: { second: answer('Bob') } })));
    const done = await statusOf(task.taskId, (t) => t.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Got Ada and Bob' }]);
  });

  it('refuses a client that did not declare the extension with -32021, and answers tasks/result and tasks/list with -32601', async () => {
    peer = await openPeer(transport, R, closers);
    const missing = failure(R, -32021, await call('failing_job', {}, false), 'MissingRequiredClientCapabilityError');
    expect(missing.data.requiredCapabilities).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    // An optional tool runs at once for such a client: no task.
    expect(result(R, 'CallToolResult', await call('slow_compute', { seconds: 0 }, false)).resultType).toBe('complete');
    const task = await created('held', { label: 'undeclared' });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const error = failure(
        R,
        -32021,
        await peer.request(method, modernParams({ taskId: task.taskId, inputResponses: {} }, false)),
        'MissingRequiredClientCapabilityError',
      );
      expect(error.data.requiredCapabilities.extensions[TASKS_EXTENSION]).toEqual({});
    }
    for (const method of ['tasks/result', 'tasks/list']) failure(R, -32601, await peer.request(method, modernParams({ taskId: task.taskId })));
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      failure(R, -32602, await peer.request(method, modernParams({ taskId: 'no-such-task', inputResponses: {} })));
    }
    ack(await peer.request('tasks/cancel', modernParams({ taskId: task.taskId })));
  });

  // Only HTTP has headers: over stdio the test is not defined at all (a skipped schema test fails CI, .ci/schema-tests-ran.mjs).
  if (transport === 'http')
    it('answers 400 and -32020 when Mcp-Name does not mirror the task id', async () => {
      peer = await openPeer(transport, R, closers);
      const task = await created('held', { label: 'header' });
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const answer = await peer.request(method, modernParams({ taskId: task.taskId, inputResponses: {} }), { 'Mcp-Name': 'another-task' });
        expect(answer.status).toBe(400);
        failure(R, -32020, answer, 'HeaderMismatchError');
      }
      expect(detailed(await get(task.taskId)).status).toBe('working');
      ack(await peer.request('tasks/cancel', modernParams({ taskId: task.taskId })));
    });
});
