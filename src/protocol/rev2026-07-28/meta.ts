/**
 * The per-request `_meta` envelope of 2026-07-28 (basic/index §_meta): every
 * request names its protocol version and the client's capabilities; the
 * client's identity is optional and the server must not require it.
 */
import { LOG_LEVELS, type LogLevel } from '../../core/context.js';
import { isPlainObject } from '../../jsonrpc/messages.js';

/** The answer for a request without the envelope, shared (frozen). */
const ABSENT: RequestMeta = Object.freeze({ kind: 'absent' });

/** Reserved `_meta` keys of 2026-07-28. */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** What a request's `_meta` says about its era. */
export type RequestMeta =
  | { kind: 'absent' }
  | { kind: 'invalid'; message: string }
  | { kind: 'modern'; version: string; clientCapabilities: Record<string, unknown>; clientInfo?: Record<string, unknown>; logLevel?: LogLevel };

/**
 * Reads the modern envelope. A request is modern-shaped when its `_meta`
 * carries any of the per-request keys; one that has some but not all
 * required keys is invalid (-32602, and 400 on HTTP).
 */
export function readRequestMeta(params: Record<string, unknown> | undefined): RequestMeta {
  const meta = params?._meta;
  if (!isPlainObject(meta)) return ABSENT;
  const version = meta[META_KEYS.protocolVersion];
  const capabilities = meta[META_KEYS.clientCapabilities];
  const info = meta[META_KEYS.clientInfo];
  if (version === undefined && capabilities === undefined && info === undefined) return ABSENT;
  if (typeof version !== 'string') {
    return { kind: 'invalid', message: `Invalid params: _meta["${META_KEYS.protocolVersion}"] must be a string` };
  }
  if (!isPlainObject(capabilities)) {
    return { kind: 'invalid', message: `Invalid params: _meta["${META_KEYS.clientCapabilities}"] must be an object` };
  }
  if (info !== undefined && !isPlainObject(info)) {
    return { kind: 'invalid', message: `Invalid params: _meta["${META_KEYS.clientInfo}"] must be an object` };
  }
  // server/utilities/logging §Error Handling: an unknown level SHOULD be -32602.
  const level = meta[META_KEYS.logLevel];
  if (level !== undefined && !(typeof level === 'string' && (LOG_LEVELS as readonly string[]).includes(level))) {
    return { kind: 'invalid', message: `Invalid params: _meta["${META_KEYS.logLevel}"] must be one of ${LOG_LEVELS.join(', ')}` };
  }
  const result: RequestMeta = { kind: 'modern', version, clientCapabilities: capabilities };
  if (info !== undefined) result.clientInfo = info;
  if (level !== undefined) result.logLevel = level as LogLevel;
  return result;
}
