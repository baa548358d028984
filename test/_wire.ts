/**
 * What every raw test client puts on the wire, whatever the transport: the
 * message type, the 2026-07-28 per-request `_meta` envelope (the one
 * `modernMeta`) and the `initialize` params of a session revision. The raw
 * clients are `RawStdioClient` (test/_stdio-client.ts) and `RawHttpClient`
 * (test/_http-client.ts); the contract suite (test/contract/) builds on all three.
 */

/** A JSON-RPC message as the tests read it. */
export type Message = Record<string, any>;

/** The stateless revision (2026-07-28 basic/index §_meta). */
export const MODERN_VERSION = '2026-07-28';

/** The `clientInfo` every raw client presents. */
export const CLIENT_INFO = { name: 'skillport-test', version: '1.0.0' } as const;

/** Keys of the 2026-07-28 envelope that mark a request as one of that revision. */
const ENVELOPE_KEYS = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo'];

/** The 2026-07-28 per-request `_meta`: protocol version, client capabilities and client info. */
export function modernMeta(version = MODERN_VERSION): Message {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { ...CLIENT_INFO },
  };
}

/** Params with the 2026-07-28 envelope added. */
export function modern(params: Message = {}): Message {
  return { ...params, _meta: modernMeta() };
}

/** Whether a request's params carry the 2026 envelope (then it is answered under 2026-07-28). */
export function isModernShaped(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as Message)._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  return ENVELOPE_KEYS.some((key) => key in meta);
}

/** The params of `initialize` at `version` (2025-06-18 and 2025-11-25 lifecycle). */
export function initializeParams(version: string): Message {
  return { protocolVersion: version, capabilities: {}, clientInfo: { ...CLIENT_INFO } };
}
