/**
 * What a session revision sends that no request of the client asked for as
 * such: the notifications for a request's own log messages and progress, the
 * server's questions to the client (a form cut to 2025-06-18's fields:
 * elicitation.ts), and change notifications.
 */
import type { EngineEvent } from '../../core/engine.js';
import type { InputRequest } from '../../core/input.js';
import type { JsonRpcNotification } from '../../jsonrpc/messages.js';
import type { RequestEvent, Wire } from '../revision.js';
import { formFor2025_06_18 } from './elicitation.js';

/**
 * The notification for something a handler reports about its request: a log
 * message (server/utilities/logging) or progress (basic/utilities/progress).
 * The same in every revision served.
 */
export function requestEvent(event: RequestEvent): JsonRpcNotification {
  if (event.type === 'log') {
    const params: Wire = { level: event.level };
    if (event.logger !== undefined) params.logger = event.logger;
    params.data = event.data;
    return { jsonrpc: '2.0', method: 'notifications/message', params };
  }
  const params: Wire = { progressToken: event.progressToken, progress: event.progress };
  if (event.total !== undefined) params.total = event.total;
  if (event.message !== undefined) params.message = event.message;
  return { jsonrpc: '2.0', method: 'notifications/progress', params };
}

/**
 * A question for the client as a request of the server's own (2025-06-18
 * client/elicitation, client/sampling, client/roots). 2025-06-18's
 * elicitation has no `mode` (form is all there is; 2025-11-25 adds it) and
 * fewer kinds of field (elicitation.ts), both told by `modes`.
 */
export function inputRequestWith(modes: boolean): (request: InputRequest) => { method: string; params: Record<string, unknown> } {
  return (request) => {
    const params: Record<string, unknown> = { ...(request.params ?? {}) };
    if (request.method === 'elicitation/create' && !modes) {
      delete params.mode;
      params.requestedSchema = formFor2025_06_18(params.requestedSchema);
    }
    return { method: request.method, params };
  };
}

/**
 * The notification a legacy session gets for an engine event. Resource
 * updates are filtered per session by the caller, which knows the
 * subscriptions.
 */
export function legacyEvent(event: EngineEvent): JsonRpcNotification {
  switch (event.type) {
    case 'promptsListChanged':
      return { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' };
    case 'toolsListChanged':
      return { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    case 'resourcesListChanged':
      return { jsonrpc: '2.0', method: 'notifications/resources/list_changed' };
    case 'resourceUpdated':
      return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri } };
  }
}
