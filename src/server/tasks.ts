/**
 * The server's task runner (core/tasks.ts `Tasks`): creates task records,
 * runs their work apart from the request that asked (a task outlives its
 * request, its connection and, for the client, its transport), and keeps the
 * record in step: results, cancellation, questions for the client.
 *
 * Records live in a store that replicas may share. The replica that creates a
 * task runs it and holds a lease on it, renewed while it runs; a task whose
 * lease ran out lost its runner (a replica killed), and whoever reads it next
 * marks it failed rather than leaving it working forever. A change made on
 * another replica (a cancellation, an answer) is signalled to all; the runner
 * also looks at its tasks on every lease renewal, so a lost signal only delays.
 */
import type { Logger } from '../core/context.js';
import { ended, isTerminal, type TaskOutcome, type TaskRecord, type TaskStart, type TaskStore, type Tasks } from '../core/tasks.js';
import { ErrorCode, ProtocolError } from '../jsonrpc/errors.js';
import { pause } from '../util/pause.js';
import { fitsBound } from './task-bound.js';
import { answerOpen, askInTask, deliver, type Running, taskContext } from './task-input.js';

/** How tasks are kept (`createServer({ tasks })`). */
export interface TaskOptions {
  /** Where records live. Default: this process's memory; `serveHttp` with `redis` shares them. */
  store?: TaskStore;
  /** How long a task's record is kept from its creation, in ms. Default 3600000 (an hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** Most tasks one caller keeps; past it the oldest finished one is dropped, or a new one refused. Default 100. */
  maxTasksPerOwner?: number;
  /** How long a runner's lease on a task lasts without renewal, in ms. Default 15000. */
  leaseMs?: number;
}

/** The runner, with what the server and its transports call besides {@link Tasks}. */
export interface TaskRunner extends Tasks {
  /**
   * Replaces the default store (a transport that brings shared state), before
   * the server serves: a task already running would move to a store that
   * lacks its record. A store given to `createServer({ tasks: { store } })`
   * stays: false then, true when replaced.
   */
  useStore(store: TaskStore): boolean;
  /** Marks every task this process runs as failed and stops them (the server shuts down). */
  close(): Promise<void>;
}

/** The error a task gets when its runner is gone. */
const RUNNER_GONE = { code: ErrorCode.InternalError, message: 'The server running the task stopped before it finished' } as const;

/** What a task still running here becomes when the server shuts down: no replica can carry its work on. */
const SHUT_DOWN = { status: 'failed', error: RUNNER_GONE, message: 'The server shut down before the task finished' } as const;

/** A writer's change to a record: the next record, or undefined to leave it. */
type Change = (record: TaskRecord) => TaskRecord | undefined;

export function createTaskRunner(options: TaskOptions, logger: Logger, fallback: () => TaskStore): TaskRunner {
  return new Runner(options, logger, fallback);
}

class Runner implements TaskRunner {
  #store: TaskStore;
  /** Whether the store was chosen by whoever made the server, not defaulted. */
  readonly #given: boolean;
  readonly #logger: Logger;
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxTasks: number;
  readonly #leaseMs: number;
  readonly #running = new Map<string, Running>();
  #stopSignals: () => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closing = false;

  constructor(options: TaskOptions, logger: Logger, fallback: () => TaskStore) {
    this.#store = options.store ?? fallback();
    this.#given = options.store !== undefined;
    this.#logger = logger;
    this.#ttlMs = positive(options.ttlMs ?? 3_600_000, 'tasks.ttlMs');
    this.#pollIntervalMs = positive(options.pollIntervalMs ?? 1000, 'tasks.pollIntervalMs');
    this.#maxTasks = positive(options.maxTasksPerOwner ?? 100, 'tasks.maxTasksPerOwner');
    this.#leaseMs = positive(options.leaseMs ?? 15_000, 'tasks.leaseMs');
    this.#stopSignals = this.#store.onSignal((id) => void this.#look(id));
  }

