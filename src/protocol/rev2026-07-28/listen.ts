/**
 * `subscriptions/listen` (2026-07-28 basic/patterns/subscriptions): a request
 * that stays open and carries change notifications. The server first sends
 * `notifications/subscriptions/acknowledged` with the subset of the filter it
 * honours, then only the notification types asked for, each tagged with the
 * listen request's id. The request ends when the client cancels it (no
 * response) or the server shuts down (a normal result, sent by the caller).
 */
import { principalId } from '../../core/context.js';
import type { EngineEvent, Features } from '../../core/engine.js';
import { MissingClientCapabilityError } from '../../core/input.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';
import type { JsonRpcNotification, RequestId } from '../../jsonrpc/messages.js';
import { checkSubscriptionUri, type MethodContext, type MethodHandler, type SubscriptionLimits } from '../revision.js';
import { META_KEYS } from './meta.js';
import { declared, detailed, NEEDED, TASKS_EXTENSION } from './tasks.js';

/** The honoured part of a client's subscription filter. */
export interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  /** The Tasks extension's (SEP-2663 §Task Status Notifications): the caller's tasks it hears of. */
  taskIds?: string[];
}

/** `value` as an array of strings, or -32602 naming `field`. */
function strings(value: unknown, field: string): string[] | undefined {
  if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))) {
    throw new InvalidParamsError(`"${field}" must be an array of strings`, { field });
  }
  return value as string[] | undefined;
}

function decodeFilter(value: unknown): { tools: boolean; prompts: boolean; resources: boolean; uris: string[] | undefined; taskIds: string[] | undefined } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParamsError('"notifications" must be an object', { field: 'notifications' });
  }
  const filter = value as Record<string, unknown>;
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']) {
    if (filter[key] !== undefined && typeof filter[key] !== 'boolean') {
      throw new InvalidParamsError(`"notifications.${key}" must be a boolean`, { field: `notifications.${key}` });
    }
  }
  return {
    tools: filter.toolsListChanged === true,
    prompts: filter.promptsListChanged === true,
    resources: filter.resourcesListChanged === true,
    uris: strings(filter.resourceSubscriptions, 'notifications.resourceSubscriptions'),
    taskIds: strings(filter.taskIds, 'notifications.taskIds'),
  };
}

/**
 * The subset the server honours: a type is dropped when the server cannot
 * produce it (schema, SubscriptionsAcknowledgedNotificationParams). The URIs
 * it keeps live as long as the listen request, so they are held to the same
 * caps as a legacy session's subscriptions: more, or a longer one, is -32602.
 */
export function honouredFilter(requested: unknown, features: Features, limits: SubscriptionLimits): SubscriptionFilter {
  const wanted = decodeFilter(requested);
  const honoured: SubscriptionFilter = {};
  if (wanted.tools && features.tools?.listChanged) honoured.toolsListChanged = true;
  if (wanted.prompts && features.prompts?.listChanged) honoured.promptsListChanged = true;
  if (wanted.resources && features.resources?.listChanged) honoured.resourcesListChanged = true;
  if (wanted.uris && features.resources?.subscribe) {
    const uris = [...new Set(wanted.uris)];
    const field = 'notifications.resourceSubscriptions';
    if (uris.length > limits.max) throw new InvalidParamsError(`A listen request may subscribe to at most ${limits.max} URIs`, { field, max: limits.max });
    for (const uri of uris) checkSubscriptionUri(uri, limits, field);
    honoured.resourceSubscriptions = uris;
  }
  if (wanted.taskIds && features.tasks) {
    const ids = [...new Set(wanted.taskIds)];
    const field = 'notifications.taskIds';
    // Held as long as the listen request, like the URIs: the same cap.
    if (ids.length > limits.max) throw new InvalidParamsError(`A listen request may follow at most ${limits.max} tasks`, { field, max: limits.max });
    honoured.taskIds = ids;
  }
  return honoured;
}

