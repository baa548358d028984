/**
 * The task runner (server/tasks.ts) over `memoryTaskStore`, without a
 * protocol in between: a task's lifecycle, cancellation (2025-11-25
 * basic/utilities/tasks §Task Cancellation: a cancelled task stays
 * cancelled), terminal states that never change, the owner binding
 * (§Security Considerations), the per-owner bound, the TTL, a lapsed lease
 * (a replica that died) seen from a second runner over the same store, and
 * questions inside a task (SEP-2663 §Task Update Requests).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestContext } from '../../src/core/context.js';
import { silentLogger } from '../../src/core/context.js';
import { type InputRequest, InputUnavailableError, MissingClientCapabilityError } from '../../src/core/input.js';
import type { CallToolResult } from '../../src/core/model.js';
import { memoryTaskStore, type TaskRecord, type TaskStart, type TaskStore } from '../../src/core/tasks.js';
import { ErrorCode, ProtocolError } from '../../src/jsonrpc/errors.js';
import { createTaskRunner, type TaskOptions, type TaskRunner } from '../../src/server/tasks.js';
import { eventually } from '../_http-client.js';

const runners: TaskRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close();
});

function runner(options: TaskOptions = {}, store: TaskStore = options.store ?? memoryTaskStore()): TaskRunner {
  const made = createTaskRunner({ ...options, store }, silentLogger, memoryTaskStore);
  runners.push(made);
  return made;
}

/** A promise the test settles: the work waits on it. */
function gate<T = void>(): { promise: Promise<T>; open(value: T): void; fail(error: unknown): void } {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** What a revision hands the runner, with `run` as the work. */
function spec(run: (ctx: RequestContext) => Promise<CallToolResult>, overrides: Partial<TaskStart> = {}): TaskStart {
  return {
    owner: 'alice',
    principal: { client: 'alice', scopes: [] },
    capabilities: { elicitation: {} },
    carriesInput: true,
    run,
    encodeError: (error) => (error instanceof ProtocolError ? { code: error.code, message: error.message } : { code: -32603, message: String(error) }),
    ...overrides,
  };
}

const question = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
});
const accept = { action: 'accept', content: { ok: true } };

/** `ctx.input`, which a task's context always has. */
const ask = (ctx: RequestContext, key: string, request: InputRequest) => (ctx.input as NonNullable<RequestContext['input']>)(key, request);

/** Lets every chain of promises in flight run out: the memory store never waits on a timer or I/O. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Polls `runner` until the task's status is `status`; bounded. */
async function until(tasks: TaskRunner, id: string, status: TaskRecord['status'], owner: string | undefined = 'alice'): Promise<TaskRecord> {
  let record: TaskRecord | undefined;
  await eventually(async () => {
    record = await tasks.get(id, owner);
    return record?.status === status;
  });
  return record as TaskRecord;
}

describe('a task runs apart from its request', () => {
  it('is written working before start resolves, then completes with the work’s result', async () => {
    const tasks = runner({ ttlMs: 60_000, pollIntervalMs: 250 });
    const work = gate<CallToolResult>();
    const created = await tasks.start(spec(() => work.promise));
    expect(created).toMatchObject({ status: 'working', owner: 'alice', ttlMs: 60_000, pollIntervalMs: 250 });
    expect(await tasks.get(created.id, 'alice')).toMatchObject({ id: created.id, status: 'working' });
    work.open(text('done'));
    const done = await until(tasks, created.id, 'completed');
    expect(done.result).toEqual(text('done'));
    expect(done.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);
    expect(done.error).toBeUndefined();
  });

  it('fails with the revision’s error when the work throws, or when the revision says the result fails it', async () => {
    const tasks = runner();
    const thrown = await tasks.start(spec(async () => Promise.reject(new ProtocolError(ErrorCode.InternalError, 'broke'))));
    expect((await until(tasks, thrown.id, 'failed')).error).toEqual({ code: -32603, message: 'broke' });
    const toolError = await tasks.start(spec(async () => ({ ...text('no'), isError: true }), { failed: (result) => result.isError === true }));
    const failed = await until(tasks, toolError.id, 'failed');
    expect(failed.result).toMatchObject({ isError: true });
    const completes = await tasks.start(spec(async () => ({ ...text('no'), isError: true })));
    expect((await until(tasks, completes.id, 'completed')).result).toMatchObject({ isError: true });
  });

  it('settled waits for a terminal status, and gives up when its signal aborts', async () => {
    const tasks = runner({ pollIntervalMs: 5 });
    const work = gate<CallToolResult>();
    const created = await tasks.start(spec(() => work.promise));
    const abandoned = new AbortController();
    const first = tasks.settled(created.id, 'alice', abandoned.signal);
    abandoned.abort(new Error('client went away'));
    await expect(first).rejects.toThrow('client went away');
    const waiting = tasks.settled(created.id, 'alice', new AbortController().signal);
    work.open(text('late'));
    expect(await waiting).toMatchObject({ status: 'completed', result: text('late') });
  });
});

