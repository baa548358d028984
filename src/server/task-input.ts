/**
 * A running task's context and its questions for the client. A task is no
 * request: what it asks goes into its record (`input_required` with
 * `inputRequests`), the client answers with `tasks/update` on any replica,
 * and the waiting handler takes the answer from the record (2026-07-28 Tasks
 * extension, SEP-2663 §Task Update Requests).
 */
import type { Can, HandlerContext, Logger } from '../core/context.js';
import { askWith } from '../core/elicitation.js';
import { CAPABILITY_OF, type InputRequest, InputUnavailableError, isAnswerTo, MissingClientCapabilityError } from '../core/input.js';
import { isTerminal, type TaskRecord, type TaskStart } from '../core/tasks.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { isPlainObject } from '../jsonrpc/messages.js';

/** A question the handler waits on: the key it went out under, and how to wake it. */
interface Waiter {
  readonly request: InputRequest;
  resolve(answer: Record<string, unknown>): void;
  reject(error: unknown): void;
}

/** A task this process runs. */
export interface Running {
  readonly id: string;
  readonly controller: AbortController;
  /** Open questions by the key they went out under. */
  readonly waiters: Map<string, Waiter>;
}

type Update = (id: string, change: (record: TaskRecord) => TaskRecord | undefined) => Promise<TaskRecord | undefined>;

const NOTHING = (): void => {};
const NEVER = (): boolean => false;

/**
 * The context a task's work gets: its own signal (tasks/cancel, not the
 * request's end), no progress or log messages (SEP-2663: not supported on
 * tasks; the request that carried a progress token has been answered), and
 * `input` where the revision carries it.
 */
export function taskContext(
  task: Running,
  spec: TaskStart,
  logger: Logger,
  ask: (key: string, request: InputRequest) => Promise<Record<string, unknown>>,
): HandlerContext {
  const { signal } = task.controller;
  const declared = (method: InputRequest['method']): boolean => isPlainObject(spec.capabilities[CAPABILITY_OF[method]]);
  const can: Can = { progress: false, log: NEVER, input: (method) => spec.carriesInput && declared(method) };
  return {
    signal,
    get cancelled() {
      return signal.aborted;
    },
    logger,
    log: NOTHING,
    progress: NOTHING,
    client: { capabilities: spec.capabilities },
    can,
    principal: spec.principal,
    input: ((key: string, request: InputRequest) => {
      if (!spec.carriesInput) return Promise.reject(new InputUnavailableError('Input from the client is not available inside a task on this revision'));
      if (!declared(request.method)) return Promise.reject(new MissingClientCapabilityError([CAPABILITY_OF[request.method]]));
      return askWith(ask, key, request);
    }) as HandlerContext['input'],
  };
}

/**
 * Asks `request` in the task's record and waits for the answer. The key it
 * goes out under is new to the task: SEP-2663 forbids reusing one, so a key
 * the handler asks again gets a suffix.
 */
export async function askInTask(task: Running, key: string, request: InputRequest, update: Update): Promise<Record<string, unknown>> {
  task.controller.signal.throwIfAborted();
  let wireKey = key;
  const written = await update(task.id, (record) => {
    if (isTerminal(record.status)) return undefined;
    const asked = record.askedKeys ?? [];
    for (let n = 2; asked.includes(wireKey); n++) wireKey = `${key}.${n}`;
    return {
      ...record,
      status: 'input_required',
      inputRequests: { ...record.inputRequests, [wireKey]: request },
      askedKeys: [...asked, wireKey],
      updatedAt: Date.now(),
    };
  });
  if (!written || isTerminal(written.status)) {
    // Ended elsewhere (a cancellation whose signal has not come yet): a question never reopens a terminal task (2025-11-25 §Task Status Lifecycle).
    task.controller.abort(new Error('The task was cancelled'));
    throw task.controller.signal.reason;
  }
  const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
    const signal = task.controller.signal;
    const stop = (): void => {
      task.waiters.delete(wireKey);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
    task.waiters.set(wireKey, {
      request,
      resolve(answer) {
        signal.removeEventListener('abort', stop);
        resolve(answer);
      },
      reject(error) {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    });
  });
  // The record said input_required before this wait was set up: an answer in between was signalled
  // to no waiter. Look once more now that it is here (a read), not at the next lease renewal.
  answered.catch(() => {});
  const current = await update(task.id, () => undefined);
  if (current?.inputResponses) await answerOpen(task, current, update);
  return answered;
}

/** Hands the answers in `record` to the questions waiting here, and takes them out of the record. */
export async function answerOpen(task: Running, record: TaskRecord, update: Update): Promise<void> {
  const given = record.inputResponses ?? {};
  const taken = Object.keys(given).filter((key) => task.waiters.has(key));
  if (taken.length === 0) return;
  await update(task.id, (current) => {
    const left = { ...current.inputResponses };
    for (const key of taken) delete left[key];
    const { inputResponses: _given, ...rest } = current;
    return Object.keys(left).length > 0 ? { ...rest, inputResponses: left } : rest;
  });
  for (const key of taken) {
    const waiter = task.waiters.get(key);
    if (!waiter) continue;
    task.waiters.delete(key);
    const answer = given[key];
    if (isAnswerTo(waiter.request, answer)) waiter.resolve(answer);
    else waiter.reject(new InvalidParamsError(`"inputResponses.${key}" is not an answer to ${waiter.request.method}`, { field: `inputResponses.${key}` }));
  }
}

/** A record with `responses` to its open questions moved to its answers; working again once none is open. */
export function deliver(record: TaskRecord, responses: Readonly<Record<string, Record<string, unknown>>>): TaskRecord | undefined {
  const open = { ...record.inputRequests };
  const given = { ...record.inputResponses };
  let changed = false;
  for (const [key, answer] of Object.entries(responses)) {
    // SEP-2663 §Task Update Requests: keys not open now are ignored.
    if (!Object.hasOwn(open, key)) continue;
    delete open[key];
    given[key] = answer;
    changed = true;
  }
  if (!changed) return undefined;
  const { inputRequests: _open, ...rest } = record;
  const still = Object.keys(open).length > 0;
  return { ...rest, ...(still ? { inputRequests: open } : {}), inputResponses: given, status: still ? 'input_required' : 'working', updatedAt: Date.now() };
}
