/**
 * The three ways skillport is served, seen only as far as shutdown goes:
 * stdio in-process (`serveStdio` over streams), the web handler
 * (`createHttpHandler().fetch`) and the node:http server (`serveHttp` on
 * 127.0.0.1). Each sends 2026-07-28 requests and says what came back, so one
 * suite (lifecycle-shared.test.ts) can hold all three to the same drain.
 *
 * Self-contained on purpose: it needs only a request, its answer and close().
 */
import { PassThrough, Writable } from 'node:stream';
import { createHttpHandler, serveHttp } from '../../src/http.js';
import { createServer, definePrompt, type Server, staticPrompts } from '../../src/index.js';
import { serveStdio } from '../../src/stdio.js';
import { type Message, modernMeta } from '../_wire.js';

export type { Message };

/** What came back for one request. */
export interface Outcome {
  /** The JSON-RPC message about it (its response, or the refusal's error body), if any. */
  message?: Message;
  /** How it came: `answer`, `no line` (stdio said nothing), `HTTP <status>`, `no connection`. */
  how: string;
}

/** A running transport. */
export interface LifecycleTarget {
  /** Sends a 2026-07-28 request; resolves with its outcome (on stdio, a silence is known once the server stopped). */
  request(id: number, method: string, params?: Message): Promise<Outcome>;
  /** Opens a listen request; resolves once it is acknowledged, with the promise of its end. */
  listen(id: number): Promise<{ ended: Promise<Outcome> }>;
  /** The transport's own stop: `shutdown()` on stdio, `close()` over HTTP. */
  close(): Promise<void>;
}

export interface TransportCase {
  name: string;
  start(server: Server, drainTimeoutMs: number): Promise<LifecycleTarget>;
  /** How the transport refuses a request that arrives once the drain began. */
  refused: string[];
  /** How it answers a request cancelled when the drain time ran out: with no JSON-RPC message. */
  silent: string[];
}

const META = modernMeta();

const body = (id: number, method: string, params: Message): Message => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

/** Resolves once `check` holds, polling; the bound keeps a broken server from hanging a test. */
export async function until(check: () => boolean, bound = 10_000): Promise<void> {
  const deadline = Date.now() + bound;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A server whose prompts say what happened to them: `gated` answers once the
 * test calls `release()`, `stuck` answers only when its request is
 * cancelled, `quick` answers at once.
 */
export function lifecycleServer(): { server: Server; started: string[]; cancelled: Array<{ name: string; reason: unknown }>; release(): void } {
  const started: string[] = [];
  const cancelled: Array<{ name: string; reason: unknown }> = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const prompts = staticPrompts([
    definePrompt({
      name: 'gated',
      get: async () => {
        started.push('gated');
        await gate;
        return 'released';
      },
    }),
    definePrompt({
      name: 'stuck',
      get: (_args, ctx) =>
        new Promise<string>((resolve) => {
          started.push('stuck');
          ctx.signal.addEventListener('abort', () => {
            cancelled.push({ name: 'stuck', reason: ctx.signal.reason });
            resolve('too late');
          });
        }),
    }),
    definePrompt({
      name: 'quick',
      get: () => {
        started.push('quick');
        return 'quick';
      },
    }),
  ]);
  return { server: createServer({ name: 'lifecycle', version: '1.0.0', prompts }), started, cancelled, release };
}

async function stdioTarget(server: Server, drainTimeoutMs: number): Promise<LifecycleTarget> {
  const input = new PassThrough();
  const received: Message[] = [];
  let text = '';
  // Collected as written: by the time `done` resolves, the server's last line is here.
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      const lines = text.split('\n');
      text = lines.pop() as string;
      for (const line of lines) received.push(JSON.parse(line) as Message);
      callback();
    },
  });
  const running = serveStdio(server, { input, output, drainTimeoutMs });
  let stopped = false;
  void running.done.then(() => {
    stopped = true;
  });
  const find = (check: (m: Message) => boolean): Message | undefined => received.find(check);
  async function answer(id: number): Promise<Outcome> {
    await until(() => stopped || find((m) => m.id === id && !('method' in m)) !== undefined, 60_000);
    const message = find((m) => m.id === id && !('method' in m));
    return message ? { message, how: 'answer' } : { how: 'no line' };
  }
  return {
    request(id, method, params = {}) {
      input.write(`${JSON.stringify(body(id, method, params))}\n`);
      return answer(id);
    },
    async listen(id) {
      input.write(`${JSON.stringify(body(id, 'subscriptions/listen', { notifications: { promptsListChanged: true } }))}\n`);
      await until(() => find((m) => m.method === 'notifications/subscriptions/acknowledged') !== undefined);
      return { ended: answer(id) };
    },
    close: () => running.shutdown(),
  };
}

/** Reads an HTTP answer: JSON, an SSE stream (to its end), or a status with no body. */
async function outcomeOf(response: Response, id: number): Promise<Outcome> {
  const type = response.headers.get('content-type') ?? '';
  const how = response.status === 200 ? 'answer' : `HTTP ${response.status}`;
  if (type.includes('application/json')) return { message: (await response.json()) as Message, how };
  if (!type.includes('text/event-stream')) {
    await response.body?.cancel();
    return { how };
  }
  const events = (await response.text())
    .split('\n')
    // A priming event (2025-11-25: an id and empty data) carries no message.
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5)) as Message);
  const message = events.find((m) => m.id === id && !('method' in m));
  return message ? { message, how } : { how: `${how} (no response on the stream)` };
}

function httpTarget(url: URL, fetcher: (request: Request) => Promise<Response>, close: () => Promise<void>): LifecycleTarget {
  const send = (id: number, method: string, params: Message): Promise<Response> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
    return fetcher(new Request(url, { method: 'POST', headers, body: JSON.stringify(body(id, method, params)) }));
  };
  const settle = (response: Promise<Response>, id: number): Promise<Outcome> =>
    response.then(
      (r) => outcomeOf(r, id),
      () => ({ how: 'no connection' }),
    );
  return {
    request: (id, method, params = {}) => settle(send(id, method, params), id),
    async listen(id) {
      // The answer starts (as SSE) with the acknowledgement: its headers mean the listen is open.
      const response = await send(id, 'subscriptions/listen', { notifications: { promptsListChanged: true } });
      return { ended: settle(Promise.resolve(response), id) };
    },
    close,
  };
}

export const TRANSPORTS: TransportCase[] = [
  {
    name: 'stdio',
    start: stdioTarget,
    // stdin is no longer read: the request is never seen, and nothing is written for it.
    refused: ['no line'],
    silent: ['no line'],
  },
  {
    name: 'web handler',
    async start(server, drainTimeoutMs) {
      const handler = createHttpHandler(server, { drainTimeoutMs });
      return httpTarget(
        new URL('http://127.0.0.1/mcp'),
        (request) => handler.fetch(request),
        () => handler.close(),
      );
    },
    refused: ['HTTP 503'],
    // A request cancelled before anything was sent: 204, no body (exchange.ts).
    silent: ['HTTP 204'],
  },
  {
    name: 'node:http server',
    async start(server, drainTimeoutMs) {
      const running = await serveHttp(server, { host: '127.0.0.1', port: 0, drainTimeoutMs });
      return httpTarget(
        running.url,
        (request) => fetch(request),
        () => running.close(),
      );
    },
    // The listening socket is closed (no connection); a connection already open gets the handler's 503.
    refused: ['HTTP 503', 'no connection'],
    // The 204, or the connection cut once the sockets' own drain time is up.
    silent: ['HTTP 204', 'no connection'],
  },
];
