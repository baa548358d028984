/**
 * The task runner (src/server/tasks.ts) on tasks shared through a real
 * redis-server (transport/task-store.ts): two runners over two connections
 * are two replicas. A task one runs is read, listed, answered and cancelled
 * through the other, and the work running on the first sees it; a runner
 * whose process is SIGKILLed leaves its task to be marked failed by the other
 * once its lease runs out; `serveHttp` with `redis` shares its server's tasks
 * and, on a graceful close, fails its running tasks before Redis closes.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskStart } from '../../src/core/tasks.js';
import { serveHttp } from '../../src/http.js';
import { createServer, memoryTaskStore, silentLogger, type TaskStore } from '../../src/index.js';
import { createTaskRunner, type TaskRunner } from '../../src/server/tasks.js';
import { sharedTaskStore } from '../../src/transport/task-store.js';
import { ROOT } from '../_stdio-client.js';
import { until } from '../cluster/_processes.js';
import { useRedis } from './_redis.js';

const redis = useRedis('task-runner');
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** A replica's task store: its own connections to the test's Redis, under `prefix`. */
async function storeOver(prefix: string): Promise<TaskStore> {
  return sharedTaskStore(await redis.replica(prefix));
}

/** Two runners, each on its own connections to one Redis, with a short lease. */
async function twoRunners(leaseMs = 3000): Promise<{ a: TaskRunner; b: TaskRunner; prefix: string }> {
  const prefix = `r${crypto.randomUUID()}:`;
  const runners = await Promise.all(
    [0, 1].map(async () => {
      const runner = createTaskRunner({ store: await storeOver(prefix), leaseMs, pollIntervalMs: 50 }, silentLogger, memoryTaskStore);
      closers.push(() => runner.close());
      return runner;
    }),
  );
  return { a: runners[0] as TaskRunner, b: runners[1] as TaskRunner, prefix };
}

/** A task's start: `run` is the work; the client can answer form questions. */
function spec(run: TaskStart['run'], owner?: string): TaskStart {
  return {
    owner,
    principal: undefined,
    capabilities: { elicitation: {} },
    carriesInput: true,
    run,
    encodeError: (error) => ({ code: -32603, message: error instanceof Error ? error.message : String(error) }),
  };
}

/** Work that runs until its task's signal aborts; `seen` records that it did. */
function untilAborted(seen: { aborted: boolean }): TaskStart['run'] {
  return (ctx) =>
    new Promise((_, reject) => {
      ctx.signal.addEventListener('abort', () => {
        seen.aborted = true;
        reject(ctx.signal.reason);
      });
    });
}

describe('tasks shared by two runners over one Redis', () => {
  it('reads, lists and cancels on one replica a task the other runs, and the work sees the cancellation', async () => {
    const { a, b } = await twoRunners();
    const seen = { aborted: false };
    const started = await a.start(spec(untilAborted(seen), 'alice'));
    const read = await b.get(started.id, 'alice');
    expect(read).toMatchObject({ id: started.id, status: 'working', owner: 'alice' });
    expect(read?.runner).toBe(started.runner);
    expect((await b.list('alice')).map((each) => each.id)).toEqual([started.id]);
    // Bound to its owner on every replica.
    expect(await b.get(started.id, 'mallory')).toBeUndefined();
    expect(await b.cancel(started.id, 'mallory')).toBeUndefined();
    expect((await b.cancel(started.id, 'alice'))?.status).toBe('cancelled');
    await until('the work on the other replica to see its signal abort', () => seen.aborted);
    expect((await a.get(started.id, 'alice'))?.status).toBe('cancelled');
    // The runner's own ending of the work never overwrites the cancellation.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await b.get(started.id, 'alice'))?.status).toBe('cancelled');
  });

  it('answers on one replica the question a task asks on the other', async () => {
    const { a, b } = await twoRunners();
    const request = {
      method: 'elicitation/create' as const,
      params: { message: 'Go on?', requestedSchema: { type: 'object' as const, properties: { go: { type: 'boolean' as const } } } },
    };
    const started = await a.start(
      spec(async (ctx) => {
        const answer = await ctx.input?.('go', request);
        return { content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }] };
      }),
    );
    await until('the question to be readable on the other replica', async () => (await b.get(started.id, undefined))?.status === 'input_required');
    expect((await b.get(started.id, undefined))?.inputRequests).toEqual({ go: request });
    const after = await b.respond(started.id, undefined, { go: { action: 'accept', content: { go: true } } });
    expect(after?.status).toBe('working');
    await until('the task to complete', async () => (await b.get(started.id, undefined))?.status === 'completed');
    const done = await b.get(started.id, undefined);
    expect(done?.result?.content).toEqual([{ type: 'text', text: 'answered {"action":"accept","content":{"go":true}}' }]);
    expect(done?.inputRequests).toBeUndefined();
    expect(done?.inputResponses).toBeUndefined();
  });

  it('keeps whichever of a result and a cancellation on the other replica came first', async () => {
    const { a, b } = await twoRunners();
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const started = await a.start(spec(async () => ({ content: [{ type: 'text', text: 'done' }] })));
      const cancelled = await b.cancel(started.id, undefined);
      await until('the task to be terminal', async () => ['completed', 'cancelled'].includes((await a.get(started.id, undefined))?.status ?? ''));
      const final = await b.get(started.id, undefined);
      // What the cancel answered is what stays.
      expect(final?.status).toBe(cancelled?.status);
      outcomes.push(final?.status ?? 'missing');
    }
    expect(outcomes.every((status) => status === 'completed' || status === 'cancelled')).toBe(true);
  });

  it('marks failed, on the replica that reads it, a task whose runner was SIGKILLed', async () => {
    const prefix = `k${crypto.randomUUID()}:`;
    const { child, id } = await runnerProcess(prefix, 1500);
    const reader = createTaskRunner({ store: await storeOver(prefix), leaseMs: 1500 }, silentLogger, memoryTaskStore);
    closers.push(() => reader.close());
    // While its runner lives, its lease is renewed: still working after several leases.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await reader.get(id, undefined))?.status).toBe('working');
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await until('the task to be marked failed', async () => (await reader.get(id, undefined))?.status === 'failed');
    const failed = await reader.get(id, undefined);
    expect(failed?.error).toEqual({ code: -32603, message: 'The server running the task stopped before it finished' });
    expect((await reader.list(undefined)).map((each) => each.status)).toEqual(['failed']);
  });
});

