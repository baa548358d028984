/**
 * Task status notifications of the 2026-07-28 Tasks extension (SEP-2663
 * §Task Status Notifications): a listen request names task ids, the
 * acknowledgement says which of them the server follows (the caller's
 * known tasks), and each new state of one comes as `notifications/tasks`,
 * a DetailedTask tagged with the subscription. A client that did not
 * declare the extension gets -32021. The ack is checked against the
 * official schema; `notifications/tasks` has none (the extension is outside
 * the 2026-07-28 schema), so its fields are checked one by one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, staticTools } from '../../src/index.js';
import type { Connection } from '../../src/server/index.js';
import { schemaErrors } from '../_schema.js';
import { modernMeta } from '../_wire.js';

type Message = Record<string, any>;

const TASKS = 'io.modelcontextprotocol/tasks';
const DECLARING = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } };

function connect(sent: Message[]): Connection {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = createServer({
    name: 't',
    version: '1',
    tools: staticTools([
      defineTool({
        name: 'wait',
        task: 'optional',
        call: async () => {
          await gate;
          return 'done';
        },
      }),
      defineTool({ name: 'release', call: () => (release(), 'released') }),
    ]),
  });
  return server.connect({ send: (message) => void sent.push(message as Message) });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await sleep(10);
  }
  throw new Error('timed out waiting');
}

describe('notifications/tasks on subscriptions/listen (2026-07-28 Tasks extension)', () => {
  it('acknowledges the caller’s known tasks only, then tells each new state with the result inline', { tags: ['schema'] }, async () => {
    const sent: Message[] = [];
    const connection = connect(sent);
    const created = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', _meta: DECLARING } })) as Message;
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId as string;

    void connection.receive({
      jsonrpc: '2.0',
      id: 'l',
      method: 'subscriptions/listen',
      params: { _meta: DECLARING, notifications: { taskIds: [taskId, 'not-a-task'] } },
    });
    const ack = await until(() => sent.find((m) => m.method === 'notifications/subscriptions/acknowledged'));
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    expect(schemaErrors('2026-07-28', 'SubscriptionsAcknowledgedNotification', ack)).toEqual([]);

    await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'release', _meta: DECLARING } });
    const told = await until(() => sent.find((m) => m.method === 'notifications/tasks' && m.params.status === 'completed'));
    expect(told.params).toMatchObject({
      taskId,
      status: 'completed',
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
      result: { content: [{ type: 'text', text: 'done' }] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'l' },
    });
    expect(told.params).not.toHaveProperty('requestState');
    expect(Date.parse(told.params.createdAt)).not.toBeNaN();
    // One notification per new state: the completion is told once.
    await sleep(50);
    expect(sent.filter((m) => m.method === 'notifications/tasks' && m.params.status === 'completed')).toHaveLength(1);
    connection.close('disconnect');
  });

  it('refuses task ids from a client that did not declare the extension with -32021', async () => {
    const sent: Message[] = [];
    const connection = connect(sent);
    const answer = (await connection.receive({
      jsonrpc: '2.0',
      id: 'l',
      method: 'subscriptions/listen',
      params: { _meta: modernMeta(), notifications: { taskIds: ['x'] } },
    })) as Message;
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    expect(sent.some((m) => m.method === 'notifications/subscriptions/acknowledged')).toBe(false);
  });

  it('refuses task ids that are not an array of strings with -32602', async () => {
    const connection = connect([]);
    const answer = (await connection.receive({
      jsonrpc: '2.0',
      id: 'l',
      method: 'subscriptions/listen',
      params: { _meta: DECLARING, notifications: { taskIds: [1] } },
    })) as Message;
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'notifications.taskIds' } });
  });
});
