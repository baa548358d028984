/**
 * Serves any fetch handler, `(Request) => Response | Promise<Response>`, on
 * node:http: what srvx and the official SDK's adapters do. A handler made by
 * createHttpHandler is answered through its `reply` in node.ts instead, which
 * builds no `Request` or `Response`; this one is for everything else (a Hono
 * app, a handler composed around ours, ours with its `fetch` replaced).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Anything with a Fetch-API `fetch` method. */
export interface FetchHandler {
  fetch(request: Request): Response | Promise<Response>;
}

/** The web Request for a node request; aborted when the client goes away. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const host = headers.get('host') ?? 'localhost';
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const url = new URL((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/', `${secure ? 'https' : 'http'}://${host}`);
  const controller = new AbortController();
  // The response closing before it finished means the client left.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    // A streamed request body must say so (Fetch §5.3, `duplex: "half"`).
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/** Writes a web Response to a node response, streaming its body with backpressure. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  res.writeHead(response.status, response.statusText, headers.flat());
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  await writeStream(response.body, res);
  res.end();
}

/**
 * Writes a stream to a node response with backpressure (waiting for 'drain'),
 * and cancels it when the client leaves. Does not end the response. Rejects
 * when the stream fails while the client is still there: the caller must
 * then cut the answer off (see {@link cutOff}), not end it, or the client
 * would take what was sent for the whole answer.
 */
export async function writeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      // A cancel (the client left) ends a pending read as done; only a failing source rejects.
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } catch (error) {
    if (!res.destroyed) throw error;
  } finally {
    res.off('close', stop);
  }
}

/**
 * Ends an answer that could not be written whole: a 500 if nothing was sent
 * yet; once the headers went, the connection is closed with the answer
 * unfinished, so the client sees it cut short (a chunked body without its
 * last chunk, RFC 9112 §7.1) instead of a complete one.
 */
export function cutOff(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500);
  res.end();
}
