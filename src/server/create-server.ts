/**
 * createServer(): joins the providers to the protocol engine. The result is
 * transport-neutral: a transport calls `connect()` once per peer and feeds it
 * parsed JSON values.
 */
import { type Logger, silentLogger } from '../core/context.js';
import { type CompletionProvider, createEngine, type Engine } from '../core/engine.js';
import type { Prompt, ServerInfo } from '../core/model.js';
import type { SkillsProvider } from '../core/skills.js';
import { memoryTaskStore } from '../core/tasks.js';
import { encodeOnce } from '../jsonrpc/encoded.js';
import { type CachePolicy, type ServerDescription, SUPPORTED_VERSIONS } from '../protocol/index.js';
import { type Connection, createConnection } from './connection.js';
import { addObserver, type Observers, type RequestObserver } from './observer.js';
import type { Peer } from './peer.js';
import { type PromptsOption, providersOf, type ResourcesOption, type ToolsOption } from './provider-options.js';
import type { SessionSnapshot } from './snapshot.js';
import { createTaskRunner, type TaskOptions, type TaskRunner } from './tasks.js';

/** Resource limits; every transport applies them to what it receives. */
export interface ServerLimits {
  /** Largest message accepted, in bytes (stdio line, HTTP body). Default 4 MiB. */
  maxMessageBytes: number;
  /** Deepest nesting of arrays and objects in a message. Default 64. */
  maxJsonDepth: number;
  /**
   * Largest prompt a provider may return, in UTF-8 bytes of its content; a
   * larger one gets a generic -32603. Providers see it as `ctx.limits`, so the
   * skills folder stops substituting as soon as its output passes it. Default 8 MiB.
   */
  maxPromptBytes: number;
  /**
   * Largest resource read served, in bytes of its raw content; a larger one
   * gets a generic -32603. The skills folder checks a file's size before
   * reading it. Default 16 MiB, the most a whole skill should hold (SEP-2640).
   */
  maxResourceBytes: number;
  /**
   * Most resource subscriptions one legacy session holds (`resources/subscribe`),
   * and most URIs in one 2026-07-28 `subscriptions/listen` filter; more get
   * -32602. Default 128.
   */
  maxSubscriptions: number;
  /** Longest URI accepted in a subscription, in UTF-8 bytes; longer ones get -32602. Default 2048. */
  maxSubscriptionUriBytes: number;
  /**
   * How long a question of the server's to a 2025 session's client
   * (`ctx.input`: elicitation, sampling, roots) waits for its answer, in ms.
   * Then it is withdrawn with `notifications/cancelled` (2025-06-18
   * basic/lifecycle §Timeouts) and the request that asked gets -32603 saying
   * so. Default 60000, the official SDKs' default request timeout: a client
   * gives up on its own request by then.
   */
  inputTimeoutMs: number;
  /**
   * Most such questions waiting for one session's client at once; one more
   * fails its request at once with -32603 saying so. Over HTTP each request
   * waiting on its client also takes one of that client's stream places
   * (`maxStreamsPerClient`). Default 8.
   */
  maxPendingInputs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  maxMessageBytes: 4 * MiB,
  maxJsonDepth: 64,
  maxPromptBytes: 8 * MiB,
  maxResourceBytes: 16 * MiB,
  maxSubscriptions: 128,
  maxSubscriptionUriBytes: 2048,
  inputTimeoutMs: 60_000,
  maxPendingInputs: 8,
};

/** Options of {@link createServer}. */
export interface ServerOptions extends ServerInfo {
  /** Guidance for the model, sent on initialize and discover. */
  instructions?: string;
  /**
   * The prompts: `definePrompt` definitions, served as a fixed set, or a
   * provider (`livePrompts`, a skills folder's, one of your own). Anything
   * else throws a TypeError here.
   */
  prompts?: PromptsOption;
  /** The tools: `defineTool` definitions, served as a fixed set, or a provider. */
  tools?: ToolsOption;
  /**
   * The resources: `defineResource` and `defineResourceTemplate` definitions
   * in one array, served as a fixed set, or a provider.
   */
  resources?: ResourcesOption;
  completions?: CompletionProvider;
  /** Skills for the MCP Skills extension (SEP-2640); pair it with a resources provider serving their files. */
  skills?: SkillsProvider;
  /** Items per page of every list method. Default 50. */
  pageSize?: number;
  /**
   * Whether handlers' `ctx.log` messages reach clients: the server declares
   * the `logging` capability (server/utilities/logging §Capabilities: a server
   * that emits log messages MUST) and serves `logging/setLevel` on 2025
   * revisions. On by default, so `ctx.log` works as a handler expects; each
   * message still goes only at the level the client asked for (`ctx.can.log`).
   * `false` declares nothing and sends nothing: 2026-07-28 deprecates
   * protocol logging (SEP-2577) in favour of stderr and OpenTelemetry, and a
   * server whose handlers never log may leave the capability out.
   */
  logging?: boolean;
  /**
   * The key that seals the state of input-required requests (2026-07-28
   * `requestState`, HMAC-SHA256): at least 32 bytes, or a string of at least
   * 32 characters. Replicas behind one load balancer need the same key so any
   * of them can take a retry. Default: a random key for this server.
   */
  requestStateKey?: string | Uint8Array;
  /** How long a sealed requestState is good for, in ms. Default 600000 (10 minutes). */
  requestStateTtlMs?: number;
  /**
   * Cache hints on cacheable 2026-07-28 results. Defaults: `ttlMs` 300000 for
   * sets that cannot change, 10000 when a provider can change; `cacheScope`
   * "public" (the catalogue is the same for every caller). An answer that
   * depends on its caller (a list filtered by audiences, a restricted
   * file's contents, a skill's manifest without a nested skill's files) is
   * "private" whatever this says.
   */
  cache?: Partial<CachePolicy>;
  /** Extension settings declared in `capabilities.extensions` (2026-07-28). */
  extensions?: Record<string, Record<string, unknown>>;
  /** Resource limits; each defaults to {@link DEFAULT_LIMITS}. */
  limits?: Partial<ServerLimits>;
  /** How tool calls that run as tasks are kept (`defineTool({ task })`): their store, lifetime and bounds. */
  tasks?: TaskOptions;
  logger?: Logger;
}

