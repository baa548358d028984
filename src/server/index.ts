export type { Logger, Principal } from '../core/context.js';
export { principalId, silentLogger } from '../core/context.js';
export type { CloseReason, Connection } from './connection.js';
export type { Server, ServerLimits, ServerOptions } from './create-server.js';
export { createServer, DEFAULT_LIMITS } from './create-server.js';
export type { Peer } from './peer.js';
