/**
 * The id of what a POST body held, for answers that must echo it.
 */
import type { Classified, JsonRpcRequest } from '../../jsonrpc/messages.js';

/** The JSON-RPC id of a message, null when it has none or it could not be read. */
export function requestId(classified: Classified): JsonRpcRequest['id'] | null {
  return classified.kind === 'request' ? classified.message.id : classified.kind === 'notification' ? null : classified.id;
}
