/**
 * The raw Streamable HTTP client: one `RawHttpClient` over the web handler
 * in-process and over a real node:http server, so the same behavioural suite
 * runs against both and the adapter cannot drift; request builders (the
 * 2026-07-28 headers beside the `_meta` of test/_wire.ts); an incremental SSE
 * reader; and `httpSend`, the buffered exchange with a server in another
 * process. Both node:http paths go out through one `nodeRequest`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createHttpHandler, type HttpHandler, type HttpOptions, type ServeHttpOptions, serveHttp } from '../src/http.js';
import type { Server } from '../src/index.js';
import { type Message, MODERN_VERSION, modernMeta } from './_wire.js';

export type { Message } from './_wire.js';

/** What goes out through node:http. */
interface NodeRequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | undefined;
  agent?: Agent | false | undefined;
  signal?: AbortSignal | undefined;
}

/** One request through node:http (not fetch, so tests can send any Host header and use their own agents). */
function nodeRequest(url: URL | string, options: NodeRequestOptions): { request: ClientRequest; response: Promise<IncomingMessage> } {
  const { method, headers, body, agent, signal } = options;
  let request!: ClientRequest;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request = httpRequest(url, { method, headers, ...(agent !== undefined ? { agent } : {}), ...(signal ? { signal } : {}) }, resolve);
    request.on('error', reject);
    request.end(body);
  });
  return { request, response };
}

/** A client of one MCP endpoint: the web handler in-process, or a node:http server on 127.0.0.1. */
export class RawHttpClient {
  /** Base URL of the MCP endpoint (a real one for node, a synthetic one in-process). */
  readonly url: URL;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #close: () => Promise<void>;

  private constructor(url: URL, fetch: (request: Request) => Promise<Response>, close: () => Promise<void>) {
    this.url = url;
    this.#fetch = fetch;
    this.#close = close;
  }

  /** The handler of `createHttpHandler(server, options)`, called directly with web Requests. */
  static async inProcess(server: Server, options: HttpOptions = {}): Promise<RawHttpClient> {
    const handler: HttpHandler = createHttpHandler(server, options);
    return new RawHttpClient(
      new URL(options.path ?? '/mcp', 'http://127.0.0.1:8080'),
      (request) => handler.fetch(request),
      () => handler.close(),
    );
  }

  /**
   * `serveHttp(server, options)`: a real node:http server on an ephemeral
   * 127.0.0.1 port. Requests go out through node:http (not fetch), so tests
   * can send any Host header.
   */
  static async node(server: Server, options: ServeHttpOptions = {}): Promise<RawHttpClient> {
    const running = await serveHttp(server, { ...options, host: '127.0.0.1', port: 0 });
    const fetch = async (request: Request): Promise<Response> => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      if (!('host' in headers)) headers.host = running.url.host;
      const url = new URL(request.url);
      const res = await nodeRequest(new URL(`${url.pathname}${url.search}`, running.url), { method: request.method, headers, body, signal: request.signal })
        .response;
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const status = res.statusCode ?? 500;
      const empty = status === 204 || status === 304 || request.method === 'HEAD';
      if (empty) res.resume();
      return new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: responseHeaders });
    };
    return new RawHttpClient(running.url, fetch, () => running.close());
  }

  /** Answers one HTTP request. */
  fetch(request: Request): Promise<Response> {
    return this.#fetch(request);
  }

  /** Stops the server (the handler's `close()`, or the node:http server's). */
  close(): Promise<void> {
    return this.#close();
  }
}

/** Makes a client of `server`: `RawHttpClient.inProcess` or `RawHttpClient.node`. */
export type MakeHttpClient = (server: Server, options?: HttpOptions) => Promise<RawHttpClient>;

export const HTTP_CLIENTS: Record<string, MakeHttpClient> = {
  'web handler (in-process)': RawHttpClient.inProcess,
  'node:http server': RawHttpClient.node,
};

/** Where `Mcp-Name` comes from, per method (2026-07-28 streamable-http §Standard Request Headers). */
const NAME_SOURCE: Record<string, string> = { 'prompts/get': 'name', 'tools/call': 'name', 'resources/read': 'uri' };
const PLAIN = /^[\x20-\x7e]*$/;

/** A header value as a 2026-07-28 client writes it: as is when plain, else the Base64 sentinel (§Value Encoding). */
export function headerValue(value: string): string {
  return PLAIN.test(value) && value.trim() === value && !value.startsWith('=?base64?') ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The headers a conformant 2026-07-28 client sends with `body`, a request it
 * POSTs: media types, `MCP-Protocol-Version`, and `Mcp-Method` and `Mcp-Name`
 * mirrored from the body where it has them (any value: a fuzzer's bodies
 * too). `Host` when `url` is given.
 */
export function modernHeaders(body: unknown, url?: URL, version = MODERN_VERSION): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': version,
  };
  if (url) headers.Host = url.host;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const m = body as Message;
    if (typeof m.method === 'string' && PLAIN.test(m.method)) headers['Mcp-Method'] = m.method;
    const field = typeof m.method === 'string' ? NAME_SOURCE[m.method] : undefined;
    const name = field === undefined ? undefined : m.params?.[field];
    if (typeof name === 'string') headers['Mcp-Name'] = headerValue(name);
  }
  return headers;
}

