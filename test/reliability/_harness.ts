/**
 * Shared pieces of the reliability suite: a line client that tolerates any
 * output (it records what is not JSON instead of throwing), the schema
 * referee for any response, child RSS sampling, and small HTTP helpers.
 * Every wait is bounded: time limits here are hang guards, never thresholds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { hasDefinition, type RevisionName, schemaErrors } from '../_schema.js';
import { BIN, FIXTURE, ROOT } from '../_stdio-client.js';

export { BIN, FIXTURE, ROOT };
export const VALID_SKILLS = `${ROOT}test/fixtures/skills/valid`;
export const HTTP_FIXTURE = `${ROOT}test/reliability/fixtures/server.mjs`;
export const HTTP_DIST = `${ROOT}dist/http.js`;

export type Message = Record<string, any>;

/** Set by `npm run soak`: bigger runs, longer hang guards, figures with memory and timing. */
export const SOAK = process.env.RELIABILITY_SOAK === '1';
/** Multiplier of per-test hang guards. */
export const GUARD = SOAK ? 60 : 1;

/** Whether the HTTP transport has been built. */
export function httpBuilt(): boolean {
  return existsSync(HTTP_DIST);
}

/** Resident set size of a process, in bytes (Linux /proc, else ps). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall back to ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

export const MiB = 1024 * 1024;

/**
 * Whether a series of RSS samples taken after equal rounds of work is flat:
 * a leak grows with every round, lazy heap growth and GC timing do not. The
 * rule: the highest sample of the later half exceeds the highest of the
 * earlier half by less than `slack`. Independent of when GC runs, because
 * maxima, not single samples, are compared.
 */
export function memoryFlat(samples: readonly number[], slack: number): boolean {
  const half = Math.ceil(samples.length / 2);
  const early = Math.max(...samples.slice(0, half));
  const late = Math.max(...samples.slice(half));
  return late - early < slack;
}

/** A child process speaking newline-delimited JSON, recording every line. */
export class LineClient {
  readonly child: ChildProcess;
  readonly messages: Message[] = [];
  /** Lines that were not a JSON object: always a failure. */
  readonly garbage: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #pending: Buffer[] = [];
  #waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];

  constructor(script: string, args: string[] = [], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve({ code, signal });
      }),
    );
    this.child.stdin!.on('error', () => {});
    this.child.stderr!.on('data', (chunk: Buffer) => {
      // Keep the tail only: a fuzz run logs a lot at debug level.
      this.stderr = (this.stderr + chunk.toString()).slice(-200_000);
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      // Pieces, not a growing string: multi-megabyte lines must not cost quadratic time here either.
      let start = 0;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
        this.#pending.push(chunk.subarray(start, at));
        this.#line(Buffer.concat(this.#pending).toString('utf8'));
        this.#pending = [];
        start = at + 1;
      }
      if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    });
  }

  #line(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.garbage.push(line.slice(0, 500));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.garbage.push(line.slice(0, 500));
      return;
    }
    const m = message as Message;
    this.messages.push(m);
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.test(m)) return true;
      w.resolve(m);
      return false;
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Writes bytes as they are, plus a newline unless `raw`. */
  write(data: string | Buffer, raw = false): boolean {
    if (!this.child.stdin!.writable) return false;
    this.child.stdin!.write(data);
    if (!raw) return this.child.stdin!.write('\n');
    return true;
  }

  /** Resolves when stdin has drained (so a flood cannot buffer without bound in the test). */
  drained(): Promise<void> {
    const stdin = this.child.stdin!;
    if (!stdin.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      // Both listeners go once either fires, or a long flood piles up 'close' listeners.
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
  }

  send(message: Message): void {
    this.write(JSON.stringify(message));
  }

  waitFor(test: (m: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(`Hang guard: no matching message in ${timeoutMs} ms (exit: ${JSON.stringify(this.exitInfo)}); stderr tail: ${this.stderr.slice(-2000)}`),
        );
      }, timeoutMs);
      const done = (m: Message): void => {
        clearTimeout(timer);
        resolve(m);
      };
      this.#waiters.push({ test, resolve: done });
    });
  }

  request(method: string, params: Message | undefined, id: string | number, timeoutMs = 15_000): Promise<Message> {
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs);
  }

  /** Ends stdin and waits for exit; kills after the hang guard. */
  async close(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}

