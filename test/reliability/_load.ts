/**
 * A load driver for a Streamable HTTP endpoint on 127.0.0.1: opens N
 * keep-alive connections at once, then keeps all N busy with a mix of
 * 2026-07-28 prompts/list (every page), prompts/get and
 * completion/complete until a deadline, checking each answer. Each full
 * listing is compared with the catalogue versions the caller declares, so a
 * page set mixed from two catalogues (or an empty one) is caught.
 */
import { Agent, request as httpRequest } from 'node:http';
import { modernHeaders } from '../_http-client.js';
import { schemaErrors } from '../_schema.js';
import { modern } from '../_wire.js';
import { type Message, rssOf } from './_harness.js';

export interface LoadOptions {
  url: URL;
  connections: number;
  durationMs: number;
  /** Sorted prompt-name lists a full listing may equal. */
  versions: string[][];
  /** Prompt names that exist in every version, for prompts/get. */
  stable: Array<{ name: string; arguments?: Record<string, string> }>;
  /** Server pid, for RSS samples. */
  pid: number;
  /** Called once a second while the load runs. */
  tick?: () => void;
  /** Only one full listing per connection (to learn a catalogue). */
  listOnly?: boolean;
}

export interface LoadReport {
  connections: number;
  opened: number;
  requests: number;
  lists: number;
  errors: string[];
  mixed: string[];
  rss: number[];
  durationMs: number;
  /** Distinct catalogues among the full listings. */
  versionsSeen: number;
}

function post(url: URL, agent: Agent, body: Message): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: modernHeaders(body, url) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(guard);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    const guard = setTimeout(() => req.destroy(new Error('Hang guard: no answer in 30 s')), 30_000);
    req.on('close', () => clearTimeout(guard));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Runs the load and reports; never throws for server faults (they are counted). */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { url, connections } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, keepAliveMsecs: 1000 });
  const report: LoadReport = { connections, opened: 0, requests: 0, lists: 0, errors: [], mixed: [], rss: [], durationMs: options.durationMs, versionsSeen: 0 };
  const seen = new Set<string>();
  const known = new Set(options.versions.map((v) => JSON.stringify(v)));
  let id = 0;
  const fail = (what: string): void => {
    if (report.errors.length < 50) report.errors.push(what);
    else report.errors.length++;
  };

  async function call(method: string, params: Message, validate: string | undefined): Promise<Message | undefined> {
    const body = { jsonrpc: '2.0', id: ++id, method, params: modern(params) };
    let answer: { status: number; body: string };
    try {
      answer = await post(url, agent, body);
    } catch (error) {
      fail(`${method}: ${(error as Error).message}`);
      return undefined;
    }
    report.requests++;
    if (answer.status !== 200) return void fail(`${method}: status ${answer.status} ${answer.body.slice(0, 200)}`);
    let message: Message;
    try {
      message = JSON.parse(answer.body) as Message;
    } catch {
      return void fail(`${method}: body is not JSON: ${answer.body.slice(0, 200)}`);
    }
    if (message.error) return void fail(`${method}: ${JSON.stringify(message.error)}`);
    // Schema checks on a sample keep the client from becoming the bottleneck.
    if (validate && id % 25 === 0) {
      const problems = schemaErrors('2026-07-28', validate, message.result);
      if (problems.length > 0) fail(`${method}: ${problems.join('; ')}`);
    }
    return message.result as Message;
  }

  async function listAll(): Promise<void> {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await call('prompts/list', cursor ? { cursor } : {}, 'ListPromptsResult');
      if (!result) return;
      names.push(...(result.prompts as Message[]).map((p) => p.name as string));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    report.lists++;
    const sorted = [...names].sort();
    seen.add(JSON.stringify(sorted));
    report.versionsSeen = seen.size;
    if (!known.has(JSON.stringify(sorted)) && report.mixed.length < 20) report.mixed.push(sorted.join(','));
  }

  // Open every connection at once.
  const opened = await Promise.all(Array.from({ length: connections }, () => call('server/discover', {}, 'DiscoverResult')));
  report.opened = opened.filter(Boolean).length;
  report.rss.push(rssOf(options.pid));

  if (options.listOnly) {
    await Promise.all(Array.from({ length: connections }, () => listAll()));
    agent.destroy();
    return report;
  }
  const deadline = Date.now() + options.durationMs;
  const ticker = setInterval(() => {
    report.rss.push(rssOf(options.pid));
    options.tick?.();
  }, 1000);
  let worker = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      let step = worker++;
      while (Date.now() < deadline) {
        switch (step++ % 3) {
          case 0:
            await listAll();
            break;
          case 1: {
            const prompt = options.stable[step % options.stable.length]!;
            await call('prompts/get', { name: prompt.name, arguments: prompt.arguments ?? {} }, 'GetPromptResult');
            break;
          }
          default:
            await call('completion/complete', { ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'language', value: 'e' } }, 'CompleteResult');
        }
      }
    }),
  );
  clearInterval(ticker);
  report.rss.push(rssOf(options.pid));
  agent.destroy();
  return report;
}