/** A POST of a raw body to the endpoint. */
export function post(target: RawHttpClient, body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
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
  target: RawHttpClient,
  method: string,
  params: Message = {},
  overrides: Record<string, string | undefined> = {},
  init: RequestInit = {},
): Promise<Response> {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: params._meta ?? modernMeta() } };
  // Lower-case names, so that an override replaces its header instead of joining it.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(modernHeaders(body))) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return post(target, body, headers, init);
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
  /** The `id` of each of `events`, in step with it (undefined: the event had none). */
  readonly eventIds: (string | undefined)[] = [];
  /** Ids of events with an id and empty data (priming events, 2025-11-25 basic/transports), in order. */
  readonly primings: string[] = [];
  /** Every block as read: its id, whether it had data, and its `retry` (to check what comes first). */
  readonly blocks: { id?: string; data: boolean; retry?: number }[] = [];
  /** The last id seen, as an SSE client's last event ID buffer keeps it. */
  lastEventId: string | undefined;
  /** The last `retry` field seen, in ms. */
  retry: number | undefined;
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
      const lines = block.split('\n');
      for (const line of lines) if (line.startsWith(':')) this.comments.push(line);
      const id = lines
        .find((line) => line.startsWith('id:'))
        ?.slice(3)
        .trimStart();
      const retry = lines
        .find((line) => line.startsWith('retry:'))
        ?.slice(6)
        .trimStart();
      if (id !== undefined) this.lastEventId = id;
      if (retry !== undefined) this.retry = Number(retry);
      if (id !== undefined || retry !== undefined || data.length > 0)
        this.blocks.push({ ...(id !== undefined ? { id } : {}), data: data.join('') !== '', ...(retry !== undefined ? { retry: Number(retry) } : {}) });
      // An event with empty data is not dispatched (WHATWG HTML §9.2.6); with an id it primes the client.
      if (data.join('\n') === '') {
        if (id !== undefined && data.length > 0) this.primings.push(id);
        continue;
      }
      this.events.push(JSON.parse(data.join('\n')) as Message);
      this.eventIds.push(id);
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

/** A buffered HTTP answer: status, node-style lower-case headers, body text. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A plain HTTP exchange over node:http with a server anywhere (a child
 * process, usually), read whole and bounded by a hang guard. `agent` pools
 * connections (false: a connection of its own).
 */
export function httpSend(
  url: URL | string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number; agent?: Agent | false },
): Promise<HttpAnswer> {
  const { request, response } = nodeRequest(url, {
    method: options.method ?? 'POST',
    headers: options.headers ?? {},
    body: options.body,
    agent: options.agent,
  });
  // A timer, not req.setTimeout: that adds a listener to a pooled socket per request.
  const guard = setTimeout(() => request.destroy(new Error('Hang guard: HTTP exchange timed out')), options.timeoutMs ?? 15_000);
  request.on('close', () => clearTimeout(guard));
  return response.then(
    (res) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(guard);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      }),
  );
}

/** The JSON-RPC messages in an HTTP answer body: one JSON value, or SSE `data:` lines. */
export function messagesOf(contentType: string | undefined, body: string): { messages: unknown[]; garbage: string[] } {
  const messages: unknown[] = [];
  const garbage: string[] = [];
  if (body.trim() === '') return { messages, garbage };
  const texts = contentType?.startsWith('text/event-stream')
    ? body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
    : [body];
  for (const text of texts) {
    try {
      messages.push(JSON.parse(text));
    } catch {
      garbage.push(text.slice(0, 300));
    }
  }
  return { messages, garbage };
}

/** Gives `closers` what stops `child`: SIGTERM, then SIGKILL after 5 s. */
export function stopLater(child: ChildProcess, closers: Array<() => Promise<unknown>>): void {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  closers.push(async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
}

/**
 * Starts a fixture server process that prints `{"url": ...}` on its first
 * stdout line; resolves with that endpoint. `closers` gets what stops it
 * (SIGTERM, then SIGKILL after 5 s).
 */
export async function startHttpFixture(script: string, args: string[], closers: Array<() => Promise<unknown>>): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  stopLater(child, closers);
  const url = await new Promise<URL>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('the fixture did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (!buffer.includes('\n')) return;
      clearTimeout(timer);
      resolve(new URL((JSON.parse(buffer.split('\n')[0] as string) as { url: string }).url));
    });
  });
  return { url, child };
}

/** One GET stream a {@link cuttableGets} fetch opened. */
export interface CuttableGet {
  /** Cuts the connection under the client. */
  readonly abort: AbortController;
  /** The `Last-Event-ID` it resumed from; null for a first GET. */
  readonly lastEventId: string | null;
  /** Whether an event id (a priming event, on 2025-11-25) has come down it. */
  primed: boolean;
}

/**
 * A fetch for an SDK client's transport whose GET streams the test can cut
 * (`gets[i].abort`), and whose reconnections (a GET with `Last-Event-ID`)
 * wait until the test lets them through; other requests go as they are.
 */
export function cuttableGets(): { fetch: typeof fetch; gets: CuttableGet[]; letThrough: () => void } {
  const gets: CuttableGet[] = [];
  let letThrough!: () => void;
  const reconnecting = new Promise<void>((resolve) => {
    letThrough = resolve;
  });
  const cuttable = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (init?.method !== 'GET') return fetch(input, init);
    const lastEventId = new Headers(init.headers).get('last-event-id');
    if (lastEventId !== null) await reconnecting;
    const get: CuttableGet = { abort: new AbortController(), lastEventId, primed: false };
    gets.push(get);
    const response = await fetch(input, { ...init, signal: get.abort.signal });
    const seen = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (new TextDecoder().decode(chunk).includes('id:')) get.primed = true;
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body?.pipeThrough(seen) ?? null, { status: response.status, headers: response.headers });
  };
  return { fetch: cuttable as typeof fetch, gets, letThrough };
}
