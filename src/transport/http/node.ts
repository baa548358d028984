/**
 * Adapts a web-standard {@link HttpHandler} to node:http's `(req, res)`:
 * the request becomes a `Request` (headers, streamed body, an abort signal
 * that fires when the client goes away before the answer ends) and the
 * `Response` is written back, streaming bodies chunk by chunk with
 * backpressure. Works with node:http, Express and Fastify's raw objects.
 *
 * It deliberately does nothing else: routing, limits and protocol rules live
 * in the handler, so the in-process handler and the node server cannot drift.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, silentLogger } from '../../server/index.js';
import { jsonBodyOf } from './exchange.js';
import type { HttpHandler } from './options.js';

const clients = new WeakMap<Request, string>();

/** The remote address of a request that came through {@link toNodeHandler}, for per-client limits. */
export function clientAddress(request: Request): string | undefined {
  return clients.get(request);
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  logger?: Logger;
}

function requestUrl(req: IncomingMessage): URL {
  // Express rewrites req.url below a mount point; originalUrl keeps the full path.
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  try {
    return new URL(path, `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    // A malformed Host: the handler still sees the header and rejects it.
    return new URL(path.startsWith('/') ? path : '/', 'http://localhost');
  }
}

/** The request body as a web stream that pauses the socket when the reader is slow. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      // The handler may have cancelled the stream (413) before the rest is discarded.
      req.once('end', () => {
        try {
          controller.close();
        } catch {
          // Already cancelled.
        }
      });
      req.once('error', (error) => {
        try {
          controller.error(error);
        } catch {
          // Already cancelled.
        }
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      req.pause();
    },
  });
}

/** Most bytes of an unread request body dropped to keep its connection usable; past that it is closed. */
const DISCARD_LIMIT = 8 * 1024 * 1024;

/**
 * The handler answered without reading the whole body (413, 406, 415, 401...).
 * Read the rest and drop it, so the client reads the answer and can send its
 * next request on the connection: closing with unread data makes the kernel
 * reset the connection, and the client may lose the answer with it. A body
 * too large to be worth reading closes the connection instead. Returns
 * whether the answer must say `Connection: close`.
 */
function discardRest(req: IncomingMessage): boolean {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DISCARD_LIMIT) return true;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
  return false;
}

async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } catch {
    // The stream was cancelled because the client left; nothing more to write.
  } finally {
    res.off('close', stop);
  }
}

/**
 * Wraps a handler for node:http.
 *
 * @example
 * import { createServer as createNodeServer } from 'node:http';
 * createNodeServer(toNodeHandler(createHttpHandler(server))).listen(3000, '127.0.0.1');
 */
export function toNodeHandler(handler: HttpHandler, options: NodeHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = options.logger ?? silentLogger;
  return (req, res) => {
    const aborted = new AbortController();
    let finished = false;
    res.once('close', () => {
      if (!finished) aborted.abort();
    });

    let request: Request;
    try {
      const headers = new Headers();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
      const method = req.method ?? 'GET';
      const hasBody = method !== 'GET' && method !== 'HEAD';
      request = new Request(requestUrl(req), {
        method,
        headers,
        signal: aborted.signal,
        ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
      } as RequestInit);
      clients.set(request, req.socket.remoteAddress ?? '');
    } catch (error) {
      logger.debug('Rejected a request node could parse but Fetch cannot', error);
      finished = true;
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Bad Request');
      return;
    }

    handler
      .fetch(request)
      .then(async (response) => {
        if (res.destroyed) return;
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name] = value;
        });
        if (!req.complete && discardRest(req)) headers.connection = 'close';
        const json = jsonBodyOf(response);
        if (json !== undefined) {
          // A whole JSON body: one write with its length, no chunked encoding, no stream.
          headers['content-length'] = String(Buffer.byteLength(json));
          res.writeHead(response.status, headers);
          finished = true;
          res.end(json);
          return;
        }
        res.writeHead(response.status, headers);
        if (response.body) {
          // SSE: send the headers now, so the client sees the stream open before the first event.
          res.flushHeaders();
          await writeBody(response.body, res);
        }
        finished = true;
        res.end();
      })
      .catch((error: unknown) => {
        logger.error('Failed to write an HTTP response', error);
        finished = true;
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  };
}
