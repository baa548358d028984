/**
 * The contract adapter for stdio: the library's `serveStdio` in this process,
 * over in-memory streams (`RawStdioClient.inProcess`). stdio has no headers
 * and no statuses: what it adds to the JSON-RPC is only the framing, one
 * message per line, which the client checks on every line (anything else
 * lands in `garbage` and fails the next wait). Cancellation is the
 * `notifications/cancelled` line on every revision; a listen stream and a
 * session's notifications share stdout with everything else.
 */
import { expect } from 'vitest';
import { RawStdioClient } from '../_stdio-client.js';
import { type ContractPeer, type ContractTransport, type Message, type MessageStream, SUBSCRIPTION_ID } from './_transport.js';

/** A stream of the client's messages that pass `belongs`. */
function streamOf(client: RawStdioClient, belongs: (m: Message) => boolean, close: () => Promise<void> = async () => {}): MessageStream {
  return {
    waitFor: (test) => client.waitFor((m) => belongs(m) && test(m)),
    close,
  };
}

/** Whether `m` answers the request `id`. */
function answers(m: Message, id: unknown): boolean {
  return m.id === id && ('result' in m || 'error' in m);
}

export const stdioTransport: ContractTransport = {
  name: 'stdio (serveStdio in-process)',
  async connect(server) {
    const client = RawStdioClient.inProcess(server);
    const peer: ContractPeer = {
      request(message) {
        client.send(message);
        return client.waitFor((m) => answers(m, message.id));
      },
      async notify(message) {
        client.send(message);
      },
      sendText(text) {
        const before = client.received.length;
        client.write(text);
        // Errors to unreadable lines may carry id null: the first error after the write is the answer.
        return client.waitFor((m) => client.received.indexOf(m) >= before && 'error' in m && !('method' in m));
      },
      start(message) {
        client.send(message);
        return {
          async cancel(notification) {
            client.send(notification);
          },
          async outcome() {
            return client.received.find((m) => answers(m, message.id));
          },
        };
      },
      async stream(message) {
        client.send(message);
        return streamOf(client, (m) => answers(m, message.id) || (m.id === undefined && m.params?._meta?.[SUBSCRIPTION_ID] === message.id));
      },
      async unprompted() {
        // Notifications outside any request: no id, no subscription.
        return streamOf(client, (m) => m.id === undefined && 'method' in m && m.params?._meta?.[SUBSCRIPTION_ID] === undefined);
      },
      async close() {
        expect((await client.close()).code).toBe(0);
        expect(client.garbage, 'lines that are not JSON-RPC messages').toEqual([]);
        server.close();
      },
    };
    return peer;
  },
};
