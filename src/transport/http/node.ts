/**
 * Serves a handler made by createHttpHandler on node:http's `(req, res)`
 * through its public `reply`, as the web adapter's `fetch` does (web.ts),
 * reading `IncomingMessage` and writing `ServerResponse` directly: no web
 * `Request`, `Response`, `Headers` or `AbortSignal` per request (see
 * request.ts). A whole JSON answer is one write with its length; an SSE
 * answer is streamed chunk by chunk with backpressure. Works with node:http,
 * Express and Fastify's raw objects.
 *
 * It deliberately does nothing else: routing, limits and protocol rules live
 * in the handler, so `fetch` and the node server cannot drift.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, silentLogger } from '../../server/index.js';
import { remembering } from '../../util/remember.js';
import { RETRY_AFTER, Rejections, reject } from './errors.js';
import { readNodeBody } from './node-body.js';
import { cutOff, type FetchHandler, toWebRequest, writeWebResponse } from './node-fetch.js';
import { type Backlog, writeReply } from './node-reply.js';
import type { HttpHandler } from './options.js';
import type { BodyBudget, HeaderReader, HttpRequest } from './request.js';
import { replyOf } from './web.js';

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  logger?: Logger;
  /**
   * Most answer bytes written but not yet taken by their clients, over all
   * connections. While more wait, new requests get 503 with `Retry-After`
   * instead of being answered: a client that sends requests and never reads
   * the answers cannot make the server hold them all (24 unread reads of a
   * 100 MB file held 5.5 GiB). Default 64 MiB.
   */
  maxBufferedResponseBytes?: number;
}

/** The names the handler asks for (a dozen constants), lowercased once, not per lookup. */
const lowerName = remembering((name) => name.toLowerCase(), 64);

/**
 * Request headers read from the raw list, case-insensitively: several fields
 * of one name are joined with ", " as the Fetch `Headers` does, where node's
 * `req.headers` keeps only the first of some (Host, Content-Type,
 * Authorization...). A request has a dozen headers and the handler asks for
 * about as many: a scan with a length check beats building a map.
 */
class RawHeaders implements HeaderReader {
  readonly #raw: string[];

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const raw = this.#raw;
    const length = name.length;
    let lower: string | undefined;
    let found: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i] as string;
      if (key.length !== length) continue;
      lower ??= lowerName(name);
      if (key !== lower && key.toLowerCase() !== lower) continue;
      const value = raw[i + 1] as string;
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }
}

const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@%/]*$/;
/** The last target read and its path: clients send request after request to the same one. */
let lastTarget = '/';
let lastPath = '/';

/**
 * The path of a request target as the WHATWG URL parser leaves it. The
 * common target, a plain absolute path, is its own pathname; anything else
 * (dot segments, characters the parser escapes, absolute-form targets) goes
 * through the parser.
 */
export function pathnameOf(target: string): string {
  if (target === lastTarget) return lastPath;
  const path = parsePath(target);
  lastTarget = target;
  lastPath = path;
  return path;
}

function parsePath(target: string): string {
  const query = target.search(/[?#]/);
  const path = query === -1 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path) && !/\/\.\.?(\/|$)|%2e/i.test(path)) return path;
  try {
    // An origin-form target is a path even when it starts with "//" (RFC 9112 §3.2.1).
    return new URL(target.startsWith('/') ? `http://localhost${target}` : target).pathname;
  } catch {
    return '/';
  }
}

