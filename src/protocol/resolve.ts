/**
 * The resolver: decides, once per message, what a message is and who answers
 * it. A transport hands it the parsed JSON and what it knows (the session the
 * message arrives in; over HTTP, the headers) and gets back either the
 * message with the revision that answers it and its scope, or the answer the
 * protocol prescribes (an error, with the HTTP status it is sent with). It
 * owns classification, the 2026-07-28 `_meta` envelope, versions and the era
 * of a message, and writes every error body those produce; connections and
 * transports act on its answer and never look at a message again.
 *
 * The era of a message (2026-07-28 basic/versioning §Backward Compatibility):
 * a message carrying the per-request `_meta` is stateless 2026-07-28; so is,
 * over HTTP, one without it that names a version header other than a session
 * revision's (it is then refused for the missing envelope). Anything else
 * belongs to a session: the one it arrives in, or the one `initialize` opens.
 */
import { ErrorCode } from '../jsonrpc/errors.js';
import {
  type Classified,
  classify,
  errorResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  resultResponse,
} from '../jsonrpc/messages.js';
import type { HeaderReader, Lane, LegacySession, RequestFacts, Revision } from './revision.js';
import {
  headerMismatch,
  LEGACY_VERSIONS,
  METADATA_HEADERS,
  MODERN_VERSIONS,
  modernRevision,
  negotiateLegacy,
  newestModernRevision,
  type RequestMeta,
  readMetadataHeader,
  readRequestMeta,
  sessionRevisionFor,
} from './revisions.js';

/** What the transport knows about a message beyond its body. */
export interface ResolveContext {
  /** The session the message arrives in, once its initialize was answered. */
  session?: LegacySession | undefined;
  /** Over Streamable HTTP: the request's headers, and whether it named a session the server does not know. */
  http?: { headers: HeaderReader; unknownSession: boolean } | undefined;
}

/**
 * How a message is scoped: `stateless`, a 2026-07-28 request answered with no
 * state kept; `session`, in the session it arrives in; `opening`, the
 * handshake request that opens one; `sessionless`, a session revision's message with no session (over
 * HTTP the transport decides: refuse it, or answer it from a session opened
 * for it alone).
 */
export type Scope = 'stateless' | 'session' | 'opening' | 'sessionless';

/**
 * The resolver's decision, with the lane a transport schedules it in
 * (protocol/revision.ts `Lane`): a request's or notification's as its
 * revision lists it; a response is `control` (a running request may wait for
 * it); an answer the resolver wrote is `work`, waiting its turn as the
 * message it answers would have (a flood of bad messages waits too).
 * `cancels`: the id of the request a cancellation withdraws.
 */
export type Resolved =
  | { kind: 'request'; scope: Scope; request: JsonRpcRequest; revision: Revision; facts: RequestFacts; lane: Lane }
  | { kind: 'notification'; scope: Exclude<Scope, 'opening'>; notification: JsonRpcNotification; lane: Lane; cancels?: RequestId }
  | { kind: 'response'; scope: 'session' | 'sessionless'; response: Extract<Classified, { kind: 'response' }>; lane: 'control' }
  | { kind: 'answer'; response: JsonRpcResponse; status: number; lane: 'work' };

/** The facts of a request that asks for nothing (shared: never mutated). */
const NO_FACTS: RequestFacts = Object.freeze({});

/** `_meta.progressToken` (basic/utilities/progress: a string or an integer), when the request has one. */
function progressFacts(params: Record<string, unknown> | undefined): RequestFacts {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null) return NO_FACTS;
  const token = (meta as Record<string, unknown>).progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)) ? { progressToken: token } : NO_FACTS;
}

/** `method`'s lane in `revision`: `work` unless the revision lists it. */
function laneOf(revision: Revision | undefined, method: string): Lane {
  return revision?.lanes.get(method) ?? 'work';
}

/**
 * A notification as resolved in `revision`. A cancellation names the request
 * it withdraws in `params.requestId` (basic/utilities/cancellation, the same
 * in every revision served); an id no request can have names none.
 */
