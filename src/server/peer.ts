/**
 * The transport's side of a connection: where the server writes what it
 * sends, and whether it may ask the client something. Its own module so
 * that the connection and the parts it is made of (in-flight.ts,
 * outgoing.ts) all depend on it, and not on each other in a circle.
 */
import type { JsonRpcOutgoing, RequestId } from '../jsonrpc/messages.js';

/** Where a connection writes what it sends unprompted (notifications). */
export interface Peer {
  /**
   * Sends a message. `relatedTo` names the request a notification belongs to
   * (its progress, its log messages): a transport with a stream per request
   * sends it there (2025-06-18 basic/transports §Sending Messages).
   */
  send(message: JsonRpcOutgoing, relatedTo?: RequestId): void;
  /**
   * Whether the server's own requests (elicitation, sampling, roots on
   * session revisions) reach the client and its responses come back through
   * `receive` or `handle`: true for stdio and HTTP sessions.
   */
  readonly carriesRequests?: boolean;
  /**
   * Called before the server asks the client something on behalf of request
   * `relatedTo`, which then waits on its client: the transport counts it
   * against that client's caps (over HTTP, its stream places: the answer
   * stays open until the client answers) and gives the place back when the
   * request's answer ends. Undefined when it may wait; otherwise why not,
   * which the request is answered with at once.
   */
  hold?(relatedTo: RequestId): string | undefined;
  /**
   * The transport underneath, as OpenTelemetry's `network.transport` names
   * it: `pipe` for stdio, `tcp` for HTTP. For observers only.
   */
  readonly network?: 'pipe' | 'tcp';
  /**
   * Whether whoever reaches the server through this peer is one caller
   * (stdio: the process that started the server), so that what belongs to
   * "the unauthenticated caller" belongs to it alone. Over HTTP anyone may
   * connect: without a principal, callers cannot be told apart.
   */
  readonly soleCaller?: boolean;
  /** The HTTP session id (`Mcp-Session-Id`) of a 2025 session's peer. For observers only. */
  readonly sessionId?: string;
}