/** Options of {@link Server.connect}. */
export interface ConnectOptions {
  /**
   * A session's snapshot to carry on (server/snapshot.ts). It is checked as
   * untrusted data (it may come back from shared state): a known session
   * version, each member as a live session holds it, within the same bounds.
   * A snapshot that is not one throws a TypeError, and no connection is made.
   */
  restore?: SessionSnapshot | undefined;
}

/** A server definition, ready to be served over any transport. */
export interface Server {
  readonly info: ServerInfo;
  readonly limits: ServerLimits;
  /**
   * Opens a connection for one peer; the transport owns its lifetime. With
   * `restore`, the connection carries on a 2025 session from its snapshot
   * (`Connection.snapshot()`, here or in a replica) without a handshake.
   */
  connect(peer: Peer, options?: ConnectOptions): Connection;
  /** The current prompt catalogue (also builds it, surfacing provider errors early). */
  prompts(): Promise<readonly Prompt[]>;
  /** The neutral engine behind the server, for tools such as the CLI. */
  readonly engine: Engine;
  /**
   * Tells `observer` of every request the server runs from now on, and of
   * every session opened (server/observer.ts): metrics, traces and request
   * logs hang here. Returns a function that stops telling it.
   */
  observe(observer: RequestObserver): () => void;
  /** Whether any observer watches: a transport reads what only it knows (an HTTP `traceparent`) only then. */
  readonly observed: boolean;
  /**
   * The tasks this server runs (core/tasks.ts). A transport that brings
   * shared state gives them a shared store (`useStore`).
   */
  readonly tasks: TaskRunner;
  /** Stops watching providers, and fails the tasks this process still runs. Connections are closed by their transports. */
  close(): void;
}

/**
 * Creates a server from definitions and providers. Capabilities follow from
 * what is given: prompts, tools, resources and completions are declared only
 * when served, and `listChanged` / `subscribe` only when a provider can change.
 *
 * @example
 * const server = createServer({
 *   name: 'my-prompts',
 *   version: '1.0.0',
 *   prompts: [review],
 *   resources: [readme, notes],
 * });
 * await serveStdio(server);
 */
export function createServer(options: ServerOptions): Server {
  const logger = options.logger ?? silentLogger;
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`limits.${key} must be a positive integer`);
  }
  const engine = createEngine({
    maxPromptBytes: limits.maxPromptBytes,
    maxResourceBytes: limits.maxResourceBytes,
    ...providersOf(options),
    ...(options.completions ? { completions: options.completions } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    logging: options.logging !== false,
    logger,
  });

  const info: ServerInfo = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) (info as unknown as Record<string, unknown>)[key] = options[key];
  }

  const live = Boolean(engine.features.prompts?.listChanged || engine.features.tools?.listChanged || engine.features.resources?.listChanged);
  const ttlMs = options.cache?.ttlMs ?? (live ? 10_000 : 300_000);
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) throw new TypeError('cache.ttlMs must be a non-negative integer');
  const settings: ServerDescription = {
    info,
    cache: { ttlMs, cacheScope: options.cache?.cacheScope ?? 'public' },
    supportedVersions: SUPPORTED_VERSIONS,
    subscriptions: { max: limits.maxSubscriptions, maxUriBytes: limits.maxSubscriptionUriBytes },
    requestState: { secret: stateKey(options.requestStateKey), ttlMs: options.requestStateTtlMs ?? 600_000 },
  };
  if (!Number.isSafeInteger(settings.requestState.ttlMs) || settings.requestState.ttlMs < 1)
    throw new TypeError('requestStateTtlMs must be a positive integer');
  if (options.instructions !== undefined) settings.instructions = options.instructions;
  if (options.extensions !== undefined) settings.extensions = options.extensions;
  const description = encodeOnce(settings);
  const questions = { timeoutMs: limits.inputTimeoutMs, maxPending: limits.maxPendingInputs };
  const observers: Observers = { current: undefined };
  const observerList: RequestObserver[] = [];
  const tasks = createTaskRunner(options.tasks ?? {}, logger, memoryTaskStore);

  return {
    info,
    limits,
    engine,
    tasks,
    connect: (peer, connectOptions) => createConnection(engine, description, peer, logger, questions, observers, tasks, connectOptions?.restore),
    prompts: () => engine.prompts(),
    observe: (observer) => addObserver(observers, observerList, observer),
    get observed() {
      return observers.current !== undefined;
    },
    close() {
      engine.close();
      void tasks.close();
    },
  };
}

/** The requestState key as bytes: the given one (checked), or 32 random bytes. */
function stateKey(key: string | Uint8Array | undefined): Uint8Array {
  if (key === undefined) return crypto.getRandomValues(new Uint8Array(32));
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  // RFC 2104 §3: a key shorter than the hash output weakens the MAC.
  if (bytes.byteLength < 32) throw new TypeError('requestStateKey must be at least 32 bytes');
  return bytes;
}