describe('cancellation and terminal states', () => {
  it('aborts the work’s signal, and the task stays cancelled though the work then returns a result', async () => {
    const tasks = runner();
    const aborted = gate<unknown>();
    const work = gate<CallToolResult>();
    const returned = gate<void>();
    const created = await tasks.start(
      spec(
        (ctx) => {
          ctx.signal.addEventListener('abort', () => aborted.open(ctx.signal.reason));
          // The work ignores its signal and returns anyway.
          return work.promise;
        },
        // Asked right before the runner settles the returned result.
        { failed: () => (returned.open(), false) },
      ),
    );
    const after = await tasks.cancel(created.id, 'alice');
    // 2025-11-25 §Task Cancellation: cancelled before the answer.
    expect(after?.status).toBe('cancelled');
    expect(await aborted.promise).toBeInstanceOf(Error);
    work.open(text('finished anyway'));
    await returned.promise;
    await settle();
    const record = await tasks.get(created.id, 'alice');
    expect(record?.status).toBe('cancelled');
    expect(record?.result).toBeUndefined();
  });

  it('keeps cancelled when the work throws on its aborted signal', async () => {
    const tasks = runner();
    const created = await tasks.start(spec((ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))));
    await tasks.cancel(created.id, 'alice');
    const settled = await tasks.settled(created.id, 'alice', new AbortController().signal);
    expect(settled).toMatchObject({ status: 'cancelled' });
    expect(settled?.error).toBeUndefined();
  });

  it('never changes a terminal task: cancel, respond and close leave a completed or failed one as it was', async () => {
    const tasks = runner();
    const completed = await tasks.start(spec(async () => text('ok')));
    const failed = await tasks.start(spec(async () => Promise.reject(new Error('no'))));
    const before = [await until(tasks, completed.id, 'completed'), await until(tasks, failed.id, 'failed')];
    for (const record of before) {
      expect(await tasks.cancel(record.id, 'alice')).toEqual(record);
      expect(await tasks.respond(record.id, 'alice', { anything: accept })).toEqual(record);
    }
    await tasks.close();
    expect(await tasks.get(completed.id, 'alice')).toEqual(before[0]);
    expect(await tasks.get(failed.id, 'alice')).toEqual(before[1]);
  });

  it('close fails the tasks still running: no replica carries their work on', async () => {
    const tasks = runner();
    const created = await tasks.start(spec(() => new Promise(() => {})));
    await tasks.close();
    expect(await tasks.get(created.id, 'alice')).toMatchObject({ status: 'failed', error: { code: -32603 } });
  });
});

