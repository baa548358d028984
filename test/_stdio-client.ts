/**
 * The raw stdio client: newline-delimited JSON-RPC to a server, and every
 * line it writes back, for tests that must see exactly what goes over the
 * wire (the SDK clients hide it). One class over two kinds of server: a child
 * process over real pipes (`spawn`, `fixture`), or `serveStdio` in this
 * process over in-memory streams (`inProcess`).
 *
 * It tolerates any output: a line that is not a JSON object is kept in
 * `garbage` instead of thrown, and fails every wait from then on, so a broken
 * server fails the test that waits rather than the process. Lines are read
 * as Buffer pieces, so multi-megabyte lines cost linear time. Every wait is
 * bounded: the limits are hang guards, never thresholds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Logger, Server } from '../src/index.js';
import { type StdioOptions, type StdioServer, serveStdio } from '../src/stdio.js';
import { initializeParams, type Message } from './_wire.js';

export type { Message } from './_wire.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = `${ROOT}bin/skillport.js`;
export const FIXTURE = `${ROOT}test/fixtures/servers/live.mjs`;

/** How the server ended: a child's exit code and signal; an in-process server ends with code 0. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Raw lines are kept up to this many characters in all; past it `rawLines` throws rather than mislead. */
const RAW_LINES_KEPT = 8 * 1024 * 1024;
/** The tail of stderr kept (a fuzz run logs a lot at debug level). */
const STDERR_KEPT = 1_000_000;
/** Default hang guard of a wait. */
const WAIT_MS = 15_000;

interface Waiter {
  test: (m: Message) => boolean;
  resolve: (m: Message) => void;
  reject: (error: Error) => void;
}

/** The two ends of a server's stdio, however it runs. */
interface Ends {
  stdin: Writable;
  stdout: Readable;
  exited: Promise<Exit>;
  child?: ChildProcess;
  running?: StdioServer;
}

export class RawStdioClient {
  /** Every JSON object the server wrote, in order (tests may empty it to bound memory). */
  readonly received: Message[] = [];
  /** Lines that were not a JSON object: always a failure. */
  readonly garbage: string[] = [];
  /** The tail of what the server logged: its stderr, or its logger in-process. */
  stderr = '';
  /** Resolves once the server has ended (a child: after its pipes are drained, so stderr is complete). */
  readonly exited: Promise<Exit>;
  /** Set once the server has ended. */
  exitInfo: Exit | undefined;
  readonly #ends: Ends;
  #rawLines: string[] | undefined = [];
  #rawLength = 0;
  #pending: Buffer[] = [];
  #waiters: Waiter[] = [];
  #nextId = 1000;

