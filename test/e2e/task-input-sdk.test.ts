/**
 * A task that asks the user mid-way, driven by the official SDK v1 client's
 * experimental tasks (`client.experimental.tasks.callToolStream`) over
 * Streamable HTTP on 2025-11-25: the task goes `input_required`, the client
 * calls tasks/result, the server's elicitation arrives on that stream naming
 * the task (2025-11-25 basic/utilities/tasks §Input Required Status), and the
 * answer finishes the task. The server is the conformance fixture, a real
 * process built from the public API (test/conformance/_tasks.mjs).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';

const FIXTURE = `${ROOT}test/conformance/fixture-server.mjs`;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

describe('a 2025-11-25 task that asks the user (SDK v1 experimental tasks)', () => {
  it('sends the question on the tasks/result stream with the related task, and completes with the answer', async () => {
    const { url } = await startHttpFixture(FIXTURE, ['--http', '127.0.0.1:0'], closers);
    const client = new Client({ name: 'v1', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    const asked: Array<Record<string, unknown>> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    closers.push(() => client.close());

    const statuses: string[] = [];
    let taskId = '';
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: 'a.txt' } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated' || message.type === 'taskStatus') {
        taskId = message.task.taskId;
        statuses.push(message.task.status);
      } else if (message.type === 'result') result = message.result;
      else throw message.error;
    }
    expect(statuses[0]).toBe('working');
    expect(statuses).toContain('input_required');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Delete a.txt?', _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Deleted a.txt' }] });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
  });
});