/** A node process running one endless task over the test's Redis (built dist/), killed by the test. */
async function runnerProcess(prefix: string, leaseMs: number): Promise<{ child: ReturnType<typeof spawn>; id: string }> {
  const script = `
    import { createServer } from ${JSON.stringify(`${ROOT}dist/index.js`)};
    import { connectRedis, sharedTaskStore } from ${JSON.stringify(`${ROOT}dist/http.js`)};
    const shared = await connectRedis(process.env.REDIS_URL, { prefix: process.env.PREFIX });
    const server = createServer({ name: 'doomed', version: '1.0.0', tasks: { leaseMs: ${leaseMs} } });
    server.tasks.useStore(sharedTaskStore(shared));
    const task = await server.tasks.start({
      owner: undefined, principal: undefined, capabilities: {}, carriesInput: false,
      run: () => new Promise(() => {}),
      encodeError: (error) => ({ code: -32603, message: String(error) }),
    });
    process.stdout.write(task.id + '\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, REDIS_URL: redis.url(), PREFIX: prefix },
  });
  closers.push(async () => void child.kill('SIGKILL'));
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (out += text));
  await until('the runner process to start its task', () => {
    if (child.exitCode !== null) throw new Error('the runner process exited');
    return out.includes('\n');
  });
  return { child, id: out.trim() };
}

describe('serveHttp with redis', () => {
  it('keeps its server’s tasks in Redis, and marks the running ones failed on a graceful close before Redis closes', async () => {
    const prefix = 'skillport:';
    const seen = { aborted: false };
    const server = createServer({ name: 'tasks', version: '1.0.0' });
    closers.push(async () => server.close());
    const http = await serveHttp(server, { redis: redis.url() });
    closers.push(() => http.close());
    const started = await server.tasks.start(spec(untilAborted(seen)));
    // Work that does not heed its signal ends after Redis closed: its end cannot be written, and is no error of the process's.
    let finish!: () => void;
    const stubborn = await server.tasks.start(spec(() => new Promise((resolve) => (finish = () => resolve({ content: [] })))));
    const other = createTaskRunner({ store: await storeOver(prefix) }, silentLogger, memoryTaskStore);
    closers.push(() => other.close());
    expect((await other.get(started.id, undefined))?.status).toBe('working');
    await http.close();
    expect(seen.aborted).toBe(true);
    for (const id of [started.id, stubborn.id]) {
      expect(await other.get(id, undefined)).toMatchObject({ status: 'failed', message: 'The server shut down before the task finished' });
    }
    finish();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await other.get(stubborn.id, undefined))?.status).toBe('failed');
  });
});