function notification(scope: Exclude<Scope, 'opening'>, message: JsonRpcNotification, revision: Revision | undefined): Resolved {
  const lane = laneOf(revision, message.method);
  if (message.method !== 'notifications/cancelled') return { kind: 'notification', scope, notification: message, lane };
  const id = message.params?.requestId;
  if (typeof id !== 'string' && typeof id !== 'number') return { kind: 'notification', scope, notification: message, lane };
  return { kind: 'notification', scope, notification: message, lane, cancels: id };
}

const HTTP_OK = 200;
const HTTP_BAD_REQUEST = 400;
const HTTP_NOT_FOUND = 404;

function answer(response: JsonRpcResponse, status: number): Resolved {
  return { kind: 'answer', response, status, lane: 'work' };
}

/** The id an answer to `classified` echoes: a request's, a response's, null for the rest. */
function idOf(classified: Classified): RequestId | null {
  return classified.kind === 'request' ? classified.message.id : classified.kind === 'notification' ? null : classified.id;
}

/**
 * A session revision's request must not name another version in its header
 * (2025-06-18 basic/transports §Protocol Version Header: 400 Bad Request).
 * Undefined when the header is absent or names a session revision.
 */
export function sessionVersionRefused(version: string | undefined, id: RequestId | null): JsonRpcResponse | undefined {
  if (version === undefined || LEGACY_VERSIONS.includes(version)) return undefined;
  return errorResponse(id, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version header: ${version}`);
}

/** The `MCP-Protocol-Version` header, as sent, without surrounding whitespace. */
export function versionHeader(headers: HeaderReader): string | undefined {
  return headers.get(METADATA_HEADERS.protocolVersion)?.trim();
}

function noSession(id: RequestId): JsonRpcResponse {
  return errorResponse(
    id,
    ErrorCode.InvalidParams,
    'No session: send "initialize" first (protocol 2025-06-18 or 2025-11-25), or give every request ' +
      'params._meta with "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities" (2026-07-28)',
  );
}

/** Resolves one parsed message. */
export function resolve(message: unknown, context: ResolveContext = {}): Resolved {
  const classified = classify(message);
  // Batches and malformed messages (no batching since 2025-06-18, changelog item 1).
  if (classified.kind === 'invalid')
    return answer(errorResponse(classified.id, ErrorCode.InvalidRequest, `Invalid request: ${classified.reason}`), HTTP_BAD_REQUEST);
  const meta = classified.kind === 'response' ? undefined : readRequestMeta(classified.message.params);
  const { http, session } = context;
  const version = http ? versionHeader(http.headers) : undefined;
  const stateless =
    (meta !== undefined && meta.kind !== 'absent') ||
    (http !== undefined && session === undefined && !http.unknownSession && version !== undefined && !LEGACY_VERSIONS.includes(version));
  return stateless ? resolveStateless(classified, meta, http?.headers) : resolveSession(classified, context, version);
}

/** A message of a session revision. */
function resolveSession(classified: Exclude<Classified, { kind: 'invalid' }>, { session, http }: ResolveContext, version: string | undefined): Resolved {
  const id = idOf(classified);
  if (http) {
    // 2025-06-18 basic/transports §Session Management: an unknown session id is 404.
    if (http.unknownSession) return answer(errorResponse(id, ErrorCode.InvalidRequest, 'Session not found'), HTTP_NOT_FOUND);
    const refused = sessionVersionRefused(version, id);
    if (refused) return answer(refused, HTTP_BAD_REQUEST);
  }
  const scope = session ? 'session' : 'sessionless';
  if (classified.kind === 'response') return { kind: 'response', scope, response: classified, lane: 'control' };
  // Without a session, the lanes of the revision a request would be answered in (below).
  if (classified.kind === 'notification') return notification(scope, classified.message, session?.revision ?? sessionRevisionFor(version));
  const request = classified.message;
  if (request.method === 'initialize') {
    if (session) return answer(errorResponse(request.id, ErrorCode.InvalidRequest, 'The session is already initialized'), HTTP_OK);
    const revision = negotiateLegacy(request.params?.protocolVersion);
    return { kind: 'request', scope: 'opening', request, revision, facts: NO_FACTS, lane: laneOf(revision, request.method) };
  }
  if (session) {
    const { revision } = session;
    return { kind: 'request', scope: 'session', request, revision, facts: progressFacts(request.params), lane: laneOf(revision, request.method) };
  }
  if (http) {
    // Without the header 2025-06-18 basic/transports §Protocol Version Header says to
    // assume 2025-03-26: the oldest revision served is its closest match.
    const revision = sessionRevisionFor(version);
    if (revision)
      return { kind: 'request', scope: 'sessionless', request, revision, facts: progressFacts(request.params), lane: laneOf(revision, request.method) };
  }
  // A ping may come before initialize (2025-06-18 basic/lifecycle §Initialization).
  if (request.method === 'ping') return answer(resultResponse(request.id, {}), HTTP_OK);
  return answer(noSession(request.id), HTTP_OK);
}

/**
 * A 2026-07-28 message. Over HTTP the checks run in the order the official
 * conformance fixture applies them (streamable-http §Server Validation):
 * 1. `MCP-Protocol-Version` missing: 400, -32020;
 * 2. `_meta` missing a required field: 400, -32602;
 * 3. `MCP-Protocol-Version` differs from `_meta`: 400, -32020;
 * 4. version not served: 400, -32022 with `data.supported` and `data.requested`;
 * 5. the revision's own header rules (`Mcp-Method`, `Mcp-Name`).
 * Over stdio, steps 2 and 4.
 */
function resolveStateless(classified: Exclude<Classified, { kind: 'invalid' }>, meta: RequestMeta | undefined, headers: HeaderReader | undefined): Resolved {
  if (classified.kind === 'response') {
    // This server sends no requests over a 2026 exchange: there is nothing a response could answer.
    return answer(errorResponse(classified.id, ErrorCode.InvalidRequest, 'Bad Request: 2026-07-28 clients must not POST responses'), HTTP_BAD_REQUEST);
  }
  // Core 2026-07-28 defines no client notification over HTTP (closing the stream
  // cancels), and header rules for notification POSTs are left open: accept it,
  // in the lanes of the version it names, or of the newest one when it names none served.
  if (classified.kind === 'notification') {
    const revision = (meta?.kind === 'modern' ? modernRevision(meta.version) : undefined) ?? newestModernRevision();
    return notification('stateless', classified.message, revision);
  }
  const request = classified.message;
  const header = headers ? readMetadataHeader(headers, METADATA_HEADERS.protocolVersion) : undefined;
  if (header?.kind === 'absent') return refusal(headerMismatch(request, `missing ${METADATA_HEADERS.protocolVersion} header`));
  if (header?.kind === 'invalid') return refusal(headerMismatch(request, header.reason));
  if (meta?.kind !== 'modern') {
    const message = meta?.kind === 'invalid' ? meta.message : 'Invalid params: missing _meta with the per-request protocol version and client capabilities';
    return answer(errorResponse(request.id, ErrorCode.InvalidParams, message), HTTP_BAD_REQUEST);
  }
  if (header?.kind === 'value' && header.value !== meta.version) {
    return refusal(headerMismatch(request, `${METADATA_HEADERS.protocolVersion} "${header.value}" differs from _meta protocol version "${meta.version}"`));
  }
  const revision = modernRevision(meta.version);
  if (!revision) {
    const data = { supported: [...MODERN_VERSIONS], requested: meta.version };
    return answer(errorResponse(request.id, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${meta.version}`, data), HTTP_BAD_REQUEST);
  }
  const refused = headers ? revision.http?.check(headers, request) : undefined;
  if (refused) return refusal(refused);
  const facts: RequestFacts = {
    ...progressFacts(request.params),
    clientCapabilities: meta.clientCapabilities,
    ...(meta.logLevel === undefined ? {} : { logLevel: meta.logLevel }),
    ...(headers ? { headers } : {}),
  };
  return { kind: 'request', scope: 'stateless', request, revision, facts, lane: laneOf(revision, request.method) };
}

function refusal({ response, status }: { response: JsonRpcResponse; status: number }): Resolved {
  return answer(response, status);
}
