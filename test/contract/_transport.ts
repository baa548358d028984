/**
 * What the contract suite needs from a transport. A case speaks JSON-RPC
 * through a `ContractPeer` and asserts only on the messages; each transport's
 * adapter (`_stdio.ts`, `_http.ts`) carries them, and asserts what that
 * transport adds: HTTP statuses, media types and headers (`Mcp-Session-Id`,
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), none of which stdio has.
 * A new transport gets an adapter here and a `<name>.test.ts` calling
 * `contractSuite` with it.
 */
import type { Server } from '../../src/index.js';
import type { Message } from '../_wire.js';

export type { Message } from '../_wire.js';

/** A transport under test: serves `server` and connects one client to it. */
export interface ContractTransport {
  readonly name: string;
  connect(server: Server): Promise<ContractPeer>;
}

/** One client of a served server, as a transport carries its messages. */
export interface ContractPeer {
  /**
   * Sends a request and resolves with its response. A request carrying the
   * 2026-07-28 `_meta` is sent as that revision's; any other belongs to the
   * session `initialize` opened.
   */
  request(message: Message): Promise<Message>;
  /** Sends a notification; resolves once the transport has taken it. */
  notify(message: Message): Promise<void>;
  /** Sends text that is not a valid request (bad JSON, a batch...) and resolves with the error answering it. */
  sendText(text: string): Promise<Message>;
  /** Sends a request that the case will cancel before it is answered. */
  start(message: Message): Pending;
  /** Sends a request answered with a stream of messages (2026-07-28 `subscriptions/listen`). */
  stream(message: Message): Promise<MessageStream>;
  /** What the server sends unprompted in the session (2025-06-18 and 2025-11-25 notifications). */
  unprompted(): Promise<MessageStream>;
  /** Ends the connection and stops the server. */
  close(): Promise<void>;
}

/** A request under way. */
export interface Pending {
  /**
   * Cancels it the way this transport does for its revision: `notification`
   * (a `notifications/cancelled` naming it) where the client sends one, or
   * by closing the response stream where that is the cancellation
   * (2026-07-28 Streamable HTTP).
   */
  cancel(notification: Message): Promise<void>;
  /**
   * What reached the client for the request, undefined for nothing. Called
   * after a later request's round trip, by which time anything sent for the
   * cancelled request would have arrived.
   */
  outcome(): Promise<Message | undefined>;
}

/** Messages arriving on one stream. */
export interface MessageStream {
  /** Resolves with the first message on the stream (already there or still to come) that passes `test`; bounded by a hang guard. */
  waitFor(test: (m: Message) => boolean): Promise<Message>;
  close(): Promise<void>;
}

/** The `_meta` key that ties a listen stream's notifications to its request (2026-07-28 subscriptions). */
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The protocol version a request's 2026-07-28 envelope names, if it has one. */
export function envelopeVersion(message: Message): string | undefined {
  const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  return typeof version === 'string' ? version : undefined;
}
