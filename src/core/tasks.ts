/**
 * Tasks: a tool call the client polls for instead of waiting on its request
 * (2025-11-25 basic/utilities/tasks, experimental; the 2026-07-28 Tasks
 * extension, SEP-2663). The model here is the one both revisions share: a
 * task's record and the store that keeps it. Each revision words a record its
 * own way; the server runs the tasks (server/tasks.ts).
 */
import type { Principal, RequestContext } from './context.js';
import type { InputRequest } from './input.js';
import type { CallToolResult, TaskSupport } from './model.js';

export type { TaskSupport };

/** A task's state; the last three are terminal and never change again (2025-11-25 §Task Status Lifecycle). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Whether `status` is terminal. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** How a task ended: its terminal status and what it carries. */
export type TaskOutcome = Pick<TaskRecord, 'status' | 'result' | 'error' | 'message'>;

/** `record` ended with `outcome`, its open questions and answers dropped. */
export function ended(record: TaskRecord, outcome: TaskOutcome): TaskRecord {
  const { inputRequests: _open, inputResponses: _given, ...rest } = record;
  return { ...rest, ...outcome, updatedAt: Date.now() };
}

/** A JSON-RPC error as the revision that created the task words it: what a failed task carries. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One task as the store keeps it: plain JSON, so a replica can read what
 * another wrote. Times are milliseconds since the epoch.
 */
export interface TaskRecord {
  readonly id: string;
  /** Who created it (core/context.ts `principalId`); absent when nothing was authenticated. */
  readonly owner?: string;
  readonly status: TaskStatus;
  readonly message?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How long the record is kept from its creation. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tool's result, once completed (a tool error is a completed task with `isError`). */
  readonly result?: CallToolResult;
  /** The protocol error, once failed. */
  readonly error?: TaskError;
  /** Questions waiting for the client, by key (status `input_required`). */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** Answers the client delivered that the running handler has not taken yet, by key. */
  readonly inputResponses?: Readonly<Record<string, Record<string, unknown>>>;
  /** Every key ever asked: a key is never asked twice in one task (SEP-2663 §Task Update Requests). */
  readonly askedKeys?: readonly string[];
  /** The replica running it, and until when its lease holds: past it, the runner is gone. */
  readonly runner: string;
  readonly leaseUntil: number;
}

/**
 * Where task records live: this process's memory by default, or state the
 * replicas share (transport/task-store.ts). Writes are compare-and-set, so
 * two replicas that change one task at once (a cancellation and a result)
 * never lose one of the changes.
 */
export interface TaskStore {
  /** The id of this process, which runs the tasks it creates. */
  readonly replica: string;
  get(id: string): Promise<TaskRecord | undefined>;
  /**
   * Writes `next` when the stored record is still `previous` (the object
   * `get` returned, compared by content), or creates it when `previous` is
   * undefined and nothing is stored under its id. False when another write
   * came first. The record is kept until `createdAt + ttlMs`.
   */
  put(next: TaskRecord, previous: TaskRecord | undefined): Promise<boolean>;
  /** The ids of `owner`'s tasks (undefined: the unauthenticated caller's), oldest first. */
  owned(owner: string | undefined): Promise<readonly string[]>;
  /** Adds `id` to `owner`'s list and drops ids past `max` from its front; returns the dropped ids. */
  own(owner: string | undefined, id: string, max: number): Promise<readonly string[]>;
  delete(id: string): Promise<void>;
  /** Tells every replica (this one included) that task `id` changed: its runner looks again. */
  signal(id: string): Promise<void>;
  /** Calls `listener` for every signalled task id; returns the function that stops it. */
  onSignal(listener: (id: string) => void): () => void;
  close?(): Promise<void>;
}

/** The JSON text a record is stored as: the same for equal records, whichever replica wrote it. */
export function taskText(record: TaskRecord): string {
  return JSON.stringify(record);
}

/** A record read back from a store, or undefined when the text is not one (a foreign or damaged entry). */
export function parseTask(text: string | undefined): TaskRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<TaskRecord> | null;
    if (value === null || typeof value !== 'object' || typeof value.id !== 'string' || typeof value.status !== 'string') return undefined;
    if (typeof value.createdAt !== 'number' || typeof value.ttlMs !== 'number' || typeof value.leaseUntil !== 'number') return undefined;
    return value as TaskRecord;
  } catch {
    return undefined;
  }
}

/**
 * Records kept as text in this process's memory, each until its TTL. Expired
 * records are swept as new ones come (oldest first: one TTL for all makes
 * creation order expiry order), their owners' lists with them, so a caller
 * who never comes back leaves nothing behind.
 */