/** True when an update of `uri` concerns a subscription to `subscribed` (itself or a sub-resource). */
export function coversUri(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`);
}

/** The notification for an event on a subscription with this filter, if it asked for it. */
export function subscriptionEvent(event: EngineEvent, filter: SubscriptionFilter, id: RequestId): JsonRpcNotification | undefined {
  const _meta = { [META_KEYS.subscriptionId]: id };
  switch (event.type) {
    case 'toolsListChanged':
      return filter.toolsListChanged ? { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta } } : undefined;
    case 'promptsListChanged':
      return filter.promptsListChanged ? { jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: { _meta } } : undefined;
    case 'resourcesListChanged':
      return filter.resourcesListChanged ? { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta } } : undefined;
    case 'resourceUpdated':
      return filter.resourceSubscriptions?.some((s) => coversUri(s, event.uri))
        ? { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri, _meta } }
        : undefined;
  }
}

/** Resolves once either signal aborts, leaving no listener behind on the other. */
function untilAborted(a: AbortSignal, b: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (a.aborted || b.aborted) return resolve();
    const done = (): void => {
      a.removeEventListener('abort', done);
      b.removeEventListener('abort', done);
      resolve();
    };
    a.addEventListener('abort', done);
    b.addEventListener('abort', done);
  });
}

/**
 * The listen handler: acknowledges, forwards matching events, and returns when
 * the request is aborted. It returns the wait rather than awaiting it: V8 keeps
 * an async function's parameters while it waits, and an open listen request
 * must not keep its params (up to the message cap) for as long as it stays open.
 */
export const listen: MethodHandler = async (params, ctx) => {
  if (params.notifications === undefined) {
    throw new InvalidParamsError('"notifications" is required', { field: 'notifications' });
  }
  const filter = honouredFilter(params.notifications, ctx.engine.features, ctx.server.subscriptions);
  // SEP-2663 §Task Status Notifications: asking for tasks without the extension is -32021.
  if (filter.taskIds && !declared(ctx)) throw new MissingClientCapabilityError([TASKS_EXTENSION], NEEDED);
  return stream(filter, ctx);
};

/** The filter with only the caller's known tasks: those it is told of (SEP-2663: the ids the server agreed to). */
async function ownTasks(filter: SubscriptionFilter, ctx: MethodContext): Promise<SubscriptionFilter> {
  if (!filter.taskIds) return filter;
  const owner = principalId(ctx.principal);
  const known = await Promise.all(filter.taskIds.map(async (id) => ((await ctx.tasks.get(id, owner)) ? id : undefined)));
  return { ...filter, taskIds: known.filter((id): id is string => id !== undefined) };
}

/** Tells the listener of each new state of the filter's tasks; the function that stops it. */
function followTasks(filter: SubscriptionFilter, ctx: MethodContext): () => void {
  if (!filter.taskIds?.length) return () => {};
  const _meta = { [META_KEYS.subscriptionId]: ctx.id };
  return ctx.tasks.watch(filter.taskIds, principalId(ctx.principal), (record) => {
    if (!ctx.signal.aborted) ctx.notify({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...detailed(record), _meta } });
  });
}

async function stream(requested: SubscriptionFilter, ctx: MethodContext): Promise<Record<string, unknown>> {
  const filter = await ownTasks(requested, ctx);
  const stopTasks = followTasks(filter, ctx);
  ctx.notify({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: filter, _meta: { [META_KEYS.subscriptionId]: ctx.id } },
  });
  const stop = ctx.engine.watch((event) => {
    // Updates of what the caller may not use are not its to hear of (core/audience.ts).
    if (event.type === 'resourceUpdated' && !ctx.engine.mayRead(event.uri, ctx.principal)) return;
    const notification = subscriptionEvent(event, filter, ctx.id);
    if (notification && !ctx.signal.aborted) ctx.notify(notification);
  });
  try {
    await untilAborted(ctx.signal, ctx.closing);
  } finally {
    stop();
    stopTasks();
  }
  // SubscriptionsListenResult: sent only when the server ends the stream.
  return { _meta: { [META_KEYS.subscriptionId]: ctx.id } };
}
