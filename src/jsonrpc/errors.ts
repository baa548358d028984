/**
 * JSON-RPC 2.0 error codes and the error class that carries one onto the wire.
 *
 * Codes are data: every place that answers with an error names one of these
 * constants, never a bare number. The MCP-specific codes sit here too because
 * they are plain integers on the JSON-RPC error object; which revision may use
 * which code is decided by the revision adapters in `protocol/`.
 */

/** JSON-RPC and MCP error codes, by name. */
export const ErrorCode = {
  /** Invalid JSON was received (JSON-RPC 2.0 §5.1). */
  ParseError: -32700,
  /** The JSON sent is not a valid Request object (JSON-RPC 2.0 §5.1). */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters. */
  InvalidParams: -32602,
  /** Internal JSON-RPC error. */
  InternalError: -32603,
  /** Resource not found, MCP 2025-06-18 and 2025-11-25 (server/resources §Error Handling). */
  ResourceNotFound: -32002,
  /** HTTP header does not match the body, MCP 2026-07-28 (basic/index §Error Codes). */
  HeaderMismatch: -32020,
  /** A request needs a client capability the client did not declare, MCP 2026-07-28. */
  MissingRequiredClientCapability: -32021,
  /** The per-request protocol version is not served, MCP 2026-07-28 (basic/versioning). */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the numeric codes in {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * An error meant for the peer: its code, message and data go onto the wire as
 * they are. Throw it from anywhere below the transport when the client's input
 * is at fault; anything else that is thrown becomes a generic -32603.
 */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** A -32602 error: the params of a request are wrong, and the message says how. */
export class InvalidParamsError extends ProtocolError {
  override name = 'InvalidParamsError';
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InvalidParams, message, data);
  }
}

/** A -32601 error naming the method that is not served. */
export class MethodNotFoundError extends ProtocolError {
  override name = 'MethodNotFoundError';
  constructor(method: string) {
    super(ErrorCode.MethodNotFound, `Method not found: ${method}`, { method });
  }
}

const PROTOCOL_ERROR_NAMES = new Set(['ProtocolError', 'InvalidParamsError', 'MethodNotFoundError']);

/** True for any {@link ProtocolError}, also one from another copy of this module. */
export function isProtocolError(value: unknown): value is ProtocolError {
  if (value instanceof ProtocolError) return true;
  return value instanceof Error && PROTOCOL_ERROR_NAMES.has(value.name) && typeof (value as { code?: unknown }).code === 'number';
}
