/**
 * The official SDK clients run a long tool as a task against the built
 * package (test/fixtures/servers/tasks.mjs), drop their connection, and read
 * the result as a new client. v1 (@modelcontextprotocol/sdk, its
 * experimental tasks API) on 2025-11-25 over Streamable HTTP and stdio; v2
 * (@modelcontextprotocol/client 2.4) on 2026-07-28 with the Tasks extension
 * (SEP-2663) declared. v2 2.4 has no Tasks extension API: its 2026 codec
 * refuses a `resultType: "task"` answer (SdkError UNSUPPORTED_RESULT_TYPE),
 * so the CreateTaskResult is read from its transport's raw messages, and
 * tasks/get, tasks/update and tasks/cancel go through `client.request` with
 * explicit result schemas.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { eventually, startHttpFixture } from '../_http-client.js';
import { TASKS_EXTENSION, TASKS_FIXTURE } from '../protocol/_task-peers.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** Calls `held` as a task through v1's stream and returns the task id once created (the stream is left then). */
async function startHeld(client: ClientV1, label: string): Promise<string> {
  const stream = client.experimental.tasks.callToolStream({ name: 'held', arguments: { label } }, CallToolResultSchema, { task: { ttl: 60_000 } });
  for await (const message of stream) {
    if (message.type === 'taskCreated') return message.task.taskId;
    throw new Error(`Expected taskCreated first, got ${JSON.stringify(message)}`);
  }
  throw new Error('The stream ended without a task');
}

describe('SDK v1 experimental tasks on 2025-11-25', () => {
  async function connectHttp(url: URL): Promise<{ client: ClientV1; transport: HttpV1 }> {
    const transport = new HttpV1(url);
    const client = new ClientV1({ name: 'sdk-v1-tasks', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, transport };
  }

  it('over Streamable HTTP: the task outlives its client; a new session reads it with tasks/get and tasks/result', async () => {
    const { url } = await startHttpFixture(TASKS_FIXTURE, ['--http'], closers);
    const first = await connectHttp(url);
    // No `list` for callers the server cannot tell apart (2025-11-25 tasks §Security Considerations).
    expect(first.client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const taskId = await startHeld(first.client, 'dropped');
    const firstSession = first.transport.sessionId;
    // The connection drops, and the session with it.
    await first.transport.terminateSession();
    await first.client.close();

    const second = await connectHttp(url);
    expect(second.transport.sessionId).not.toBe(firstSession);
    expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'working' });
    await expect(second.client.experimental.tasks.listTasks()).rejects.toMatchObject({ code: -32601 });
    const waiting = second.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    await second.client.callTool({ name: 'release', arguments: { label: 'dropped' } });
    expect((await waiting).content).toEqual([{ type: 'text', text: 'Released dropped' }]);
    expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'completed' });
  });

  it('over Streamable HTTP: cancels a task a dropped client started', async () => {
    const { url } = await startHttpFixture(TASKS_FIXTURE, ['--http'], closers);
    const first = await connectHttp(url);
    const taskId = await startHeld(first.client, 'to-cancel');
    await first.client.close();
    const second = await connectHttp(url);
    expect(await second.client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    await expect(second.client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('over stdio: the task runs apart from its request, and the same client polls it to its result', async () => {
    // A stdio server serves the one client that started it: a new client cannot reach the same process.
    const transport = new StdioV1({ command: process.execPath, args: [TASKS_FIXTURE], stderr: 'ignore' });
    const client = new ClientV1({ name: 'sdk-v1-tasks-stdio', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    const taskId = await startHeld(client, 'stdio');
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    await client.callTool({ name: 'release', arguments: { label: 'stdio' } });
    await eventually(async () => (await client.experimental.tasks.getTask(taskId)).status === 'completed', 15_000);
    expect((await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)).content).toEqual([{ type: 'text', text: 'Released stdio' }]);

    // The whole stream, to its result, for a task that ends by itself.
    const messages: string[] = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 0.05 } }, CallToolResultSchema, {
      task: {},
    })) {
      messages.push(message.type);
      if (message.type === 'result') expect(message.result.content).toEqual([{ type: 'text', text: 'Computed a result in 0.05 s' }]);
    }
    expect(messages[0]).toBe('taskCreated');
    expect(messages.at(-1)).toBe('result');
  });
});

