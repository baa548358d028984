/**
 * Reading a POST body under a size cap, and the id of what it held.
 */
import type { Classified, JsonRpcRequest } from '../../jsonrpc/messages.js';

/** Reads the body up to `max` bytes; undefined when it is larger. */
export async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The JSON-RPC id of a message, null when it has none or it could not be read. */
export function requestId(classified: Classified): JsonRpcRequest['id'] | null {
  return classified.kind === 'request' ? classified.message.id : classified.kind === 'notification' ? null : classified.id;
}