  private constructor(ends: Ends) {
    this.#ends = ends;
    this.exited = ends.exited.then((exit) => {
      this.exitInfo = exit;
      return exit;
    });
    // A server that died makes writes fail with EPIPE; the test sees the exit instead.
    ends.stdin.on('error', () => {});
    ends.stdout.on('data', (chunk: Buffer | string) => this.#data(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  }

  /** A child process running `script` with `args`, over real pipes. */
  static spawn(script: string, args: string[] = [], env: Record<string, string> = {}): RawStdioClient {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let exit: Exit | undefined;
    // 'close' comes after the pipes are drained, so stderr is complete once `exited` resolves.
    const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve(exit ?? { code, signal })));
    const client = new RawStdioClient({ stdin: child.stdin!, stdout: child.stdout!, exited, child });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      client.exitInfo = exit;
    });
    child.stderr!.on('data', (chunk: Buffer) => client.#log(chunk.toString()));
    return client;
  }

  /** The fixture server (test/fixtures/servers/live.mjs) in a child process. */
  static fixture(env: Record<string, string> = {}): RawStdioClient {
    return RawStdioClient.spawn(FIXTURE, [], env);
  }

  /**
   * `serveStdio(server)` in this process over in-memory streams: what the
   * library's users run, without a process in between. What the transport
   * logs lands in `stderr`, one line per call, as the CLI writes it.
   */
  static inProcess(server: Server, options: Omit<StdioOptions, 'input' | 'output'> = {}): RawStdioClient {
    const input = new PassThrough();
    const output = new PassThrough();
    let client: RawStdioClient | undefined;
    const line =
      (level: string) =>
      (message: string, details?: unknown): void => {
        if (client) client.#log(`${level}: ${message}${details === undefined ? '' : ` ${String(details)}`}\n`);
      };
    const logger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
    const running = serveStdio(server, { logger, ...options, input, output });
    client = new RawStdioClient({
      stdin: input,
      stdout: output,
      exited: running.done.then(() => ({ code: 0, signal: null })),
      running,
    });
    return client;
  }

  /** The child process (not for an in-process server). */
  get child(): ChildProcess {
    if (!this.#ends.child) throw new Error('An in-process server has no child process');
    return this.#ends.child;
  }

  /** The child's pid (not for an in-process server). */
  get pid(): number {
    return this.child.pid!;
  }

  /** The running `serveStdio` of an in-process server (for `shutdown()`). */
  get running(): StdioServer {
    if (!this.#ends.running) throw new Error('A child process is not served in this process');
    return this.#ends.running;
  }

  /** Every line the server wrote, as written, while they total under 8 MiB. */
  get rawLines(): readonly string[] {
    if (!this.#rawLines) throw new Error(`The server wrote more than ${RAW_LINES_KEPT} characters of lines; they were not all kept`);
    return this.#rawLines;
  }

  #log(text: string): void {
    this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
  }

  #data(chunk: Buffer): void {
    // Pieces, not a growing string: multi-megabyte lines must not cost quadratic time here either.
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      this.#pending.push(chunk.subarray(start, at));
      this.#line(Buffer.concat(this.#pending).toString('utf8'));
      this.#pending = [];
      start = at + 1;
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #line(line: string): void {
    if (this.#rawLines) {
      this.#rawLength += line.length;
      if (this.#rawLength <= RAW_LINES_KEPT) this.#rawLines.push(line);
      else this.#rawLines = undefined;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.garbage.push(line.slice(0, 500));
      const error = this.#garbageError();
      for (const waiter of this.#waiters) waiter.reject(error);
      this.#waiters = [];
      return;
    }
    const m = message as Message;
    this.received.push(m);
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.test(m)) return true;
      w.resolve(m);
      return false;
    });
  }

  #garbageError(): Error {
    return new Error(`The server wrote lines that are not JSON objects: ${JSON.stringify(this.garbage.slice(0, 3))}`);
  }

  /** Writes bytes as they are, plus a newline unless `raw`; false once stdin is closed. */
  write(data: string | Buffer, raw = false): boolean {
    const { stdin } = this.#ends;
    if (!stdin.writable) return false;
    stdin.write(data);
    if (!raw) return stdin.write('\n');
    return true;
  }

  /** Resolves when stdin has drained (so a flood cannot buffer without bound in the test). */
  drained(): Promise<void> {
    const { stdin } = this.#ends;
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

  /** Writes one message as one line. */
  send(message: Message): void {
    this.write(JSON.stringify(message));
  }

  /** Resolves with the first message (already received or future) that passes `test`; rejects after the hang guard or on garbage. */
  waitFor(test: (m: Message) => boolean, timeoutMs = WAIT_MS): Promise<Message> {
    if (this.garbage.length > 0) return Promise.reject(this.#garbageError());
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `Hang guard: no matching message in ${timeoutMs} ms (exit: ${JSON.stringify(this.exitInfo)}); ` +
              `last received: ${JSON.stringify(this.received.slice(-5)).slice(0, 2000)}; stderr tail: ${this.stderr.slice(-2000)}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Resolves once stderr contains `text`; stderr and stdout are separate pipes, so order between them is not kept. */
  async waitForStderr(text: string, timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`Hang guard: stderr never contained ${JSON.stringify(text)}: ${this.stderr.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params?: Message, id: string | number = this.#nextId++, timeoutMs = WAIT_MS): Promise<Message> {
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs);
  }

  /** Sends a notification. */
  notify(method: string, params?: Message): void {
    const message: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** Messages received so far that are notifications with this method. */
  notifications(method: string): Message[] {
    return this.received.filter((m) => m.method === method && !('id' in m));
  }

  /** Ends stdin and waits for the server to end; a child is killed after the hang guard. */
  async close(timeoutMs = 10_000): Promise<Exit> {
    if (this.exitInfo) return this.exitInfo;
    this.#ends.stdin.end();
    const timer = setTimeout(() => this.#ends.child?.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}

/** Initializes a session at `version` and sends initialized. */
export async function initialize(client: RawStdioClient, version: string): Promise<Message> {
  const response = await client.request('initialize', initializeParams(version));
  client.notify('notifications/initialized');
  return response;
}
