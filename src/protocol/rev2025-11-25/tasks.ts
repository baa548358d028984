/**
 * Tasks as 2025-11-25 defines them (basic/utilities/tasks, experimental): a
 * tools/call with a `task` param answers `CreateTaskResult { task }`, and
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` read and end
 * it. What 2026-07-28's Tasks extension shares with it (starting a tool's
 * task, a record's common fields) is here too, for it to build on.
 */
import { principalId } from '../../core/context.js';
import type { InputRequest } from '../../core/input.js';
import type { CallToolResult } from '../../core/model.js';
import { isTerminal, type TaskRecord } from '../../core/tasks.js';
import { ErrorCode, InvalidParamsError, MethodNotFoundError, ProtocolError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/messages.js';
import { encodeToolResult } from '../rev2025-06-18/encode.js';
import { optionalObject, optionalString, refusal, requireString, type Shape } from '../rev2025-06-18/index.js';
import type { MethodContext, MethodHandler, Revision, Wire } from '../revision.js';

/** How a revision words a task, and what a tool error makes of one. */
export interface TaskWording {
  /** The names of the lifetime and polling fields (`ttl`, `pollInterval`; SEP-2663: `ttlMs`, `pollIntervalMs`). */
  readonly ttl: string;
  readonly pollInterval: string;
  /** 2025-11-25 §Task Execution Errors: a result with `isError` fails the task (`tasks/result` still gives it); SEP-2663: it completes it. */
  readonly toolErrorsFail: boolean;
  /** Whether the running task may ask the client (SEP-2663 `tasks/update`). */
  readonly carriesInput: boolean;
}

/** A task's own fields, as `wording` names them (the schema's `Task`). */
export function encodeTask(record: TaskRecord, wording: TaskWording): Wire {
  const wire: Wire = { taskId: record.id, status: record.status };
  if (record.message !== undefined) wire.statusMessage = record.message;
  wire.createdAt = new Date(record.createdAt).toISOString();
  wire.lastUpdatedAt = new Date(record.updatedAt).toISOString();
  wire[wording.ttl] = record.ttlMs;
  wire[wording.pollInterval] = record.pollIntervalMs;
  return wire;
}

/**
 * Starts tools/call `params` as a task: the arguments checked and the tool's
 * `prepare` run in this request (where it may still ask the client), then
 * the record written and the work started apart from the request.
 */
export async function startToolTask(params: Record<string, unknown>, ctx: MethodContext, wording: TaskWording, revision: () => Revision): Promise<TaskRecord> {
  const name = requireString(params, 'name');
  const args = optionalObject(params, 'arguments') ?? {};
  const { engine, logger, principal } = ctx;
  const prepared = await engine.prepareTool(name, args, ctx);
  return ctx.tasks.start({
    owner: principalId(principal),
    principal,
    capabilities: ctx.client?.capabilities ?? {},
    carriesInput: wording.carriesInput,
    run: (taskCtx) => runTool(() => engine.callTool(name, args, taskCtx, prepared)),
    failed: wording.toolErrorsFail ? (result) => result.isError === true : undefined,
    encodeError: (error) => revision().encodeError(error, logger),
  });
}

/** The tool's result; arguments the tool itself refused are an `isError` result, as a call of 2025-11-25 on answers them. */
async function runTool(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    const refused = refusal(error);
    if (refused) return refused;
    throw error;
  }
}

/** The caller's task named by `params`, or -32602 as for an unknown one (§Error Handling). */
export async function findTask(params: Record<string, unknown>, ctx: MethodContext): Promise<TaskRecord> {
  const id = requireString(params, 'taskId');
  const record = await ctx.tasks.get(id, principalId(ctx.principal));
  if (!record) throw new InvalidParamsError('Task not found', { taskId: id });
  return record;
}

const WORDING: TaskWording = { ttl: 'ttl', pollInterval: 'pollInterval', toolErrorsFail: true, carriesInput: true };

const REQUESTS = Object.freeze({ tools: Object.freeze({ call: {} }) });

/**
 * The `tasks` capability. §Security Considerations: a server that cannot tell
 * callers apart SHOULD NOT declare `list` (it would show any caller every
 * task), so it is declared only to an identified caller (MethodContext
 * `identified`); the others reach their tasks by id alone, a random UUID.
 */
const TASKS_CAPABILITY = Object.freeze({ list: {}, cancel: {}, requests: REQUESTS });
const UNLISTED_CAPABILITY = Object.freeze({ cancel: {}, requests: REQUESTS });

/** `io.modelcontextprotocol/related-task` (§Associating Task-Related Messages). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * §Input Required Status: the questions of a task in `input_required` go to
 * the client as requests of the server's own on the stream of its
 * `tasks/result` call (which a client makes on seeing that status), each
 * naming the task in `_meta`; each answer goes back into the task.
 */
