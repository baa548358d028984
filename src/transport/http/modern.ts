/**
 * The checks a 2026-07-28 POST passes before the server sees it
 * (basic/transports/streamable-http §Standard Request Headers, §Server
 * Validation, §Status Codes), in the order the official conformance
 * fixture applies them:
 *
 * 1. `MCP-Protocol-Version` missing: 400, -32020 (HeaderMismatch).
 * 2. `_meta` missing a required field: 400, -32602.
 * 3. `MCP-Protocol-Version` differs from `_meta`: 400, -32020.
 * 4. version not served: 400, -32022 with `data.supported` and `data.requested`.
 * 5. `Mcp-Method` missing or different from `method`: 400, -32020.
 * 6. `Mcp-Name` missing or different from `params.name` (prompts/get,
 *    tools/call) or `params.uri` (resources/read): 400, -32020.
 *
 * What follows (unknown or removed methods: 404 with -32601) is decided by
 * the status of the server's response; see {@link modernStatus}.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { errorResponse, type JsonRpcError, type JsonRpcRequest, type JsonRpcResponse } from '../../jsonrpc/messages.js';
import { MODERN_VERSIONS, readRequestMeta } from '../../protocol/index.js';
import { HEADER, readMetadataHeader } from './headers.js';
import type { HeaderReader } from './request.js';

/** Where `Mcp-Name` comes from, per method. */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'prompts/get': 'name',
  'tools/call': 'name',
  'resources/read': 'uri',
};

/** A request the transport refuses, with its status. */
export interface ModernRejection {
  status: number;
  body: JsonRpcError;
}

function mismatch(request: JsonRpcRequest, message: string): ModernRejection {
  return { status: 400, body: errorResponse(request.id, ErrorCode.HeaderMismatch, message) };
}

/** Runs the checks above; undefined when the request may go to the server. */
export function checkModernRequest(headers: HeaderReader, request: JsonRpcRequest): ModernRejection | undefined {
  const version = readMetadataHeader(headers, HEADER.protocolVersion);
  if (version.kind === 'absent') return mismatch(request, `Header mismatch: missing ${HEADER.protocolVersion} header`);
  if (version.kind === 'invalid') return mismatch(request, `Header mismatch: ${version.reason}`);

  const meta = readRequestMeta(request.params);
  if (meta.kind !== 'modern') {
    const message =
      meta.kind === 'invalid' ? meta.message : 'Invalid params: missing _meta with the per-request protocol version and client capabilities';
    return { status: 400, body: errorResponse(request.id, ErrorCode.InvalidParams, message) };
  }
  if (version.value !== meta.version) {
    return mismatch(request, `Header mismatch: ${HEADER.protocolVersion} "${version.value}" differs from _meta protocol version "${meta.version}"`);
  }
  if (!MODERN_VERSIONS.includes(meta.version)) {
    return {
      status: 400,
      body: errorResponse(request.id, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${meta.version}`, {
        supported: [...MODERN_VERSIONS],
        requested: meta.version,
      }),
    };
  }

  const method = readMetadataHeader(headers, HEADER.method);
  if (method.kind === 'absent') return mismatch(request, `Header mismatch: missing ${HEADER.method} header`);
  if (method.kind === 'invalid') return mismatch(request, `Header mismatch: ${method.reason}`);
  if (method.value !== request.method) {
    return mismatch(request, `Header mismatch: ${HEADER.method} "${method.value}" differs from method "${request.method}"`);
  }

  const field = NAME_SOURCE[request.method];
  const bodyName = field === undefined ? undefined : request.params?.[field];
  // A body without the field is the server's to reject (-32602); there is nothing to mirror.
  if (typeof bodyName === 'string') {
    const name = readMetadataHeader(headers, HEADER.name);
    if (name.kind === 'absent') return mismatch(request, `Header mismatch: missing ${HEADER.name} header`);
    if (name.kind === 'invalid') return mismatch(request, `Header mismatch: ${name.reason}`);
    if (name.value !== bodyName) return mismatch(request, `Header mismatch: ${HEADER.name} differs from params.${field}`);
  }
  return undefined;
}

/**
 * The status of a 2026-07-28 answer sent as one JSON body: 404 for -32601
 * (the JSON-RPC body is what tells it from a plain 404), 400 for the header,
 * capability, version and request-shape errors, 200 otherwise (the spec names
 * no status for other errors; the conformance fixture uses 200).
 */
export function modernStatus(response: JsonRpcResponse): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
    case ErrorCode.InvalidRequest:
    case ErrorCode.ParseError:
      return 400;
    default:
      return 200;
  }
}
