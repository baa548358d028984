/**
 * A raw JSON-RPC client over a real stdio pipe, for tests that need to see
 * exactly what the server writes (the SDK clients hide the wire).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = `${ROOT}bin/skillport.js`;
export const FIXTURE = `${ROOT}test/fixtures/servers/live.mjs`;

export type Message = Record<string, any>;

export class RawStdioClient {
  readonly child: ChildProcess;
  readonly received: Message[] = [];
  readonly rawLines: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  #waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  #nextId = 1000;

  constructor(script: string, args: string[] = [], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    // 'close' comes after the pipes are drained, so stderr is complete once this resolves.
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.rawLines.push(line);
      const message = JSON.parse(line) as Message;
      this.received.push(message);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.test(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  static fixture(env: Record<string, string> = {}): RawStdioClient {
    return new RawStdioClient(FIXTURE, [], env);
  }

  /** Writes one line as it is (for malformed input). */
  writeLine(text: string): void {
    this.child.stdin!.write(`${text}\n`);
  }

  send(message: Message): void {
    this.writeLine(JSON.stringify(message));
  }

  /** Resolves with the first message (already received or future) that passes `test`. */
  waitFor(test: (m: Message) => boolean, timeoutMs = 5000): Promise<Message> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Timed out; received: ${JSON.stringify(this.received.slice(-5))}\n${this.stderr}`)), timeoutMs);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Resolves once stderr contains `text`; stderr and stdout are separate pipes, so order between them is not kept. */
  async waitForStderr(text: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`stderr never contained ${JSON.stringify(text)}: ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params?: Message, id: string | number = this.#nextId++): Promise<Message> {
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m));
  }

  notify(method: string, params?: Message): void {
    const message: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** Messages received so far that are notifications with this method. */
  notifications(method: string): Message[] {
    return this.received.filter((m) => m.method === method && !('id' in m));
  }

  async close(): Promise<number | null> {
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** The modern per-request `_meta` envelope. */
export function modernMeta(version = '2026-07-28'): Message {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  };
}

/** Params with the modern envelope added. */
export function modern(params: Message = {}): Message {
  return { ...params, _meta: modernMeta() };
}

/** Initializes a legacy session at `version` and sends initialized. */
export async function initialize(client: RawStdioClient, version: string): Promise<Message> {
  const response = await client.request('initialize', {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  });
  client.notify('notifications/initialized');
  return response;
}
