/**
 * Error encoding for the legacy revisions. Client mistakes keep their code;
 * a missing resource is -32002 with `data.uri` (2025-06-18 and 2025-11-25
 * server/resources §Error Handling); a tool's invalid arguments are -32602;
 * anything else becomes a generic -32603
 * whose details go to the logger, never to the client.
 */
import type { Logger } from '../../core/context.js';
import { isResourceNotFoundError, isToolArgumentsError } from '../../core/errors.js';
import { isMissingClientCapabilityError } from '../../core/input.js';
import { ErrorCode, isProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcErrorObject } from '../../jsonrpc/messages.js';

/** Encodes a thrown value with the given code for a missing resource. */
export function encodeErrorWith(resourceNotFoundCode: number) {
  return (error: unknown, logger: Logger): JsonRpcErrorObject => {
    if (isProtocolError(error)) {
      const wire: JsonRpcErrorObject = { code: error.code, message: error.message };
      if (error.data !== undefined) wire.data = error.data;
      return wire;
    }
    // 2025-06-18 server/tools §Error Handling lists invalid arguments among protocol errors;
    // later revisions answer them with a tool result before they get here.
    if (isToolArgumentsError(error)) {
      return { code: ErrorCode.InvalidParams, message: error.message, data: { name: error.tool, issues: error.issues } };
    }
    // 2025 revisions define no code for it (2026-07-28's -32021): the request asks what this client cannot give.
    if (isMissingClientCapabilityError(error)) {
      return { code: ErrorCode.InvalidRequest, message: error.message, data: { requiredCapabilities: Object.fromEntries(error.required.map((c) => [c, {}])) } };
    }
    if (isResourceNotFoundError(error)) {
      return { code: resourceNotFoundCode, message: error.message, data: { uri: error.uri } };
    }
    logger.error('A request failed inside the server', error);
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  };
}

/** The 2025-06-18 encoder: -32002 for a missing resource. */
export const encodeError = encodeErrorWith(ErrorCode.ResourceNotFound);
