/**
 * Makes an official client offer an older revision: SDK v1 (and v2 on 2025
 * revisions) always offers its newest in `initialize`, so the offer is
 * rewritten on its way out, on any of their transports.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export function offering(transport: object, version: string): void {
  const target = transport as { send(message: JSONRPCMessage, options?: unknown): Promise<void> };
  const send = target.send.bind(target);
  target.send = (message, options) =>
    send(
      'method' in message && message.method === 'initialize'
        ? ({ ...message, params: { ...message.params, protocolVersion: version } } as JSONRPCMessage)
        : message,
      options,
    );
}