describe('tasks are bound to their owner', () => {
  it('another owner’s get, cancel, respond, settled and list see nothing, and change nothing', async () => {
    const tasks = runner();
    const work = gate<CallToolResult>();
    const created = await tasks.start(spec(() => work.promise));
    const anonymous = await tasks.start(spec(async () => text('anyone'), { owner: undefined, principal: undefined }));
    for (const stranger of ['mallory', undefined]) {
      expect(await tasks.get(created.id, stranger)).toBeUndefined();
      expect(await tasks.cancel(created.id, stranger)).toBeUndefined();
      expect(await tasks.respond(created.id, stranger, { confirm: accept })).toBeUndefined();
      expect(await tasks.settled(created.id, stranger, new AbortController().signal)).toBeUndefined();
      expect((await tasks.list(stranger)).map((record) => record.id)).not.toContain(created.id);
    }
    expect(await tasks.get(anonymous.id, 'alice')).toBeUndefined();
    expect((await tasks.list(undefined)).map((record) => record.id)).toEqual([anonymous.id]);
    expect((await tasks.list('alice')).map((record) => record.id)).toEqual([created.id]);
    expect((await tasks.get(created.id, 'alice'))?.status).toBe('working');
    work.open(text('mine'));
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('mine'));
  });
});

describe('bounds', () => {
  it('drops an owner’s oldest finished task for a new one, and refuses one when all are running', async () => {
    const tasks = runner({ maxTasksPerOwner: 2 });
    const first = await tasks.start(spec(async () => text('1')));
    await until(tasks, first.id, 'completed');
    const second = await tasks.start(spec(() => new Promise(() => {})));
    // Another owner's tasks count apart.
    await tasks.start(spec(() => new Promise(() => {}), { owner: 'bob' }));
    const third = await tasks.start(spec(() => new Promise(() => {})));
    expect(await tasks.get(first.id, 'alice')).toBeUndefined();
    expect((await tasks.list('alice')).map((record) => record.id)).toEqual([second.id, third.id]);
    const refused = tasks.start(spec(async () => text('4')));
    await expect(refused).rejects.toBeInstanceOf(ProtocolError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect((await tasks.list('alice')).map((record) => record.id)).toEqual([second.id, third.id]);
    expect(await tasks.list('bob')).toHaveLength(1);
  });

  it('holds the bound when starts race: the first ones win, the rest are refused, and every task started is listed', async () => {
    const tasks = runner({ maxTasksPerOwner: 2 });
    const starts = await Promise.allSettled(Array.from({ length: 5 }, () => tasks.start(spec(() => new Promise(() => {})))));
    const started = starts.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.id] : []));
    expect(started).toHaveLength(2);
    for (const outcome of starts) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: ErrorCode.InternalError });
    // 2025-11-25 §Listing Tasks: a task tasks/get finds is in tasks/list.
    expect((await tasks.list('alice')).map((record) => record.id).sort()).toEqual([...started].sort());
  });

  it('reads no other task to start one while its owner is under the bound', async () => {
    // Over Redis every read is a round trip: a start must not cost one per task its owner keeps.
    const store = memoryTaskStore();
    let reads = 0;
    const counting: TaskStore = { ...store, replica: store.replica, get: (id) => (reads++, store.get(id)) };
    const tasks = runner({ maxTasksPerOwner: 30 }, counting);
    for (let i = 0; i < 20; i++) await tasks.start(spec(() => new Promise(() => {})));
    reads = 0;
    await tasks.start(spec(() => new Promise(() => {})));
    expect(reads).toBe(0);
    expect(await tasks.list('alice')).toHaveLength(21);
  });

  it('forgets a task once its TTL has passed', async () => {
    const tasks = runner({ ttlMs: 100 });
    const created = await tasks.start(spec(async () => text('brief')));
    expect(await tasks.get(created.id, 'alice')).toBeDefined();
    await eventually(async () => (await tasks.get(created.id, 'alice')) === undefined);
    expect(await tasks.list('alice')).toEqual([]);
    expect(await tasks.cancel(created.id, 'alice')).toBeUndefined();
  });

  it('refuses options that are not positive integers', () => {
    for (const options of [{ ttlMs: 0 }, { pollIntervalMs: -1 }, { maxTasksPerOwner: 1.5 }, { leaseMs: Number.NaN }]) {
      expect(() => createTaskRunner(options, silentLogger, memoryTaskStore)).toThrow(TypeError);
    }
  });
});

/**
 * A replica's view of the shared store that can freeze, as a process does
 * when it is stopped: from then on nothing it asks of the store ever
 * completes (its lease is no longer renewed, its result never written), and
 * it hears no signal.
 */