/** A node request as the handler reads it; methods on the prototype, so nothing per request but the object. */
class NodeRequest implements HttpRequest {
  readonly headers: RawHeaders;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.headers = new RawHeaders(req.rawHeaders);
  }

  get method(): string {
    return this.#req.method ?? 'GET';
  }

  get pathname(): string {
    // Express rewrites req.url below a mount point; originalUrl keeps the full path.
    const req = this.#req as IncomingMessage & { originalUrl?: string };
    return pathnameOf(req.originalUrl ?? req.url ?? '/');
  }

  get search(): string {
    const req = this.#req as IncomingMessage & { originalUrl?: string };
    const target = req.originalUrl ?? req.url ?? '/';
    const start = target.indexOf('?');
    if (start === -1) return '';
    const end = target.indexOf('#', start);
    return end === -1 ? target.slice(start) : target.slice(start, end);
  }

  get host(): string {
    return this.headers.get('host') ?? 'localhost';
  }

  get origin(): string {
    try {
      return new URL(`http://${this.host}`).origin;
    } catch {
      // A malformed Host: the handler has already rejected it unless any Host is allowed.
      return 'http://localhost';
    }
  }

  get client(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  readBody(max: number, budget: BodyBudget): Promise<Uint8Array | undefined | 'busy'> {
    return readNodeBody(this.#req, this.headers.get('content-length'), max, budget);
  }

  onAbort(listener: () => void): () => void {
    const res = this.#res;
    // A response that ended was answered; a close before that is a client that left.
    if (res.destroyed && !res.writableEnded) {
      listener();
      return () => {};
    }
    const onClose = (): void => {
      if (!res.writableEnded) listener();
    };
    res.on('close', onClose);
    return () => res.off('close', onClose);
  }
}

/**
 * Wraps a fetch handler for node:http: a handler made by createHttpHandler
 * (answered through its `reply`, without web Request and Response objects,
 * unless its `fetch` was replaced: web.ts `replyOf`), or any object with a
 * Fetch-API `fetch` method (adapted through them).
 *
 * @example
 * import { createServer as createNodeServer } from 'node:http';
 * createNodeServer(toNodeHandler(createHttpHandler(server))).listen(3000, '127.0.0.1');
 */
export function toNodeHandler(handler: HttpHandler | FetchHandler, options: NodeHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = options.logger ?? silentLogger;
  const reply = replyOf(handler);
  if (!reply) return fetchOnNode(handler, logger);
  const maxBacklog = options.maxBufferedResponseBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBacklog) || maxBacklog < 1) throw new TypeError('maxBufferedResponseBytes must be a positive integer');
  const backlog: Backlog = { held: 0 };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const request = new NodeRequest(req, res);
    const answer = backlog.held > maxBacklog ? Promise.resolve(reject(Rejections.AnswersBusy, null, RETRY_AFTER)) : reply(request);
    const failed = (error: unknown): void => writeFailed(logger, res, error);
    // One `then`, not `then` and `catch`: a promise and a turn less per request.
    answer.then((ready) => {
      try {
        writeReply(ready, request, req, res, backlog)?.catch(failed);
      } catch (error) {
        failed(error);
      }
    }, failed);
  };

  return (req, res) => {
    if (res.socket) return handle(req, res);
    // A pipelined request (RFC 9112 §9.3.2): node hands it over at once, but
    // its answer waits behind those before it on the connection. It is
    // handled when its turn comes, so that a client pipelining many requests
    // cannot make the server build all their answers at once. If the
    // connection closes first, node drops the waiting response with it and
    // 'socket' never comes: nothing else to undo, and no listener per
    // waiting request on the socket (node would warn past ten).
    res.once('socket', () => handle(req, res));
  };
}

/** A reply that could not be written: logged, and a 500 or the answer cut off (node-fetch.ts `cutOff`). */
function writeFailed(logger: Logger, res: ServerResponse, error: unknown): void {
  logger.error('Failed to write an HTTP response', error);
  cutOff(res);
}

/** Any other fetch handler, through web Request and Response objects. */
function fetchOnNode(handler: FetchHandler, logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let answer: Promise<Response>;
    try {
      answer = Promise.resolve(handler.fetch(toWebRequest(req, res)));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer
      .then((response) => writeWebResponse(response, res))
      .catch((error: unknown) => {
        logger.error('The fetch handler failed', error);
        cutOff(res);
      });
  };
}