describe('SDK v2 on 2026-07-28 with the Tasks extension', () => {
  // The client's codec takes `resultType` off a complete result before the schema sees it.
  const DetailedTask = z.looseObject({
    taskId: z.string(),
    status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
    inputRequests: z.record(z.string(), z.looseObject({ method: z.string() })).optional(),
    result: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }).optional(),
  });
  const Ack = z.looseObject({});

  /** A v2 client declaring the extension, and the raw results its transport received. */
  async function connect(url: URL): Promise<{ client: ClientV2; raw: Array<Record<string, unknown>> }> {
    const client = new ClientV2({ name: 'sdk-v2-tasks', version: '2.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
    } as never);
    const transport = new HttpV2(url);
    await client.connect(transport);
    closers.push(() => client.close());
    const raw: Array<Record<string, unknown>> = [];
    const deliver = transport.onmessage;
    transport.onmessage = (...args: Parameters<NonNullable<typeof deliver>>) => {
      const [message] = args;
      if ('result' in message) raw.push(message.result as Record<string, unknown>);
      deliver?.(...args);
    };
    return { client, raw };
  }

  /** Calls `name` and returns the task it became: v2 2.4 refuses the answer, which the transport saw. */
  async function startTask(connected: { client: ClientV2; raw: Array<Record<string, unknown>> }, name: string, args: Record<string, unknown>): Promise<string> {
    const before = connected.raw.length;
    await expect(connected.client.callTool({ name, arguments: args })).rejects.toMatchObject({ code: 'UNSUPPORTED_RESULT_TYPE', data: { resultType: 'task' } });
    const created = connected.raw.slice(before).find((result) => result.resultType === 'task');
    expect(created).toMatchObject({ status: 'working', taskId: expect.any(String) });
    return created?.taskId as string;
  }

  const getTask = (client: ClientV2, taskId: string) => client.request({ method: 'tasks/get', params: { taskId } } as never, DetailedTask);

  it('runs a long tool as a task, closes, and a new client reads the result through tasks/get', async () => {
    const { url } = await startHttpFixture(TASKS_FIXTURE, ['--http'], closers);
    const first = await connect(url);
    expect(first.client.getDiscoverResult()?.capabilities.extensions).toMatchObject({ [TASKS_EXTENSION]: {} });
    const taskId = await startTask(first, 'held', { label: 'v2' });
    await first.client.close();

    const second = await connect(url);
    expect(await getTask(second.client, taskId)).toMatchObject({ taskId, status: 'working' });
    await second.client.callTool({ name: 'release', arguments: { label: 'v2' } });
    await eventually(async () => (await getTask(second.client, taskId)).status === 'completed', 15_000);
    expect((await getTask(second.client, taskId)).result?.content).toEqual([{ type: 'text', text: 'Released v2' }]);
  });

  it('answers a task’s question through tasks/update, and cancels another through tasks/cancel', async () => {
    const { url } = await startHttpFixture(TASKS_FIXTURE, ['--http'], closers);
    const connected = await connect(url);
    const taskId = await startTask(connected, 'confirm_delete', { filename: 'notes.txt' });
    await eventually(async () => (await getTask(connected.client, taskId)).status === 'input_required', 15_000);
    const asking = await getTask(connected.client, taskId);
    expect(asking.inputRequests?.confirm).toMatchObject({ method: 'elicitation/create' });
    const ack = await connected.client.request(
      { method: 'tasks/update', params: { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } } } as never,
      Ack,
    );
    // An empty acknowledgement: nothing but `_meta`.
    expect(Object.keys(ack).filter((key) => key !== '_meta')).toEqual([]);
    await eventually(async () => (await getTask(connected.client, taskId)).status === 'completed', 15_000);
    expect((await getTask(connected.client, taskId)).result?.content).toEqual([{ type: 'text', text: 'Deleted notes.txt' }]);

    const held = await startTask(connected, 'held', { label: 'v2-cancel' });
    await connected.client.request({ method: 'tasks/cancel', params: { taskId: held } } as never, Ack);
    await eventually(async () => (await getTask(connected.client, held)).status === 'cancelled', 15_000);
  });
});
