/**
 * Tasks across replicas: three replicas of a server with task tools
 * (_task-server.mjs, the public API from dist/) on one real redis-server,
 * behind nginx on deploy/'s configuration. A task started through the
 * balancer is polled, answered and read there, its polls served by several
 * replicas (each replica logs the task requests it serves); a cancellation
 * sent to another replica stops the running work; a replica SIGKILLed while
 * its task runs leaves the task to be read `failed` on another once its lease
 * runs out; a replica stopped with SIGTERM fails its running tasks itself.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, type Message, messagesOf, modernHeaders } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { modernMeta } from '../_wire.js';
import { Figures, writeSection } from '../reliability/_report.js';
import { type Cluster, startCluster, upstreamsOf } from './_cluster.js';
import type { Replica } from './_processes.js';

const SCRIPT = `${ROOT}test/cluster/_task-server.mjs`;
const LEASE_MS = 2000;
const EXTENSION = 'io.modelcontextprotocol/tasks';
const LEGACY = '2025-11-25';

let cluster: Cluster;
const figures = new Figures();
beforeAll(async () => {
  cluster = await startCluster({ script: SCRIPT, args: () => ['--lease-ms', String(LEASE_MS)] });
});
afterAll(async () => {
  await cluster?.stop();
  writeSection(
    'cluster-tasks',
    `### Cluster: tasks across replicas (test:cluster)\n\nTimings vary run to run; they are reported, not asserted.\n\n${figures.table()}`,
  );
});

let nextId = 1;

/** The one JSON-RPC response in an HTTP answer (a JSON body or an SSE stream). */
function responseOf(answer: { status: number; headers: Record<string, unknown>; body: string }): Message {
  const { messages } = messagesOf(answer.headers['content-type'] as string | undefined, answer.body);
  const response = (messages as Message[]).find((message) => 'result' in message || 'error' in message);
  if (!response) throw new Error(`no response: ${answer.status} ${answer.body.slice(0, 300)}`);
  return response;
}

/** A 2026-07-28 request that declares the Tasks extension and form elicitation, to `url` (default: through nginx). */
async function modern(method: string, params: Message, url = cluster.nginx.url): Promise<Message> {
  const meta = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION]: {} }, elicitation: { form: {} } } };
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
  const headers = modernHeaders(body);
  // SEP-2663 §Streamable HTTP: the task methods name their task in Mcp-Name.
  if (typeof params.taskId === 'string') headers['Mcp-Name'] = params.taskId;
  return responseOf(await httpSend(url, { headers, body: JSON.stringify(body) }));
}

/** A 2025-11-25 session opened through nginx; its id. */
async function legacySession(): Promise<string> {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'tasks', version: '1' } },
  };
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const answer = await httpSend(cluster.nginx.url, { headers, body: JSON.stringify(body) });
  expect(responseOf(answer).result.protocolVersion).toBe(LEGACY);
  const session = answer.headers['mcp-session-id'] as string;
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const sent = await httpSend(cluster.nginx.url, { headers: legacyHeaders(session), body: JSON.stringify(initialized) });
  expect(sent.status).toBe(202);
  return session;
}

function legacyHeaders(session: string): Record<string, string> {
  return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': session, 'MCP-Protocol-Version': LEGACY };
}

/** A request in a 2025-11-25 session, through nginx. */
async function legacy(session: string, method: string, params: Message): Promise<Message> {
  const body = { jsonrpc: '2.0', id: nextId++, method, params };
  return responseOf(await httpSend(cluster.nginx.url, { headers: legacyHeaders(session), body: JSON.stringify(body), timeoutMs: 30_000 }));
}

/** The replicas whose log has `text`. */
function replicasLogging(text: string): Replica[] {
  return cluster.replicas.filter((replica) => replica.log.some((line) => line.includes(text)));
}

/** The replica running the task whose work logged `label`. */
async function runnerOf(label: string): Promise<Replica> {
  for (let i = 0; i < 200; i++) {
    const [found] = replicasLogging(`work started ${label}`);
    if (found) return found;
    await sleep(25);
  }
  throw new Error(`no replica started ${label}`);
}

/** Polls 2026-07-28 tasks/get through nginx, at most `tries` times, until `done` holds; the last answer. */
async function pollUntil(taskId: string, done: (task: Message) => boolean, tries = 100): Promise<Message> {
  for (let i = 0; i < tries; i++) {
    const task = (await modern('tasks/get', { taskId })).result as Message;
    if (done(task)) return task;
    await sleep(100);
  }
  throw new Error(`task ${taskId} never got there`);
}

