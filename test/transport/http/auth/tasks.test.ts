/**
 * Tasks under OAuth are bound to who created them (2025-11-25
 * basic/utilities/tasks §Security Considerations: receivers MUST reject
 * tasks/get, tasks/result and tasks/cancel for another authorization
 * context's task, and tasks/list shows only the caller's; SEP-2663 keeps
 * tasks/get, tasks/update and tasks/cancel so). Two tokens of the real
 * OpenID provider, two clients: B finds nothing of A's task, on both
 * revisions, and A's task runs on untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, serveHttp } from '../../../../src/http.js';
import { createServer, defineTool, type Server, staticTools } from '../../../../src/index.js';
import { messagesOf, modernHeaders } from '../../../_http-client.js';
import { type RevisionName, schemaErrors } from '../../../_schema.js';
import { initializeParams, type Message, modernMeta } from '../../../_wire.js';
import { type Issuer, startIssuer } from './_issuer.js';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

let issuer: Issuer;
let server: Server;
let http: HttpServer;
let url: string;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  issuer = await startIssuer();
  // A task that runs until it is cancelled.
  const held = defineTool({
    name: 'held',
    description: 'Runs until cancelled',
    task: 'optional',
    call: (_args, ctx) => new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true })),
  });
  server = createServer({ name: 'auth-tasks', version: '1.0.0', tools: staticTools([held]) });
  http = await serveHttp(server, { port: 0, oauth: { issuer: issuer.url, scopes: ['skills:read'] } });
  url = http.url.href;
  tokenA = await issuer.token('team-a', url, 'skills:read');
  tokenB = await issuer.token('team-b', url, 'skills:read');
});
afterAll(async () => {
  await http?.close();
  server?.close();
  await issuer?.stop();
});

let nextId = 1;

/** POSTs `body` with `token` and resolves with the JSON-RPC answer to it, and the session id the server gave. */
async function send(token: string, body: Message, headers: Record<string, string>): Promise<{ message: Message; session: string | null }> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const { messages } = messagesOf(response.headers.get('content-type') ?? undefined, await response.text());
  const message = (messages as Message[]).find((m) => m.id === body.id);
  if (!message) throw new Error(`No answer: ${response.status}`);
  return { message, session: response.headers.get('mcp-session-id') };
}

function expectError(revision: RevisionName, message: Message, code: number): void {
  expect(message.error?.code, JSON.stringify(message)).toBe(code);
  expect(schemaErrors(revision, 'JSONRPCErrorResponse', message)).toEqual([]);
}

function expectResult(revision: RevisionName, name: string, message: Message): Message {
  expect(message.error, JSON.stringify(message)).toBeUndefined();
  expect(schemaErrors(revision, name, message.result), JSON.stringify(message)).toEqual([]);
  return message.result as Message;
}

describe('tasks and the token that created them', { tags: ['schema'] }, () => {
  it('2025-11-25: another token’s tasks/get, tasks/cancel and tasks/result are -32602, its tasks/list lacks the task', async () => {
    const R = '2025-11-25';
    /** A session of `token`'s, and a request function on it. */
    const open = async (token: string) => {
      const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const { session } = await send(token, { jsonrpc: '2.0', id: nextId++, method: 'initialize', params: initializeParams(R) }, base);
      const headers = { ...base, 'Mcp-Session-Id': session as string, 'MCP-Protocol-Version': R };
      await fetch(url, {
        method: 'POST',
        headers: { ...headers, Authorization: `Bearer ${token}` },
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      });
      return async (method: string, params: Message) => (await send(token, { jsonrpc: '2.0', id: nextId++, method, params }, headers)).message;
    };
    const a = await open(tokenA);
    const b = await open(tokenB);
    const created = expectResult(R, 'CreateTaskResult', await a('tools/call', { name: 'held', arguments: {}, task: {} }));
    const { taskId } = created.task;
    // B's own task, so that its list is not empty by chance.
    const own = expectResult(R, 'CreateTaskResult', await b('tools/call', { name: 'held', arguments: {}, task: {} })).task.taskId;

    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) expectError(R, await b(method, { taskId }), -32602);
    expect(expectResult(R, 'ListTasksResult', await b('tasks/list', {})).tasks.map((task: Message) => task.taskId)).toEqual([own]);
    expect(expectResult(R, 'ListTasksResult', await a('tasks/list', {})).tasks.map((task: Message) => task.taskId)).toEqual([taskId]);
    expect(expectResult(R, 'GetTaskResult', await a('tasks/get', { taskId })).status).toBe('working');
    expect(expectResult(R, 'CancelTaskResult', await a('tasks/cancel', { taskId })).status).toBe('cancelled');
    expectResult(R, 'CancelTaskResult', await b('tasks/cancel', { taskId: own }));
  });

  it('2026-07-28: another token’s tasks/get, tasks/update and tasks/cancel are -32602', async () => {
    const R = '2026-07-28';
    const request = async (token: string, method: string, params: Message) => {
      const meta = modernMeta();
      meta['io.modelcontextprotocol/clientCapabilities'] = { extensions: { [TASKS_EXTENSION]: {} } };
      const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
      const headers = modernHeaders(body);
      if (typeof params.taskId === 'string') headers['Mcp-Name'] = params.taskId;
      return (await send(token, body, headers)).message;
    };
    const created = await request(tokenA, 'tools/call', { name: 'held', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(schemaErrors(R, 'Result', created.result)).toEqual([]);
    const { taskId } = created.result;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expectError(R, await request(tokenB, method, { taskId, inputResponses: {} }), -32602);
    }
    expect(expectResult(R, 'Result', await request(tokenA, 'tasks/get', { taskId })).status).toBe('working');
    expectResult(R, 'Result', await request(tokenA, 'tasks/cancel', { taskId }));
    expect(expectResult(R, 'Result', await request(tokenA, 'tasks/get', { taskId })).status).toBe('cancelled');
  });
});
