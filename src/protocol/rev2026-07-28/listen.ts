/**
 * `subscriptions/listen` (2026-07-28 basic/patterns/subscriptions): a request
 * that stays open and carries change notifications. The server first sends
 * `notifications/subscriptions/acknowledged` with the subset of the filter it
 * honours, then only the notification types asked for, each tagged with the
 * listen request's id. The request ends when the client cancels it (no
 * response) or the server shuts down (a normal result, sent by the caller).
 */
import type { EngineEvent, Features } from '../../core/engine.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';
import type { JsonRpcNotification, RequestId } from '../../jsonrpc/messages.js';
import { checkSubscriptionUri, type MethodContext, type MethodHandler, type SubscriptionLimits } from '../revision.js';
import { META_KEYS } from './meta.js';

/** The honoured part of a client's subscription filter. */
export interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

function decodeFilter(value: unknown): { tools: boolean; prompts: boolean; resources: boolean; uris: string[] | undefined } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParamsError('"notifications" must be an object', { field: 'notifications' });
  }
  const filter = value as Record<string, unknown>;
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']) {
    if (filter[key] !== undefined && typeof filter[key] !== 'boolean') {
      throw new InvalidParamsError(`"notifications.${key}" must be a boolean`, { field: `notifications.${key}` });
    }
  }
  const uris = filter.resourceSubscriptions;
  if (uris !== undefined && (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string'))) {
    throw new InvalidParamsError('"notifications.resourceSubscriptions" must be an array of strings', {
      field: 'notifications.resourceSubscriptions',
    });
  }
  return {
    tools: filter.toolsListChanged === true,
    prompts: filter.promptsListChanged === true,
    resources: filter.resourcesListChanged === true,
    uris: uris as string[] | undefined,
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
  return stream(honouredFilter(params.notifications, ctx.engine.features, ctx.server.subscriptions), ctx);
};

async function stream(filter: SubscriptionFilter, ctx: MethodContext): Promise<Record<string, unknown>> {
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
  }
  // SubscriptionsListenResult: sent only when the server ends the stream.
  return { _meta: { [META_KEYS.subscriptionId]: ctx.id } };
}