  /** Applies `change` with compare-and-set, reading again when another write came first. */
  readonly #update = async (id: string, change: Change, renewal = false): Promise<TaskRecord | undefined> => {
    for (let attempt = 0; attempt < 16; attempt++) {
      const current = await this.#store.get(id);
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      if (await this.#store.put(next, current)) {
        // Every replica hears of a change of state (not of a lease renewal): the runner acts on it, listeners are told.
        // Told by the writer, not by `updatedAt`: two changes in one millisecond keep the same one.
        if (!renewal) await this.#store.signal(id).catch((error) => this.#logger.warn(`Could not signal task ${id}`, error));
        return next;
      }
    }
    throw new Error(`Task ${id} changed too often to be written`);
  };

  /** Ends a task that is not terminal yet (a cancellation stays: 2025-11-25 §Task Cancellation). */
  #settle(id: string, outcome: TaskOutcome): Promise<TaskRecord | undefined> {
    return this.#update(id, (record) => (isTerminal(record.status) ? undefined : ended(record, outcome)));
  }

  /** A change on some replica: the runner of `id`, if here, acts on it (a cancellation, answers). */
  async #look(id: string): Promise<void> {
    const task = this.#running.get(id);
    if (!task) return;
    const record = await this.#store.get(id).catch(() => undefined);
    if (!record || record.status === 'cancelled') task.controller.abort(new Error('The task was cancelled'));
    else if (record.inputResponses) await answerOpen(task, record, this.#update);
  }

  /** Renews the leases of this process's tasks, and looks at each for a change whose signal was lost. */
  async #renew(): Promise<void> {
    const until = Date.now() + this.#leaseMs;
    for (const id of this.#running.keys()) {
      await this.#update(id, (record) => (isTerminal(record.status) ? undefined : { ...record, leaseUntil: until }), true).catch((error) =>
        this.#logger.warn(`Could not renew the lease of task ${id}`, error),
      );
      await this.#look(id).catch(() => undefined);
    }
  }

  #track(task: Running): void {
    this.#running.set(task.id, task);
    this.#timer ??= setInterval(() => void this.#renew(), Math.max(1, Math.floor(this.#leaseMs / 3)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #untrack(id: string): void {
    this.#running.delete(id);
    if (this.#running.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #run(spec: TaskStart, task: Running): Promise<void> {
    try {
      await this.#settle(task.id, await this.#outcome(spec, task));
    } catch (error) {
      // The store did not take the write (Redis out of reach, or closed after a shutdown's drain
      // time): the lease is no longer renewed, so whoever reads the task next marks it failed.
      this.#logger.warn(`Could not record the end of task ${task.id}`, error);
    } finally {
      this.#untrack(task.id);
    }
  }

  /** How the work ended, as the record words it. */
  async #outcome(spec: TaskStart, task: Running): Promise<TaskOutcome> {
    try {
      const result = await spec.run(taskContext(task, spec, this.#logger, (key, request) => askInTask(task, key, request, this.#update)));
      if (!spec.failed?.(result)) return { status: 'completed', result };
      // 2025-11-25 §Task Execution Errors: a failed task's status message SHOULD say why.
      return { status: 'failed', result, message: result.content.find((block) => block.type === 'text')?.text ?? 'The tool reported an error' };
    } catch (error) {
      if (this.#closing) return SHUT_DOWN;
      if (task.controller.signal.aborted) return { status: 'cancelled' };
      const encoded = spec.encodeError(error);
      return { status: 'failed', error: encoded, message: encoded.message };
    }
  }

  /** A record, marked failed when its runner's lease ran out while it was not terminal. */
  async #read(id: string): Promise<TaskRecord | undefined> {
    const record = await this.#store.get(id);
    if (!record || isTerminal(record.status) || record.leaseUntil >= Date.now() || this.#running.has(id)) return record;
    this.#logger.warn(`Task ${id} lost its runner (${record.runner}); marked failed`);
    return this.#settle(id, { status: 'failed', error: RUNNER_GONE, message: RUNNER_GONE.message });
  }

  async get(id: string, owner: string | undefined): Promise<TaskRecord | undefined> {
    const record = await this.#read(id);
    // Another caller's task is as unknown as a missing one (2025-11-25 §Security: bound to the authorization context).
    return record && record.owner === owner ? record : undefined;
  }

  async start(spec: TaskStart): Promise<TaskRecord> {
    const now = Date.now();
    const record: TaskRecord = {
      id: crypto.randomUUID(),
      ...(spec.owner === undefined ? {} : { owner: spec.owner }),
      status: 'working',
      createdAt: now,
      updatedAt: now,
      ttlMs: this.#ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
      runner: this.#store.replica,
      leaseUntil: now + this.#leaseMs,
    };
    // Written before the answer: a tasks/get right after it finds the task on any replica (SEP-2663 §Task Creation).
    if (!(await this.#store.put(record, undefined))) throw new Error('A task id was taken twice');
    // Listed before the bound is checked (task-bound.ts); the list itself drops nothing.
    await this.#store.own(spec.owner, record.id, Number.MAX_SAFE_INTEGER);
    if (!(await fitsBound(this.#store, (id) => this.#read(id), this.#maxTasks, spec.owner, record.id))) {
      await this.#store.delete(record.id);
      throw new ProtocolError(ErrorCode.InternalError, `At most ${this.#maxTasks} tasks may be kept at once; wait for one to finish`);
    }
    const task: Running = { id: record.id, controller: new AbortController(), waiters: new Map() };
    this.#track(task);
    void this.#run(spec, task);
    return record;
  }

  async list(owner: string | undefined): Promise<TaskRecord[]> {
    const records = await Promise.all((await this.#store.owned(owner)).map((id) => this.get(id, owner)));
    return records.filter((record): record is TaskRecord => record !== undefined);
  }

  cancel(id: string, owner: string | undefined): Promise<TaskRecord | undefined> {
    return this.#updateOwn(id, owner, (record) => (isTerminal(record.status) ? undefined : ended(record, CANCELLED)));
  }

  respond(id: string, owner: string | undefined, responses: Readonly<Record<string, Record<string, unknown>>>): Promise<TaskRecord | undefined> {
    return this.#updateOwn(id, owner, (record) => deliver(record, responses));
  }

  /** `#update` for a caller: another caller's task is as unknown as a missing one, checked in the same read. */
  async #updateOwn(id: string, owner: string | undefined, change: Change): Promise<TaskRecord | undefined> {
    let own = false;
    const record = await this.#update(id, (current) => {
      own = current.owner === owner;
      return own ? change(current) : undefined;
    });
    return own ? record : undefined;
  }

  async settled(id: string, owner: string | undefined, signal: AbortSignal, waiting?: (record: TaskRecord) => void): Promise<TaskRecord | undefined> {
    for (;;) {
      const record = await this.get(id, owner);
      if (!record || isTerminal(record.status)) return record;
      if (record.status === 'input_required') waiting?.(record);
      if (await pause(record.pollIntervalMs, signal)) signal.throwIfAborted();
    }
  }

  watch(ids: readonly string[], owner: string | undefined, listener: (record: TaskRecord) => void): () => void {
    const told = new Map(ids.map((id) => [id, ''])); // the watched ids, each with the state last told
    const tell = async (id: string): Promise<void> => {
      const record = told.has(id) ? await this.get(id, owner).catch(() => undefined) : undefined;
      // Each state once, however many signals bring it: by status and questions too, as two changes in one ms share updatedAt.
      const state = record && `${record.updatedAt} ${record.status} ${Object.keys(record.inputRequests ?? {}).join(' ')}`;
      if (!record || told.get(id) === state) return;
      told.set(id, state as string);
      listener(record);
    };
    return this.#store.onSignal((id) => void tell(id));
  }

  useStore(next: TaskStore): boolean {
    if (this.#given) return false;
    this.#stopSignals();
    this.#store = next;
    this.#stopSignals = next.onSignal((id) => void this.#look(id));
    return true;
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#stopSignals();
    const ids = [...this.#running.keys()];
    for (const task of this.#running.values()) task.controller.abort(new Error('The server shut down'));
    await Promise.all(ids.map((id) => this.#settle(id, SHUT_DOWN).catch(() => undefined)));
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

const CANCELLED: TaskOutcome = { status: 'cancelled', message: 'Cancelled by the client' };

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}
