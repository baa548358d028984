/**
 * The Streamable HTTP transport entry: `import { serveHttp } from 'skillport/http'`.
 * Not exported: the session store, the SSE writer and the header helpers,
 * which are the handler's internals.
 */

export type { GitHookOptions } from './transport/http/git-hook.js';
export { createGitHook, GIT_HOOK_PATH, verifyGitHook } from './transport/http/git-hook.js';
export { createHttpHandler } from './transport/http/handler.js';
export type { NodeHandlerOptions } from './transport/http/node.js';
export { toNodeHandler } from './transport/http/node.js';
export type { FetchHandler } from './transport/http/node-fetch.js';
export type { HttpHandler, HttpOptions, HttpRoute, OAuthOptions, RouteReply, RouteRequest, RouteSpec } from './transport/http/options.js';
// What HttpHandler.reply takes and answers, for adapters of other servers.
export type { BodyBudget, HeaderReader, HttpReply, HttpRequest } from './transport/http/request.js';
export type { HttpServer, ServeHttpOptions } from './transport/http/serve.js';
export { serveHttp } from './transport/http/serve.js';
// Replicas: what they share (legacy sessions, catalogue changes, tasks), on Redis or another store.
export type { RedisOptions } from './transport/redis.js';
export { connectRedis } from './transport/redis.js';
export type { CatalogueChange, ChangeBus, SharedState } from './transport/shared-state.js';
export { createChangeBus } from './transport/shared-state.js';
export { sharedTaskStore } from './transport/task-store.js';