describe('a 2026-07-28 task through the balancer', () => {
  it('is polled, answered and read on several replicas', async () => {
    const created = (await modern('tools/call', { name: 'ask', arguments: { label: 'asked' } })).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    const asking = await pollUntil(taskId, (task) => task.status === 'input_required');
    expect(asking.inputRequests.go).toMatchObject({ method: 'elicitation/create' });
    expect((await modern('tasks/update', { taskId, inputResponses: { go: { action: 'accept', content: { go: true } } } })).result).toMatchObject({
      resultType: 'complete',
    });
    const done = await pollUntil(taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'answered accept true' }]);
    // Read again through the balancer, on whichever replica: the same record.
    for (let i = 0; i < 3; i++) expect((await modern('tasks/get', { taskId })).result).toEqual(done);
    const runner = await runnerOf('asked');
    const pollers = replicasLogging(`served tasks/get ${taskId}`);
    const polls = cluster.replicas.map((replica) => replica.log.filter((line) => line === `info served tasks/get ${taskId}`).length);
    figures.add(
      '2026-07-28 task: tasks/get served per replica (runner marked *)',
      polls.map((n, i) => `${n}${cluster.replicas[i] === runner ? '*' : ''}`).join(' / '),
    );
    expect(pollers.length).toBeGreaterThanOrEqual(2);
    expect(pollers.some((replica) => replica !== runner)).toBe(true);
    expect(replicasLogging(`served tasks/update ${taskId}`)).toHaveLength(1);
  });

  it('is cancelled by a tasks/cancel sent to another replica: the work sees its signal abort', async () => {
    const created = (await modern('tools/call', { name: 'sleep', arguments: { seconds: 60, label: 'cancelled' } })).result;
    const taskId = created.taskId as string;
    const runner = await runnerOf('cancelled');
    const other = cluster.replicas.find((replica) => replica !== runner) as Replica;
    // SEP-2663 §Task Cancellation: an empty acknowledgement (the 2026 envelope's fields only).
    expect((await modern('tasks/cancel', { taskId }, other.url)).result).toMatchObject({ resultType: 'complete' });
    for (let i = 0; i < 200 && !runner.log.includes('info work aborted cancelled'); i++) await sleep(25);
    expect(runner.log).toContain('info work aborted cancelled');
    const task = await pollUntil(taskId, () => true);
    expect(task).toMatchObject({ taskId, status: 'cancelled' });
    expect(replicasLogging(`served tasks/cancel ${taskId}`)).toEqual([other]);
  });
});

describe('a 2025-11-25 task through the balancer', () => {
  it('is started in one session, then read and its result taken in sessions on other replicas', async () => {
    const first = await legacySession();
    const created = (await legacy(first, 'tools/call', { name: 'sleep', arguments: { seconds: 1, label: 'legacy' }, task: { ttl: 60_000 } })).result;
    expect(created.task).toMatchObject({ status: 'working' });
    const taskId = created.task.taskId as string;
    // nginx keeps each session on the replica its id hashes to: open sessions until two replicas hold one.
    const sessions = [first];
    const holders = (): Set<string> => new Set(sessions.flatMap((session) => [...upstreamsOf(cluster.nginx.accessLog(), 'POST', session)]));
    while (holders().size < 2 && sessions.length < 20) sessions.push(await legacySession());
    expect(holders().size).toBeGreaterThanOrEqual(2);
    for (const session of sessions) {
      const task = (await legacy(session, 'tasks/get', { taskId })).result;
      expect(task.taskId).toBe(taskId);
      // Callers without a token are not told apart: no tasks/list for them (2025-11-25 tasks §Security Considerations).
      expect((await legacy(session, 'tasks/list', {})).error?.code).toBe(-32601);
    }
    const last = sessions.at(-1) as string;
    const result = (await legacy(last, 'tasks/result', { taskId })).result;
    expect(result.content).toEqual([{ type: 'text', text: 'slept legacy' }]);
    expect(result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    expect((await legacy(first, 'tasks/get', { taskId })).result.status).toBe('completed');
    expect(replicasLogging(`served tasks/get ${taskId}`).length).toBeGreaterThanOrEqual(2);
  });
});

describe('a replica that stops while its task runs', () => {
  it('SIGKILLed: the task reads failed on another replica once the lease runs out', async () => {
    const taskId = (await modern('tools/call', { name: 'sleep', arguments: { seconds: 600, label: 'killed' } })).result.taskId as string;
    const runner = await runnerOf('killed');
    await runner.kill();
    const killedAt = Date.now();
    try {
      const task = await pollUntil(taskId, (each) => each.status !== 'working');
      figures.add(`SIGKILL to the task read failed (lease ${LEASE_MS / 1000} s)`, `${Date.now() - killedAt} ms`);
      expect(task).toMatchObject({
        status: 'failed',
        statusMessage: 'The server running the task stopped before it finished',
        error: { code: -32603, message: 'The server running the task stopped before it finished' },
      });
      expect(replicasLogging(`Task ${taskId} lost its runner`).filter((replica) => replica !== runner)).toHaveLength(1);
    } finally {
      await runner.start();
    }
  });

  it('stopped with SIGTERM: it fails its running tasks itself before it exits', async () => {
    const taskId = (await modern('tools/call', { name: 'sleep', arguments: { seconds: 600, label: 'terminated' } })).result.taskId as string;
    const runner = await runnerOf('terminated');
    const stoppedAt = Date.now();
    await runner.stop();
    figures.add('SIGTERM to the replica exited, its task failed', `${Date.now() - stoppedAt} ms`);
    try {
      expect(runner.log).toContain('info work aborted terminated');
      expect(runner.log.at(-1)).toBe('info stopped');
      // Read at once: no lease had to run out, the stopping replica wrote it.
      const task = (await modern('tasks/get', { taskId })).result;
      expect(task).toMatchObject({ status: 'failed', statusMessage: 'The server shut down before the task finished' });
      expect(replicasLogging(`Task ${taskId} lost its runner`)).toEqual([]);
    } finally {
      await runner.start();
    }
  });
});
