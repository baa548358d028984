/**
 * The transport's own rejections, as data: each names its HTTP status, the
 * JSON-RPC code of the body, and the message. A rejection whose request id
 * is known carries it; one that happens before the body is read has id null.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type RequestId } from '../../jsonrpc/messages.js';
import { jsonReply } from './exchange.js';
import type { HttpReply } from './request.js';

export interface Rejection {
  status: number;
  /** Why, as the refusals metric counts it (`skillport_http_refusals_total{reason}`): one of a fixed set. */
  reason: string;
  code: number;
  message: string;
}

/** Every way the transport refuses a request before the server sees it. */
export const Rejections = {
  HostNotAllowed: { status: 403, reason: 'host', code: ErrorCode.InvalidRequest, message: 'Forbidden: Host header not allowed' },
  OriginNotAllowed: { status: 403, reason: 'origin', code: ErrorCode.InvalidRequest, message: 'Forbidden: Origin header not allowed' },
  Unauthorized: { status: 401, reason: 'auth', code: ErrorCode.InvalidRequest, message: 'Unauthorized: a valid bearer token is required' },
  NotFound: { status: 404, reason: 'not_found', code: ErrorCode.InvalidRequest, message: 'Not Found' },
  MethodNotAllowed: { status: 405, reason: 'method', code: ErrorCode.InvalidRequest, message: 'Method Not Allowed' },
  NotAcceptable: {
    status: 406,
    reason: 'not_acceptable',
    code: ErrorCode.InvalidRequest,
    message: 'Not Acceptable: the client must accept application/json and text/event-stream',
  },
  StreamNotAcceptable: {
    status: 406,
    reason: 'not_acceptable',
    code: ErrorCode.InvalidRequest,
    message: 'Not Acceptable: the client must accept text/event-stream',
  },
  // An id the server cannot resume from (resume.ts): not 404, which would end the session for the client.
  StreamNotResumable: {
    status: 400,
    reason: 'not_resumable',
    code: ErrorCode.InvalidRequest,
    message:
      'Bad Request: Last-Event-ID names no event of this session that can be resumed from (unknown, or older than the events kept); open a new stream without it',
  },
  StreamConflict: { status: 409, reason: 'stream_conflict', code: ErrorCode.InvalidRequest, message: 'Conflict: the session already has an open GET stream' },
  PayloadTooLarge: { status: 413, reason: 'body_size', code: ErrorCode.InvalidRequest, message: 'Payload Too Large' },
  UnsupportedMediaType: {
    status: 415,
    reason: 'media_type',
    code: ErrorCode.InvalidRequest,
    message: 'Unsupported Media Type: the body must be application/json',
  },
  SessionRequired: { status: 400, reason: 'session_required', code: ErrorCode.InvalidRequest, message: 'Bad Request: Mcp-Session-Id header is required' },
  SessionNotFound: { status: 404, reason: 'session_not_found', code: ErrorCode.InvalidRequest, message: 'Session not found' },
  TooManyStreams: { status: 429, reason: 'stream_cap', code: ErrorCode.InvalidRequest, message: 'Too Many Requests: too many open streams' },
  TooManySessions: { status: 503, reason: 'session_cap', code: ErrorCode.InternalError, message: 'Service Unavailable: too many open sessions' },
  ShuttingDown: { status: 503, reason: 'shutdown', code: ErrorCode.InternalError, message: 'Service Unavailable: the server is shutting down' },
  // Overload (RFC 9110 §15.6.4: 503, with Retry-After to say when to try again).
  BodiesBusy: {
    status: 503,
    reason: 'body_budget',
    code: ErrorCode.InternalError,
    message: 'Service Unavailable: too many request bytes are being received; retry shortly',
  },
  AnswersBusy: {
    status: 503,
    reason: 'answer_budget',
    code: ErrorCode.InternalError,
    message: 'Service Unavailable: too many answer bytes are waiting for their clients; retry shortly',
  },
  // Shared state (Redis) out of reach: the session may well exist, so not 404; retry shortly.
  SharedStateUnavailable: {
    status: 503,
    reason: 'shared_state',
    code: ErrorCode.InternalError,
    message: 'Service Unavailable: shared session state is out of reach; retry shortly',
  },
  Internal: { status: 500, reason: 'internal', code: ErrorCode.InternalError, message: 'Internal error' },
} as const satisfies Record<string, Rejection>;

/** Seconds a client is asked to wait after an overload 503 (`Retry-After`). */
export const RETRY_AFTER = { 'Retry-After': '1' } as const;

/** The HTTP answer for a rejection. */
export function reject(rejection: Rejection, id: RequestId | null = null, headers?: Record<string, string>, detail?: string): HttpReply {
  const message = detail ? `${rejection.message}: ${detail}` : rejection.message;
  return { ...jsonReply(errorResponse(id, rejection.code, message), rejection.status, headers), refusal: rejection.reason };
}