function freezable(shared: TaskStore): { store: TaskStore; freeze(): void } {
  let frozen = false;
  const hang = <T>(call: () => Promise<T>): Promise<T> => (frozen ? new Promise<T>(() => {}) : call());
  const store: TaskStore = {
    replica: crypto.randomUUID(),
    get: (id) => hang(() => shared.get(id)),
    put: (next, previous) => hang(() => shared.put(next, previous)),
    owned: (owner) => hang(() => shared.owned(owner)),
    own: (owner, id, max) => hang(() => shared.own(owner, id, max)),
    delete: (id) => hang(() => shared.delete(id)),
    signal: (id) => hang(() => shared.signal(id)),
    onSignal: (listener) => shared.onSignal((id) => (frozen ? undefined : listener(id))),
  };
  return { store, freeze: () => (frozen = true) };
}

describe('the store', () => {
  it('takes a transport’s shared store only where the server was given none', async () => {
    const defaulted = createTaskRunner({}, silentLogger, memoryTaskStore);
    runners.push(defaulted);
    const shared = memoryTaskStore();
    expect(defaulted.useStore(shared)).toBe(true);
    const started = await defaulted.start(spec(async () => text('done')));
    expect(await shared.get(started.id)).toMatchObject({ id: started.id });

    const own = memoryTaskStore();
    const chosen = runner({ store: own });
    expect(chosen.useStore(memoryTaskStore())).toBe(false);
    const kept = await chosen.start(spec(async () => text('done')));
    expect(await own.get(kept.id)).toMatchObject({ id: kept.id });
  });
});

describe('two replicas over one store', () => {
  it('renews the lease while the work runs', async () => {
    const shared = memoryTaskStore();
    const tasks = runner({ leaseMs: 60 }, shared);
    const created = await tasks.start(spec(() => new Promise(() => {})));
    await eventually(async () => ((await shared.get(created.id))?.leaseUntil ?? 0) > created.leaseUntil);
    expect((await shared.get(created.id))?.status).toBe('working');
  });

  it('marks failed a task whose runner stopped renewing its lease, when the other replica reads it', async () => {
    const shared = memoryTaskStore();
    const a = freezable(shared);
    // The frozen runner is never closed: its close would hang on the frozen store, as a stopped process would.
    const dead = createTaskRunner({ store: a.store, leaseMs: 30 }, silentLogger, memoryTaskStore);
    const alive = runner({ leaseMs: 30 }, shared);
    const created = await dead.start(spec(() => new Promise(() => {})));
    a.freeze();
    expect((await alive.get(created.id, 'alice'))?.status).toBe('working');
    const failed = await until(alive, created.id, 'failed');
    expect(failed.error).toMatchObject({ code: -32603 });
    expect(failed.message).toMatch(/stopped before it finished/);
  });

  it('a cancellation on one replica reaches the work running on the other', async () => {
    const shared = memoryTaskStore();
    const a = runner({}, shared);
    const b = runner({}, shared);
    const aborted = gate<void>();
    const created = await a.start(
      spec((ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => (aborted.open(), reject(ctx.signal.reason))))),
    );
    expect((await b.cancel(created.id, 'alice'))?.status).toBe('cancelled');
    await aborted.promise;
    expect((await a.get(created.id, 'alice'))?.status).toBe('cancelled');
  });

  it('a cancellation whose signal was lost stays cancelled when the work then asks a question', async () => {
    const shared = memoryTaskStore();
    // The runner hears no signal: it would learn of the cancellation on its next renewal only.
    const deaf: TaskStore = { ...shared, replica: 'deaf', get: shared.get, put: shared.put, onSignal: () => () => {} };
    const a = runner({}, deaf);
    const b = runner({}, shared);
    const asking = gate<void>();
    const created = await a.start(
      spec(async (ctx) => {
        await asking.promise;
        await ask(ctx, 'confirm', question('Sure?'));
        return text('asked');
      }),
    );
    await b.cancel(created.id, 'alice');
    asking.open();
    await settle();
    const record = await b.get(created.id, 'alice');
    expect(record?.status).toBe('cancelled');
    expect(record?.inputRequests).toBeUndefined();
  });
});

