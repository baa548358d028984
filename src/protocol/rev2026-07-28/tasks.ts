/**
 * The Tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`,
 * SEP-2663). The server decides per call: a client that declares the
 * extension on its request may get a `CreateTaskResult` (`resultType: "task"`
 * and the task's fields, flat) for a tool that supports tasks; it polls with
 * `tasks/get`, which carries the result inline once terminal, answers the
 * task's questions with `tasks/update`, and cancels with `tasks/cancel`.
 * `tasks/result` and `tasks/list` are gone (-32601), and the 2025-11-25
 * `task` param is ignored.
 */
import { principalId } from '../../core/context.js';
import { isAnswerTo, MissingClientCapabilityError } from '../../core/input.js';
import type { TaskRecord } from '../../core/tasks.js';
import { InvalidParamsError, MethodNotFoundError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/messages.js';
import { encodeTask, encodeToolResult, findTask, requireString, startToolTask, type TaskWording } from '../rev2025-11-25/index.js';
import type { MethodContext, MethodHandler, Revision, Wire } from '../revision.js';
import { SHAPE } from './shape.js';

/** The extension's id, declared in `capabilities.extensions` by both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** SEP-2663 §Tasks: `ttlMs` and `pollIntervalMs`; a tool's `isError` completes its task (§Task Status). */
const WORDING: TaskWording = { ttl: 'ttlMs', pollInterval: 'pollIntervalMs', toolErrorsFail: false, carriesInput: true };

/** What a client that lacks the extension is told it needs (SEP-2663 §Capability Negotiation: -32021). */
export const NEEDED = Object.freeze({ extensions: Object.freeze({ [TASKS_EXTENSION]: Object.freeze({}) }) });

/** Whether the request declared the extension (its per-request capabilities: SEP-2575). */
export function declared(ctx: MethodContext): boolean {
  const extensions = ctx.facts.clientCapabilities?.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** The task methods: -32601 without tasks on this server, -32021 for a client that did not declare the extension. */
function taskMethod(handler: MethodHandler): MethodHandler {
  return (params, ctx) => {
    if (!ctx.engine.features.tasks) return Promise.reject(new MethodNotFoundError('tasks'));
    if (!declared(ctx)) return Promise.reject(new MissingClientCapabilityError([TASKS_EXTENSION], NEEDED));
    return handler(params, ctx);
  };
}

/** A record as `tasks/get` and `notifications/tasks` give it: a DetailedTask, with what its status carries inline. */
export function detailed(record: TaskRecord): Wire {
  const wire = encodeTask(record, WORDING);
  // SEP-2663 §Task Status: no `io.modelcontextprotocol/related-task` in an inlined result, the id is at the root.
  if (record.status === 'completed' && record.result) wire.result = encodeToolResult(record.result, SHAPE);
  if (record.status === 'failed' && record.error) wire.error = { ...record.error };
  if (record.status === 'input_required' && record.inputRequests) wire.inputRequests = record.inputRequests;
  return wire;
}

/** tools/call over `call`: a task when the tool supports one and the client declared the extension. */
export function taskCall(call: MethodHandler, revision: () => Revision): MethodHandler {
  return async (params, ctx) => {
    if (!ctx.engine.features.tasks) return call(params, ctx);
    const support = await ctx.engine.taskSupport(requireString(params, 'name'));
    if (support === undefined || support === 'forbidden') return call(params, ctx);
    if (declared(ctx)) {
      const record = await startToolTask(params, ctx, WORDING, revision);
      return { resultType: 'task', ...encodeTask(record, WORDING) };
    }
    // §Capability Negotiation: a tool that cannot answer without a task, for a client that cannot take one.
    if (support === 'required') throw new MissingClientCapabilityError([TASKS_EXTENSION], NEEDED);
    return call(params, ctx);
  };
}

/** The answers of a `tasks/update`: each an object, and each open question's answer one to its kind, or -32602. */
function readAnswers(params: Record<string, unknown>, record: TaskRecord): Record<string, Record<string, unknown>> {
  const answers = params.inputResponses;
  if (!isPlainObject(answers)) throw new InvalidParamsError('"inputResponses" must be an object', { field: 'inputResponses' });
  for (const [key, answer] of Object.entries(answers)) {
    const open = record.inputRequests?.[key];
    if (open !== undefined && !isAnswerTo(open, answer)) {
      throw new InvalidParamsError(`"inputResponses.${key}" is not an answer to ${open.method}`, { field: `inputResponses.${key}` });
    }
  }
  return answers as Record<string, Record<string, unknown>>;
}

/** The extension's methods, by name. */
export function taskMethods(): Array<[string, MethodHandler]> {
  return [
    ['tasks/get', taskMethod(async (params, ctx) => detailed(await findTask(params, ctx)))],
    [
      'tasks/update',
      taskMethod(async (params, ctx) => {
        const record = await findTask(params, ctx);
        // SEP-2663 §Task Update Requests: an empty acknowledgement; the task moves on in its own time.
        await ctx.tasks.respond(record.id, principalId(ctx.principal), readAnswers(params, record));
        return {};
      }),
    ],
    [
      'tasks/cancel',
      taskMethod(async (params, ctx) => {
        // SEP-2663 §Task Cancellation: an empty acknowledgement, for a terminal task too; an unknown one is -32602.
        const id = requireString(params, 'taskId');
        if (!(await ctx.tasks.cancel(id, principalId(ctx.principal)))) throw new InvalidParamsError('Task not found', { taskId: id });
        return {};
      }),
    ],
  ];
}
