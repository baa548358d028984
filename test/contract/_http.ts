/**
 * The contract adapter for Streamable HTTP, over any `RawHttpClient` (the web
 * handler in-process, or node:http on 127.0.0.1). It carries each message as
 * its revision's binding says, and asserts what HTTP adds to the JSON-RPC:
 *
 * - 2025-06-18 and 2025-11-25: `initialize` answers with `Mcp-Session-Id`,
 *   which every later POST carries with `MCP-Protocol-Version`; a session's
 *   JSON-RPC errors come with 200; its unprompted messages come on the GET
 *   stream; a request is cancelled by POSTing `notifications/cancelled`, and
 *   its POST then ends with 204 and no body (basic/transports §Streamable HTTP).
 * - 2026-07-28: every POST carries `MCP-Protocol-Version`, `Mcp-Method` and
 *   (prompts/get, resources/read) `Mcp-Name`; no session id is ever minted;
 *   -32601 comes with 404, header, version and request-shape errors with
 *   400, other answers with 200; a request is cancelled by closing its
 *   response stream (basic/transports/streamable-http §Status Codes, §Cancellation).
 * - Both: a body that is not a valid request gets 400; a notification 202
 *   with no body.
 */
import { expect } from 'vitest';
import { json, type MakeHttpClient, modernHeaders, post, type RawHttpClient, SseReader } from '../_http-client.js';
import { MODERN_VERSION } from '../_wire.js';
import { type ContractPeer, type ContractTransport, envelopeVersion, type Message, type MessageStream } from './_transport.js';

/** Hang guard of a wait on a stream. */
const WAIT_MS = 15_000;

/** The status 2026-07-28 gives a JSON answer (streamable-http §Status Codes). */
function statelessStatus(answer: Message): number {
  if (!('error' in answer)) return 200;
  switch (answer.error.code) {
    case -32601:
      return 404;
    case -32700:
    case -32600:
    case -32020:
    case -32021:
    case -32022:
      return 400;
    default:
      return 200;
  }
}

function streamOf(reader: SseReader): MessageStream {
  return {
    async waitFor(test) {
      await reader.until((r) => r.events.some(test), WAIT_MS);
      return reader.events.find(test) as Message;
    },
    close: () => reader.cancel(),
  };
}

async function sse(response: Response): Promise<SseReader> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  return new SseReader(response);
}

/** A Streamable HTTP transport over the clients `make` makes. */
export function httpTransport(name: string, make: MakeHttpClient): ContractTransport {
  return {
    name,
    async connect(server) {
      const client: RawHttpClient = await make(server);
      let session: { id: string; version: string } | undefined;
      let stateless = false;
      const readers: SseReader[] = [];

      /** The headers `message` goes with: its revision's, or its session's. */
      function headersFor(message: Message): Record<string, string> {
        const version = envelopeVersion(message);
        if (version !== undefined) {
          stateless = true;
          const headers: Record<string, string> = {};
          for (const [header, value] of Object.entries(modernHeaders(message, undefined, version))) headers[header.toLowerCase()] = value;
          return headers;
        }
        return session ? { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version } : {};
      }

      /** The JSON answer to a request, with the status and headers its revision gives it. */
      async function answerOf(message: Message, response: Response): Promise<Message> {
        const answer = await json(response);
        if (envelopeVersion(message) !== undefined) {
          expect(response.status, JSON.stringify(answer)).toBe(statelessStatus(answer));
          expect(response.headers.get('mcp-session-id')).toBeNull();
          return answer;
        }
        expect(response.status, JSON.stringify(answer)).toBe(200);
        if (message.method === 'initialize' && 'result' in answer) {
          const id = response.headers.get('mcp-session-id');
          expect(id).toMatch(/^[\x21-\x7e]+$/);
          session = { id: id as string, version: answer.result.protocolVersion };
        }
        return answer;
      }

      const peer: ContractPeer = {
        async request(message) {
          return answerOf(message, await post(client, message, headersFor(message)));
        },
        async notify(message) {
          const response = await post(client, message, headersFor(message));
          expect(response.status).toBe(202);
          expect(await response.text()).toBe('');
        },
        async sendText(text) {
          const headers = session ? headersFor({}) : stateless ? { 'mcp-protocol-version': MODERN_VERSION } : {};
          const response = await post(client, text, headers);
          const answer = await json(response);
          expect(response.status, JSON.stringify(answer)).toBe(400);
          return answer;
        },
        start(message) {
          const closing = new AbortController();
          const sent = post(client, message, headersFor(message), { signal: closing.signal }).catch((error: Error) => error);
          return {
            async cancel(notification) {
              // 2026-07-28: closing the stream is the cancellation; before, a disconnect is not one.
              if (envelopeVersion(message) !== undefined) closing.abort();
              else await peer.notify(notification);
            },
            async outcome() {
              const response = await sent;
              // The client went away: nothing can reach it.
              if (response instanceof Error) return undefined;
              if (response.status === 204) {
                expect(await response.text()).toBe('');
                return undefined;
              }
              return answerOf(message, response);
            },
          };
        },
        async stream(message) {
          const reader = await sse(await post(client, message, headersFor(message)));
          readers.push(reader);
          return streamOf(reader);
        },
        async unprompted() {
          expect(session, 'a GET stream belongs to a session').toBeDefined();
          const headers = { ...headersFor({}), accept: 'text/event-stream' };
          const reader = await sse(await client.fetch(new Request(client.url, { method: 'GET', headers })));
          readers.push(reader);
          return streamOf(reader);
        },
        async close() {
          for (const reader of readers) await reader.cancel();
          await client.close();
          server.close();
        },
      };
      return peer;
    },
  };
}
