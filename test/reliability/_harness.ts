/**
 * Shared pieces of the reliability suite: the schema referee for any
 * response, child RSS sampling, and a child HTTP server. The raw clients are
 * the tests' own: `RawStdioClient` (test/_stdio-client.ts), `httpSend` and
 * the header builders (test/_http-client.ts), `modern` (test/_wire.ts).
 * Every wait is bounded: time limits here are hang guards, never thresholds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { hasDefinition, type RevisionName, schemaErrors } from '../_schema.js';
import { BIN, FIXTURE, ROOT } from '../_stdio-client.js';
import type { Message } from '../_wire.js';

export type { Message };

export { BIN, FIXTURE, ROOT };
export const VALID_SKILLS = `${ROOT}test/fixtures/skills/valid`;
export const HTTP_FIXTURE = `${ROOT}test/reliability/fixtures/server.mjs`;
export const HTTP_DIST = `${ROOT}dist/http.js`;

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
 * checked with the id substituted, as test/transport/stdio/stdio.test.ts does,
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

/**
 * What a client sent under each id, to judge replies by when ids repeat on
 * purpose (the stdio fuzzer writes batches with colliding ids): a reply may
 * answer any request sent under its id. Every method and era is kept, once
 * each, never only the first few: with the first eight kept, seed 4242 sent a
 * 90th request under the id "dup", a ping without the envelope, and its legacy
 * answer `{}` was judged as the answer to the 2026-07-28 requests kept (seed
 * 9090: a legacy tools/list answer, the 623rd "dup", judged as
 * resources/templates/list). Distinct pairs, so their number is bounded by the
 * methods sent, not by the length of the run.
 */
export class SentRequests {
  readonly #byId = new Map<string, Map<string, { method: string; modern: boolean }>>();

  /** Records a request: `modern` when it carries the 2026-07-28 `_meta` envelope. */
  record(id: unknown, method: string, modern: boolean): void {
    const key = JSON.stringify(id);
    let seen = this.#byId.get(key);
    if (!seen) this.#byId.set(key, (seen = new Map()));
    seen.set(`${modern ? 'modern' : 'legacy'} ${method}`, { method, modern });
  }

  /**
   * Undefined when `message` is a valid answer to some request sent under its
   * id (a request without the envelope answered as `legacy`), else what is
   * wrong with it. With id null, or an id never sent, it must be a valid
   * answer of either era to some request.
   */
  judge(message: Message, legacy: RevisionName): string | undefined {
    const origins = message.id === null ? [] : [...(this.#byId.get(JSON.stringify(message.id))?.values() ?? [])];
    const candidates: Array<[RevisionName, string | undefined]> = origins.map((o) => [o.modern ? '2026-07-28' : legacy, o.method]);
    if (candidates.length === 0) candidates.push([legacy, undefined], ['2026-07-28', undefined]);
    // The first that fits ends the search: under a busy id there are dozens of candidates.
    let first: { revision: RevisionName; method: string | undefined; problems: string[] } | undefined;
    for (const [revision, method] of candidates) {
      const problems = responseProblems(revision, message, method);
      if (problems.length === 0) return undefined;
      first ??= { revision, method, problems };
    }
    const others = candidates.length > 1 ? ` (nor ${candidates.length - 1} other requests sent under this id)` : '';
    return `${first?.revision} ${first?.method ?? '?'}${others}: ${first?.problems.join('; ')} in ${JSON.stringify(message).slice(0, 500)}`;
  }
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