/** The modern per-request `_meta` envelope. */
export function modernMeta(version = '2026-07-28'): Message {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'reliability', version: '1.0.0' },
  };
}

export function modern(params: Message = {}): Message {
  return { ...params, _meta: modernMeta() };
}

/** Whether a request's params carry the 2026 envelope (then it is answered under 2026-07-28). */
export function isModernShaped(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as Message)._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  return ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo'].some(
    (key) => key in meta,
  );
}

/** The schema definition of each method's result, where the revision defines one. */
const RESULT_DEFINITIONS: Record<string, string> = {
  initialize: 'InitializeResult',
  'server/discover': 'DiscoverResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/**
 * Everything wrong with `message` as a response of `revision` to `method`
 * (when known). An error with `id: null` is allowed only for what JSON-RPC
 * 2.0 §5 requires it for (unreadable id: -32700 and -32600); its shape is
 * checked with the id substituted, as test/transport/stdio.test.ts does,
 * because the MCP schemas type ids as string | number.
 */
export function responseProblems(revision: RevisionName, message: Message, method?: string): string[] {
  const problems: string[] = [];
  let subject = message;
  if ('error' in message && message.id === null) {
    if (message.error?.code !== -32700 && message.error?.code !== -32600) problems.push(`id null with code ${message.error?.code}`);
    subject = { ...message, id: 0 };
  }
  if (!('result' in subject) && !('error' in subject)) problems.push('neither result nor error');
  problems.push(...schemaErrors(revision, 'JSONRPCMessage', subject));
  if ('error' in subject) {
    const { code, message: text } = subject.error ?? {};
    if (!Number.isInteger(code) || typeof text !== 'string') problems.push(`malformed error object ${JSON.stringify(subject.error)}`);
    // Internal details never reach the client (design: generic -32603).
    if (code === -32603 && typeof text === 'string' && /secret|stack|at .*\.js:\d+/.test(text)) problems.push(`leaky -32603: ${text}`);
  }
  if ('result' in subject && method !== undefined) {
    const definition = RESULT_DEFINITIONS[method];
    if (definition && hasDefinition(revision, definition))
      problems.push(...schemaErrors(revision, definition, subject.result).map((e) => `${definition}: ${e}`));
  }
  return problems;
}

/** A plain HTTP exchange over node:http (no fetch pooling surprises), bounded by a hang guard. */
export function httpSend(
  url: URL | string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number; agent?: any },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {}, ...(options.agent !== undefined ? { agent: options.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(guard);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    // A timer, not req.setTimeout: that adds a listener to a pooled socket per request.
    const guard = setTimeout(() => req.destroy(new Error('Hang guard: HTTP exchange timed out')), options.timeoutMs ?? 15_000);
    req.on('close', () => clearTimeout(guard));
    req.on('error', reject);
    req.end(options.body);
  });
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

/** A child HTTP server started from the fixture script; resolves once it prints its URL. */
export class HttpChild {
  readonly child: ChildProcess;
  readonly url: Promise<URL>;
  stderr = '';
  stdout = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(script: string, args: string[], env: Record<string, string> = {}, urlPattern = /(http:\/\/127\.0\.0\.1:\d+\/[^\s"]*)/) {
    this.child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.url = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Hang guard: server did not start; stderr: ${this.stderr}`)), 20_000);
      const look = (): void => {
        const match = urlPattern.exec(this.stdout) ?? urlPattern.exec(this.stderr);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1] as string));
        }
      };
      this.child.stdout!.on('data', (c: Buffer) => {
        this.stdout = (this.stdout + c.toString()).slice(-100_000);
        look();
      });
      this.child.stderr!.on('data', (c: Buffer) => {
        this.stderr = (this.stderr + c.toString()).slice(-100_000);
        look();
      });
      void this.exited.then(() => reject(new Error(`Server exited before starting; stderr: ${this.stderr}`)));
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}

/** Headers of a 2026-07-28 POST for `body` (mirrors Mcp-Method and Mcp-Name when it can). */
export function modernHeaders(body: unknown, url: URL): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    Host: url.host,
  };
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const m = body as Message;
    if (typeof m.method === 'string' && /^[\x20-\x7e]*$/.test(m.method)) headers['Mcp-Method'] = m.method;
    const name = m.params?.name ?? m.params?.uri;
    if (typeof name === 'string') headers['Mcp-Name'] = /^[\x20-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  }
  return headers;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