describe('questions inside a task', () => {
  it('asks: input_required with the questions; a partial answer leaves the rest; all answered: working, then completed', async () => {
    const tasks = runner();
    const resume = gate<void>();
    const created = await tasks.start(
      spec(async (ctx) => {
        const [first, second] = await Promise.all([ask(ctx, 'first', question('First?')), ask(ctx, 'second', question('Second?'))]);
        await resume.promise;
        return text(`${first.action} ${second.action}`);
      }),
    );
    let record = await eventually(async () => Object.keys((await tasks.get(created.id, 'alice'))?.inputRequests ?? {}).length === 2).then(() =>
      tasks.get(created.id, 'alice'),
    );
    expect(record?.status).toBe('input_required');
    expect(record?.inputRequests).toEqual({ first: question('First?'), second: question('Second?') });

    // SEP-2663 §Task Update Requests: a strict subset is accepted; keys not open are ignored.
    await tasks.respond(created.id, 'alice', { first: accept, never_asked: accept });
    record = await tasks.get(created.id, 'alice');
    expect(record?.status).toBe('input_required');
    expect(record?.inputRequests).toEqual({ second: question('Second?') });

    await tasks.respond(created.id, 'alice', { second: { action: 'decline' } });
    record = await until(tasks, created.id, 'working');
    expect(record.inputRequests).toBeUndefined();
    // The answers are taken by the waiting handler, not left in the record.
    await eventually(async () => (await tasks.get(created.id, 'alice'))?.inputResponses === undefined);
    resume.open();
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('accept decline'));
  });

  it('asks with a zod schema: the record holds its JSON Schema, the handler gets the validated output or -32602', async () => {
    const tasks = runner();
    const form = z.object({ copies: z.number().int().min(1) });
    const typed = (ctx: RequestContext) =>
      (ctx.input as NonNullable<RequestContext['input']>)('copies', { method: 'elicitation/create', params: { message: 'How many?', requestedSchema: form } });
    const created = await tasks.start(
      spec(async (ctx) => {
        const answer = await typed(ctx);
        return text(answer.action === 'accept' ? `copies ${answer.content.copies + 1}` : answer.action);
      }),
    );
    const record = await until(tasks, created.id, 'input_required');
    expect(record.inputRequests).toEqual({
      copies: {
        method: 'elicitation/create',
        params: {
          message: 'How many?',
          requestedSchema: { type: 'object', properties: { copies: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } }, required: ['copies'] },
        },
      },
    });
    await tasks.respond(created.id, 'alice', { copies: { action: 'accept', content: { copies: 2 } } });
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('copies 3'));

    const errors: unknown[] = [];
    const invalid = await tasks.start(spec(async (ctx) => text(String(await typed(ctx).catch((error: unknown) => errors.push(error))))));
    await until(tasks, invalid.id, 'input_required');
    await tasks.respond(invalid.id, 'alice', { copies: { action: 'accept', content: { copies: 0 } } });
    await until(tasks, invalid.id, 'completed');
    expect(errors).toMatchObject([{ code: ErrorCode.InvalidParams, data: { input: 'copies' } }]);
  });

  it('ignores an answer to a key that is not open, and a second answer to one already given', async () => {
    const tasks = runner();
    const created = await tasks.start(spec(async (ctx) => text((await ask(ctx, 'only', question('Only?'))).action as string)));
    await until(tasks, created.id, 'input_required');
    const open = await tasks.get(created.id, 'alice');
    expect(await tasks.respond(created.id, 'alice', { other: accept })).toEqual(open);
    await tasks.respond(created.id, 'alice', { only: { action: 'cancel' } });
    await tasks.respond(created.id, 'alice', { only: accept });
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('cancel'));
  });

  it('takes an answer that came before the wait for it was set up (its signal found no waiter)', async () => {
    // The ask's write is seen (input_required) before its signal returns and the wait is set up;
    // an answer in that gap is looked for again once the wait is there, not at the next lease renewal.
    const inner = memoryTaskStore();
    const held = gate();
    let hold = true;
    const store: TaskStore = {
      ...inner,
      signal(id) {
        if (!hold) return inner.signal(id);
        hold = false;
        return held.promise.then(() => inner.signal(id));
      },
    };
    const tasks = runner({ leaseMs: 600_000 }, store);
    const created = await tasks.start(spec(async (ctx) => text((await ask(ctx, 'only', question('Only?'))).action as string)));
    await until(tasks, created.id, 'input_required');
    await tasks.respond(created.id, 'alice', { only: accept });
    held.open();
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('accept'));
  });

  it('never reuses a key: the same key asked twice goes out under a new one', async () => {
    const tasks = runner();
    const created = await tasks.start(
      spec(async (ctx) => {
        const one = await ask(ctx, 'confirm', question('Once?'));
        const two = await ask(ctx, 'confirm', question('Twice?'));
        const three = await ask(ctx, 'confirm.2', question('Thrice?'));
        return text([one, two, three].map((answer) => answer.action).join(' '));
      }),
    );
    const keys: string[] = [];
    for (const [answer, message] of [
      [accept, 'Once?'],
      [{ action: 'decline' }, 'Twice?'],
      [{ action: 'cancel' }, 'Thrice?'],
    ] as const) {
      await eventually(async () => {
        const record = await tasks.get(created.id, 'alice');
        return Object.values(record?.inputRequests ?? {}).some((request) => request.params?.message === message);
      });
      const record = (await tasks.get(created.id, 'alice')) as TaskRecord;
      const [key] = Object.keys(record.inputRequests ?? {});
      keys.push(key as string);
      await tasks.respond(created.id, 'alice', { [key as string]: answer });
    }
    expect(new Set(keys).size).toBe(3);
    expect(keys[0]).toBe('confirm');
    expect((await until(tasks, created.id, 'completed')).result).toEqual(text('accept decline cancel'));
    expect((await tasks.get(created.id, 'alice'))?.askedKeys).toEqual(keys);
  });

  it('fails the task when an answer is not one to its question', async () => {
    const tasks = runner();
    const created = await tasks.start(spec(async (ctx) => text((await ask(ctx, 'q', question('Q?'))).action as string)));
    await until(tasks, created.id, 'input_required');
    await tasks.respond(created.id, 'alice', { q: { roots: [] } });
    expect((await until(tasks, created.id, 'failed')).error).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('refuses a question where the revision carries none, or the client cannot answer it', async () => {
    const tasks = runner();
    const errors: unknown[] = [];
    const asking = async (ctx: RequestContext): Promise<CallToolResult> => {
      await ask(ctx, 'q', question('Q?')).catch((error: unknown) => errors.push(error));
      return text('asked');
    };
    const noInput = await tasks.start(spec(asking, { carriesInput: false }));
    const noCapability = await tasks.start(spec(asking, { capabilities: {} }));
    await until(tasks, noInput.id, 'completed');
    await until(tasks, noCapability.id, 'completed');
    expect(errors.some((error) => error instanceof InputUnavailableError)).toBe(true);
    expect(errors.some((error) => error instanceof MissingClientCapabilityError)).toBe(true);
  });
});

describe('watching a task', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells each new state, also when several come in the same millisecond', async () => {
    // The clock stands still: every write of the task has the same updatedAt.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T00:00:00Z'));
    const tasks = runner();
    const created = await tasks.start(
      spec(async (ctx) => {
        const answer = await ask(ctx, 'first', question('First?'));
        return text(String(answer.action));
      }),
    );
    const seen: string[] = [];
    const stop = tasks.watch([created.id], 'alice', (record) => seen.push(record.status));
    await until(tasks, created.id, 'input_required');
    await eventually(() => seen.includes('input_required'));
    await tasks.respond(created.id, 'alice', { first: accept });
    await eventually(() => seen.includes('completed'));
    stop();
    expect(seen.at(-1)).toBe('completed');
    expect(new Set(seen).size).toBe(seen.length);
  });
});
