/**
 * The contract every revision adapter fulfils. A revision is a registry of
 * method handlers plus the encoders for what the server sends unprompted; a
 * method missing from a revision's registry is answered with -32601 there.
 * Differences between revisions live in their folders, never as version
 * checks in the core.
 */
import type { Logger, LogLevel, Principal, RequestContext } from '../core/context.js';
import type { Engine, EngineEvent } from '../core/engine.js';
import type { InputRequest } from '../core/input.js';
import type { ServerInfo } from '../core/model.js';
import type { Tasks } from '../core/tasks.js';
import type { Encoded } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import type { JsonRpcError, JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/messages.js';

/** Cache hints for cacheable results (2026-07-28 server/utilities/caching). */
export interface CachePolicy {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** What a revision needs to know about the server beyond its engine. */
export interface ServerDescription {
  info: ServerInfo;
  instructions?: string;
  cache: CachePolicy;
  /** Every protocol version the server speaks, for `server/discover`. */
  supportedVersions: readonly string[];
  /** Extension settings to declare under `capabilities.extensions`, by id. */
  extensions?: Record<string, Record<string, unknown>>;
  /**
   * Caps on what a client may subscribe to: URIs per legacy session or per
   * listen filter, and bytes per URI. A subscription lives as long as its
   * session or listen request, so without them a client pins any amount of memory.
   */
  subscriptions: SubscriptionLimits;
  /** How input-required requests seal their state (2026-07-28): the HMAC key, at least 32 bytes, and how long a state is good for. */
  requestState: { readonly secret: Uint8Array; readonly ttlMs: number };
}

/** See {@link ServerDescription.subscriptions}. */
export interface SubscriptionLimits {
  readonly max: number;
  readonly maxUriBytes: number;
}

/** A result or other object as it goes on the wire: plain JSON data. */
export type Wire = Record<string, unknown>;

/** Reads request headers by name, case-insensitively (the Fetch API's `Headers` is one). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request an HTTP binding refuses: the error response and the status it is sent with. */
export interface HttpRefusal {
  status: number;
  response: JsonRpcError;
}

/** What a revision adds to Streamable HTTP beyond its body: header checks and answer statuses. */
export interface HttpBinding {
  /** Checks a request's headers against its body; the refusal when they disagree. */
  check(headers: HeaderReader, request: JsonRpcRequest): HttpRefusal | undefined;
  /** The status of an answer sent as one JSON body. */
  statusOf(response: JsonRpcResponse): number;
}

/** State of one legacy (initialize-based) session. */
export interface LegacySession {
  /** The revision negotiated by initialize, which answers every request of the session. */
  readonly revision: Revision;
  readonly version: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, unknown> | undefined;
  initialized: boolean;
  /** Resource URIs subscribed with resources/subscribe. */
  readonly subscriptions: Set<string>;
  /** The least severe level the client wants log messages of (logging/setLevel); unset: every level. */
  logLevel?: LogLevel;
}

/**
 * What a request asks of the server besides its method and params, read by
 * the resolver once: where its progress goes, and (2026-07-28) the log level
 * it asked for.
 */
export interface RequestFacts {
  /** `_meta.progressToken` (every revision, basic/utilities/progress). */
  readonly progressToken?: string | number;
  /** 2026-07-28 `_meta["io.modelcontextprotocol/logLevel"]`; absent: no log messages for this request. */
  readonly logLevel?: LogLevel;
  /** 2026-07-28 `_meta["io.modelcontextprotocol/clientCapabilities"]`: what the client can answer. */
  readonly clientCapabilities?: Readonly<Record<string, unknown>>;
  /**
   * The request's HTTP headers, on a 2026-07-28 Streamable HTTP request: for
   * the binding's checks that need the server's own state (a tool's
   * `Mcp-Param-*` headers need its schema). Absent over stdio.
   */
  readonly headers?: HeaderReader;
  /** Who sent it, when the transport authenticated it (HTTP with OAuth): set by the transport, not the resolver. */
  readonly principal?: Principal;
  /**
   * The W3C Trace Context of the transport's request (HTTP `traceparent`
   * and `tracestate` headers), unchecked: set by the transport, and only
   * while the server has observers (server/observer.ts).
   */
  readonly traceparent?: string;
  readonly tracestate?: string;
}

/** Where a request's `ctx.input` questions go: set by the revision that carries them. */
export interface InputBroker {
  ask(key: string, request: InputRequest): Promise<Record<string, unknown>>;
}

/** Something a handler reports about its own request. */
export type RequestEvent =
  | { type: 'log'; level: LogLevel; data: unknown; logger?: string | undefined }
  | { type: 'progress'; progressToken: string | number; progress: number; total?: number | undefined; message?: string | undefined };

/** Everything a method handler may use. */
export interface MethodContext extends RequestContext {
  engine: Engine;
  /** The same object for every request of the server: what a revision derives from it is made once. */
  server: Encoded<ServerDescription>;
  id: RequestId;
  logger: Logger;
  /** The legacy session the request belongs to, if any. */
  session?: LegacySession | undefined;
  /** What the resolver read of the request besides its params. */
  readonly facts: RequestFacts;
  /** Where `ctx.input` asks; a revision that carries input sets it before running the handler. */
  inputs: InputBroker | undefined;
  /** The server's tasks (core/tasks.ts): a tools/call may start one, the tasks methods read them. */
  readonly tasks: Tasks;
  /**
   * Whether the caller is known apart from others: authenticated by the
   * transport (`principal`), or the only caller the transport has (stdio).
   * What lists a caller's own things (2025-11-25 `tasks/list`) needs it.
   */
  readonly identified: boolean;
  /** Aborted when the server shuts down: long-lived requests end gracefully on it. */
  closing: AbortSignal;
  /** Writes a notification on the connection the request came from. */
  notify(notification: JsonRpcNotification): void;
}

/**
 * Handles one method's params and returns its wire result: either an object
 * built for this request alone, which a revision's wrapper may extend in
 * place, or an {@link Encoded} one shared between requests
 * (jsonrpc/encoded.ts), which nothing mutates.
 */
export type MethodHandler = (params: Record<string, unknown>, ctx: MethodContext) => Promise<Record<string, unknown>>;

/**
 * How a transport schedules a message, decided once by the resolver:
 * `stream`, a long-lived request (2026-07-28 `subscriptions/listen`) that
 * holds next to nothing and has a cap of its own instead of a place among the
 * requests that build answers; `control`, what must never wait in a queue
 * (a cancellation, which must reach a running request or keep a waiting one
 * from starting; a response to a question of the server's, which a running
 * request waits for); `work`, everything else.
 */
export type Lane = 'stream' | 'control' | 'work';

/** One MCP revision, as the server layer sees it. */
export interface Revision {
  readonly version: string;
  readonly methods: ReadonlyMap<string, MethodHandler>;
  /**
   * The methods, of requests or notifications, whose messages are not in the
   * `work` lane; each revision lists its own (the resolver reads it).
   */
  readonly lanes: ReadonlyMap<string, Lane>;
  /** Its Streamable HTTP binding, where it adds rules of its own; otherwise every answer is 200. */
  readonly http?: HttpBinding;
  /**
   * Whether its SSE streams over Streamable HTTP resume. `ids`: events carry
   * ids and a GET with `Last-Event-ID` replays what one stream missed
   * (2025-06-18 basic/transports §Resumability and Redelivery). `polling`:
   * that, and each stream opens with a priming event (an id, empty data) and
   * `retry`, after which the server may close the connection and the client
   * polls (2025-11-25 basic/transports §Sending Messages to the Server, 6).
   * Absent: no ids, and `Last-Event-ID` is ignored (2026-07-28 has no resumption).
   */
  readonly resumption?: 'ids' | 'polling';
  /** Maps anything thrown by a handler to the error object this revision sends. */
  encodeError(error: unknown, logger: Logger): JsonRpcErrorObject;
  /** The notification a legacy session receives for an engine event, if any. */
  encodeEvent(event: EngineEvent): JsonRpcNotification | undefined;
  /** The notification for something a handler reports about its request. */
  encodeRequestEvent(event: RequestEvent): JsonRpcNotification;
  /**
   * A question for the client as this revision sends it as a request of its
   * own (session revisions); absent where questions travel otherwise
   * (2026-07-28: in an InputRequiredResult).
   */
  encodeInputRequest?(request: InputRequest): { method: string; params: Record<string, unknown> };
}

/** Whether `text` takes more than `max` bytes in UTF-8, counted without encoding it. */
function longerThan(text: string, max: number): boolean {
  // A UTF-16 code unit takes 1 to 3 bytes (a surrogate pair 4 for two units).
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= max; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit < 0xdc00) ? 2 : 3;
  }
  return bytes > max;
}

/**
 * Refuses a subscription URI longer than the server's cap with -32602. No
 * revision names an error for this; the URI is a parameter the server cannot
 * accept, which JSON-RPC 2.0 §5.1 calls invalid params.
 */
export function checkSubscriptionUri(uri: string, limits: SubscriptionLimits, field: string): void {
  if (longerThan(uri, limits.maxUriBytes)) {
    throw new InvalidParamsError(`A subscribed URI may be at most ${limits.maxUriBytes} bytes long`, { field, maxBytes: limits.maxUriBytes });
  }
}
