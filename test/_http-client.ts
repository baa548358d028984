/**
 * Helpers for the Streamable HTTP tests: one `Target` interface over the
 * web handler in-process and over a real node:http server, so the same
 * behavioural suite runs against both and the adapter cannot drift; plus
 * request builders and an incremental SSE reader.
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { createHttpHandler, type HttpHandler, type HttpOptions, serveHttp } from '../src/http.js';
import type { Server } from '../src/index.js';

export type Message = Record<string, any>;

/** Something that answers HTTP requests for a server. */
export interface Target {
  /** Base URL of the MCP endpoint (a real one for node, a synthetic one in-process). */
  readonly url: URL;
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** The handler called directly with web Requests. */
export async function inProcessTarget(server: Server, options: HttpOptions = {}): Promise<Target> {
  const handler: HttpHandler = createHttpHandler(server, options);
  return {
    url: new URL(options.path ?? '/mcp', 'http://127.0.0.1:8080'),
    fetch: (request) => handler.fetch(request),
    close: () => handler.close(),
  };
}

/**
 * A real node:http server on an ephemeral 127.0.0.1 port. Requests go out
 * through node:http (not fetch), so tests can send any Host header.
 */
export async function nodeTarget(server: Server, options: HttpOptions = {}): Promise<Target> {
  const running = await serveHttp(server, { ...options, host: '127.0.0.1', port: 0 });
  return {
    url: running.url,
    async fetch(request) {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      if (!('host' in headers)) headers.host = running.url.host;
      const url = new URL(request.url);
      return new Promise<Response>((resolve, reject) => {
        const outgoing = httpRequest(
          { host: running.url.hostname, port: running.url.port, path: `${url.pathname}${url.search}`, method: request.method, headers, signal: request.signal },
          (res) => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            const status = res.statusCode ?? 500;
            const empty = status === 204 || status === 304 || request.method === 'HEAD';
            if (empty) res.resume();
            resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: responseHeaders }));
          },
        );
        outgoing.once('error', reject);
        outgoing.end(body);
      });
    },
    close: () => running.close(),
  };
}

export const TARGETS = { 'web handler (in-process)': inProcessTarget, 'node:http server': nodeTarget } as const;

const MODERN_VERSION = '2026-07-28';

/** The 2026-07-28 per-request `_meta`. */
export function modernMeta(version = MODERN_VERSION): Message {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'http-test', version: '1.0.0' },
  };
}

/** The headers a conformant 2026-07-28 client sends for a request. */
export function modernHeaders(method: string, params: Message = {}, version = MODERN_VERSION): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': method,
  };
  const name = method === 'resources/read' ? params.uri : method === 'prompts/get' || method === 'tools/call' ? params.name : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

/** A POST of a raw body to the target. */
export function post(target: Target, body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
  return target.fetch(
    new Request(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  );
}

let nextId = 1;

/** A conformant 2026-07-28 request; `overrides` replace or (with undefined) drop headers. */
export function modernPost(
  target: Target,
  method: string,
  params: Message = {},
  overrides: Record<string, string | undefined> = {},
  init: RequestInit = {},
): Promise<Response> {
  const fullParams = { ...params, _meta: params._meta ?? modernMeta() };
  const headers: Record<string, string> = modernHeaders(method, params);
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return post(target, { jsonrpc: '2.0', id: nextId++, method, params: fullParams }, headers, init);
}

/** Reads a JSON body (the response must be JSON). */
export async function json(response: Response): Promise<Message> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('application/json')) throw new Error(`Expected JSON, got ${response.status} ${type}: ${await response.text()}`);
  return (await response.json()) as Message;
}

/** An incremental reader of an SSE body: events, comments, and the end. */
export class SseReader {
  readonly events: Message[] = [];
  readonly comments: string[] = [];
  ended = false;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer = '';
  #decoder = new TextDecoder();

  constructor(response: Response) {
    if (!response.body) throw new Error('no body');
    this.#reader = response.body.getReader();
  }

  #parse(): void {
    let index: number;
    while ((index = this.#buffer.indexOf('\n\n')) >= 0) {
      const block = this.#buffer.slice(0, index);
      this.#buffer = this.#buffer.slice(index + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart());
      for (const line of block.split('\n')) if (line.startsWith(':')) this.comments.push(line);
      if (data.length > 0) this.events.push(JSON.parse(data.join('\n')) as Message);
    }
  }

  /** Reads until `check` holds or the stream ends; fails after `timeoutMs`. */
  async until(check: (reader: SseReader) => boolean, timeoutMs = 5000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`SSE: condition not met; events: ${JSON.stringify(this.events)}`)), timeoutMs);
    });
    try {
      while (!check(this) && !this.ended) {
        const { done, value } = await Promise.race([this.#reader.read(), timeout]);
        if (done) this.ended = true;
        else {
          this.#buffer += this.#decoder.decode(value, { stream: true });
          this.#parse();
        }
      }
    } finally {
      clearTimeout(timer);
    }
    if (!check(this)) throw new Error(`SSE ended before the condition held; events: ${JSON.stringify(this.events)}`);
  }

  /** Reads to the end of the stream. */
  async toEnd(timeoutMs = 5000): Promise<Message[]> {
    await this.until((r) => r.ended, timeoutMs);
    return this.events;
  }

  /** Closes the stream from the client side. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

/** Resolves when `check` holds, polling; the bound keeps a broken server from hanging a test. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