function relay(id: string, owner: string | undefined, ctx: MethodContext): (record: TaskRecord) => void {
  const asked = new Set<string>();
  return (record) => {
    for (const [key, request] of Object.entries(record.inputRequests ?? {})) {
      if (asked.has(key) || !ctx.inputs) continue;
      asked.add(key);
      const related = { ...request, params: { ...request.params, _meta: { [RELATED_TASK]: { taskId: id } } } } as InputRequest;
      ctx.inputs
        .ask(key, related)
        .then((answer) => ctx.tasks.respond(id, owner, { [key]: answer }))
        .catch((error: unknown) => ctx.logger.debug(`Task ${id}'s question "${key}" got no answer`, error));
    }
  };
}

/**
 * The 2025-11-25 task methods and the task-aware tools/call, over `handlers`
 * (the shared registry). Served only when some tool may run as a task
 * (otherwise -32601, as for any feature the server lacks).
 */
export function addTasks(handlers: Map<string, MethodHandler>, shape: Shape, revision: () => Revision): void {
  const initialize = handlers.get('initialize') as MethodHandler;
  handlers.set('initialize', async (params, ctx) => {
    const result = await initialize(params, ctx);
    // §Capabilities: tools/call may be a task, tasks can be listed (bound to their caller) and cancelled.
    if (ctx.engine.features.tasks) result.capabilities = { ...(result.capabilities as Wire), tasks: ctx.identified ? TASKS_CAPABILITY : UNLISTED_CAPABILITY };
    return result;
  });
  const call = handlers.get('tools/call') as MethodHandler;
  handlers.set('tools/call', async (params, ctx) => {
    // §Capabilities: a receiver without the capability ignores `task`.
    if (!ctx.engine.features.tasks) return call(params, ctx);
    const support = await ctx.engine.taskSupport(requireString(params, 'name'));
    const task = params.task;
    if (task === undefined) {
      // §Tool-Level Negotiation: a tool that requires a task, called without one, is -32601.
      if (support === 'required') throw new ProtocolError(ErrorCode.MethodNotFound, `Tool "${params.name}" must be called as a task`, { method: 'tools/call' });
      return call(params, ctx);
    }
    if (!isPlainObject(task)) throw new InvalidParamsError('"task" must be an object', { field: 'task' });
    // An unknown tool stays -32602 (server/tools §Error Handling).
    if (support === undefined) return call(params, ctx);
    // §Tool-Level Negotiation: SHOULD be -32601 for a tool that does not support tasks.
    if (support === 'forbidden') throw new ProtocolError(ErrorCode.MethodNotFound, `Tool "${params.name}" cannot run as a task`, { method: 'tools/call' });
    return { task: encodeTask(await startToolTask(params, ctx, WORDING, revision), WORDING) };
  });
  const served = (ctx: MethodContext): void => {
    if (!ctx.engine.features.tasks) throw new MethodNotFoundError('tasks');
  };
  handlers.set('tasks/get', async (params, ctx) => {
    served(ctx);
    return encodeTask(await findTask(params, ctx), WORDING);
  });
  handlers.set('tasks/list', async (params, ctx) => {
    served(ctx);
    // Not declared to a caller that cannot be told apart from others: -32601, as for any method not served.
    if (!ctx.identified) throw new MethodNotFoundError('tasks/list');
    // One page: a caller keeps at most `maxTasksPerOwner` tasks. A cursor is one this server never gave: -32602 (§Error Handling).
    if (optionalString(params, 'cursor') !== undefined) throw new InvalidParamsError('Unknown cursor', { field: 'cursor' });
    const records = await ctx.tasks.list(principalId(ctx.principal));
    return { tasks: records.map((record) => encodeTask(record, WORDING)) };
  });
  handlers.set('tasks/cancel', async (params, ctx) => {
    served(ctx);
    const before = await findTask(params, ctx);
    // §Task Cancellation: a terminal task cannot be cancelled: -32602.
    if (isTerminal(before.status)) throw new InvalidParamsError(`Task is already ${before.status}`, { taskId: before.id });
    const after = await ctx.tasks.cancel(before.id, principalId(ctx.principal));
    return encodeTask(after ?? before, WORDING);
  });
  handlers.set('tasks/result', async (params, ctx) => {
    served(ctx);
    const found = await findTask(params, ctx);
    const owner = principalId(ctx.principal);
    // §Result Retrieval: blocks until the task is terminal, then answers what the call would have.
    const record = await ctx.tasks.settled(found.id, owner, ctx.signal, relay(found.id, owner, ctx));
    // Gone while the request waited (its TTL ran out): as unknown as any task the server no longer has.
    if (!record) throw new InvalidParamsError('Task not found', { taskId: found.id });
    const meta = { [RELATED_TASK]: { taskId: record.id } };
    if (record.result) return { ...encodeToolResult(record.result, shape), _meta: { ...record.result._meta, ...meta } };
    if (record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data);
    throw new ProtocolError(ErrorCode.InternalError, `The task was ${record.status}`);
  });
}
