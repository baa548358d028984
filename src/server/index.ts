export type { Logger, Principal } from '../core/context.js';
export { principalId, silentLogger } from '../core/context.js';
export type { CloseReason, Connection } from './connection.js';
export type { ConnectOptions, Server, ServerLimits, ServerOptions } from './create-server.js';
export { createServer, DEFAULT_LIMITS } from './create-server.js';
export type { ObservedRequest, RequestEnd, RequestObserver, SessionEnd } from './observer.js';
export type { Peer } from './peer.js';
export type { SessionSnapshot } from './snapshot.js';
export type { TaskOptions, TaskRunner } from './tasks.js';
