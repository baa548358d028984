/**
 * 2025-11-25 `tasks/result` on a task whose record goes while it waits (its
 * TTL ran out, basic/utilities/tasks §TTL and Resource Management): the
 * answer is "not found", as for any task the server no longer has (-32602,
 * §Error Handling), not an error naming a status the task no longer has.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, staticTools } from '../../src/index.js';

type Message = Record<string, any>;

describe('tasks/result (2025-11-25)', () => {
  it('answers -32602 when the task expires while the request waits for it', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      tools: staticTools([
        defineTool({
          name: 'forever',
          task: 'optional',
          call: (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
        }),
      ]),
      tasks: { ttlMs: 200, pollIntervalMs: 10 },
    });
    const connection = server.connect({ send: () => {}, soleCaller: true });
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const created = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forever', task: {} } })) as Message;
    const taskId = created.result.task.taskId as string;
    const answer = (await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } })) as Message;
    expect(answer.error).toMatchObject({ code: -32602, data: { taskId } });
    connection.close('disconnect');
    server.close();
  });
});