export function memoryTaskStore(): TaskStore {
  const records = new Map<string, { text: string; expires: number; owner: string }>();
  const owners = new Map<string, string[]>();
  const listeners = new Set<(id: string) => void>();
  const ownerKey = (owner: string | undefined): string => owner ?? '';

  function drop(id: string): void {
    const entry = records.get(id);
    if (!entry) return;
    records.delete(id);
    const ids = owners.get(entry.owner)?.filter((known) => known !== id);
    if (ids?.length) owners.set(entry.owner, ids);
    else owners.delete(entry.owner);
  }

  function live(id: string): string | undefined {
    const entry = records.get(id);
    if (entry && entry.expires <= Date.now()) {
      drop(id);
      return undefined;
    }
    return entry?.text;
  }

  function sweep(now: number): void {
    for (const [id, entry] of records) {
      if (entry.expires > now) return;
      drop(id);
    }
  }

  return {
    replica: crypto.randomUUID(),
    get: async (id) => parseTask(live(id)),
    async put(next, previous) {
      const current = live(next.id);
      if ((previous === undefined) !== (current === undefined)) return false;
      if (previous !== undefined && current !== taskText(previous)) return false;
      if (previous === undefined) sweep(Date.now());
      records.set(next.id, { text: taskText(next), expires: next.createdAt + next.ttlMs, owner: ownerKey(next.owner) });
      return true;
    },
    async owned(owner) {
      return (owners.get(ownerKey(owner)) ?? []).filter((id) => live(id) !== undefined);
    },
    async own(owner, id, max) {
      const ids = [...(owners.get(ownerKey(owner)) ?? []).filter((known) => live(known) !== undefined), id];
      const dropped = ids.splice(0, Math.max(0, ids.length - max));
      owners.set(ownerKey(owner), ids);
      return dropped;
    },
    async delete(id) {
      drop(id);
    },
    async signal(id) {
      // Later, as a replica's would arrive: never inside the writer's own step.
      queueMicrotask(() => {
        for (const listener of listeners) listener(id);
      });
    },
    onSignal(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What a revision gives to start a task: who asks, what the client can answer, and the work. */
export interface TaskStart {
  /** The caller's id (core/context.ts `principalId`): only it may see the task. */
  readonly owner: string | undefined;
  readonly principal: Principal | undefined;
  /** What the client declared on the request that created the task. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Whether the revision carries questions from a running task (2026-07-28 `tasks/update`); elsewhere `ctx.input` is refused. */
  readonly carriesInput: boolean;
  /** The work, given the task's own context: cancelled by `tasks/cancel`, not by the request's end. */
  run(ctx: RequestContext): Promise<CallToolResult>;
  /** Whether a result fails the task rather than completing it (2025-11-25: a tool's `isError`). */
  readonly failed?: ((result: CallToolResult) => boolean) | undefined;
  /** A protocol error as the revision words it, for a failed task. */
  encodeError(error: unknown): TaskError;
}

/** The server's tasks, as the revisions' methods use them. Each call that names a task checks its owner: another caller's task is not found. */
export interface Tasks {
  /** Creates a task and starts its work; resolves once the record is written (SEP-2663: durably created). */
  start(spec: TaskStart): Promise<TaskRecord>;
  get(id: string, owner: string | undefined): Promise<TaskRecord | undefined>;
  /** `owner`'s tasks, oldest first. */
  list(owner: string | undefined): Promise<TaskRecord[]>;
  /** Cancels a task that is not terminal; the record after, or the terminal one as it was. */
  cancel(id: string, owner: string | undefined): Promise<TaskRecord | undefined>;
  /** Delivers answers to the task's open questions; keys that are not open are ignored. */
  respond(id: string, owner: string | undefined, responses: Readonly<Record<string, Record<string, unknown>>>): Promise<TaskRecord | undefined>;
  /**
   * Waits until the task is terminal (2025-11-25 `tasks/result`), or `signal`
   * aborts; `waiting` sees each state read meanwhile in `input_required`.
   */
  settled(id: string, owner: string | undefined, signal: AbortSignal, waiting?: (record: TaskRecord) => void): Promise<TaskRecord | undefined>;
  /** Calls `listener` with each new state of `owner`'s tasks `ids`, changed on any replica; returns the function that stops it. */
  watch(ids: readonly string[], owner: string | undefined, listener: (record: TaskRecord) => void): () => void;
}
