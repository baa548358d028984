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
 * and cancels it when the client leaves. Does not end the response.
 */
export async function writeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
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
    // The body failed or was cancelled because the client left: end what was sent.
  } finally {
    res.off('close', stop);
  }
}
