/**
 * Writing a reply onto node's ServerResponse (src/transport/http/node.ts
 * adapts node:http; this is its last step): a whole body with its length in
 * one write, parts corked into one, a stream as it comes, and the answer
 * bytes still held counted against the adapter's backlog.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardRest } from './node-body.js';
import { writeStream } from './node-fetch.js';
import type { HttpReply, HttpRequest } from './request.js';

type Parts = ReadonlyArray<string | Uint8Array>;
const isParts = (body: HttpReply['body']): body is Parts => Array.isArray(body);

/** Answer bytes written and not yet taken by their clients, over the connections of one adapter. */
export interface Backlog {
  held: number;
}

/** Counts what `res` still holds once ended, until it is sent or its client is gone. */
function holdUntilSent(backlog: Backlog, res: ServerResponse): void {
  const held = res.writableLength;
  if (held === 0) return;
  backlog.held += held;
  const release = (): void => {
    res.off('finish', release);
    res.off('close', release);
    backlog.held -= held;
  };
  res.on('finish', release);
  res.on('close', release);
}

/**
 * A reply's headers as the flat `[name, value, …]` list `writeHead` takes.
 * node walks an object with `for…in`, and a spread copy with the length
 * added is a shape it walks slowly: writeHead took 1.3 µs with one, 0.33 µs
 * with this list (PERFORMANCE.md, Writes). The headers this adapter sets
 * itself are left out in any case, or a route's own would go out twice and
 * a client must refuse the answer (RFC 9112 §6.3).
 */
function headerList(headers: Readonly<Record<string, string>>, ownLength: boolean, closing: boolean): string[] {
  const list: string[] = [];
  for (const name of Object.keys(headers)) {
    if (ownLength && name.length === 14 && name.toLowerCase() === 'content-length') continue;
    if (closing && name.length === 10 && name.toLowerCase() === 'connection') continue;
    list.push(name, headers[name] as string);
  }
  if (closing) list.push('connection', 'close');
  return list;
}

/** Writes a reply; a promise only for a stream, which is written as it comes. */
export function writeReply(reply: HttpReply, request: HttpRequest, req: IncomingMessage, res: ServerResponse, backlog: Backlog): void | Promise<void> {
  const { body } = reply;
  if (res.destroyed) {
    // The client left: release a stream nobody will read.
    if (body instanceof ReadableStream) return body.cancel().catch(() => {});
    return;
  }
  const closing = !req.complete && discardRest(req, request.headers.get('content-length'));
  const headers = headerList(reply.headers, typeof body === 'string' || isParts(body), closing);
  if (typeof body === 'string') {
    // A whole body: one write with its length, no chunked encoding.
    headers.push('content-length', String(Buffer.byteLength(body)));
    res.writeHead(reply.status, headers);
    res.end(body);
    holdUntilSent(backlog, res);
    return;
  }
  if (isParts(body)) {
    // A whole body in parts (a shared list page kept encoded): corked, so they leave in one write.
    let length = 0;
    for (const part of body) length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
    headers.push('content-length', String(length));
    res.writeHead(reply.status, headers);
    res.cork();
    for (const part of body) res.write(part);
    res.end();
    res.uncork();
    holdUntilSent(backlog, res);
    return;
  }
  res.writeHead(reply.status, headers);
  if (!body) {
    res.end();
    return;
  }
  // SSE: send the headers now, so the client sees the stream open before the first event.
  res.flushHeaders();
  return writeStream(body, res).then(() => void res.end());
}
