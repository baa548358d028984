export { ErrorCode, InvalidParamsError, isProtocolError, MethodNotFoundError, ProtocolError } from './errors.js';
export type { ErrorCodeValue } from './errors.js';
export { classify, errorResponse, nestingDepthExceeds, parseErrorResponse, parseJson, parseMessage, resultResponse } from './messages.js';
export type {
  Classified,
  JsonRpcError,
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcOutgoing,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResult,
  RequestId,
} from './messages.js';
