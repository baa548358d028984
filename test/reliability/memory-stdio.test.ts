/**
 * Memory a client can pin, over stdio: what the server would otherwise keep
 * for as long as the client likes (remembered completions of long values,
 * subscriptions, listen requests), what it would build past a limit before
 * refusing (a prompt, a file), and what it would read while nobody reads its
 * answers. Each limit is set small and crossed round after round; RSS must
 * stay flat, and a small V8 heap turns a leak or an oversized build into a
 * crash rather than a number.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { GUARD, HTTP_FIXTURE, MiB, rssOf, SOAK, sleep } from './_harness.js';
import {
  BIG_FILE_BYTES,
  BIG_URI,
  described,
  flat,
  growthFigure,
  MANY_PROMPTS,
  MID_FILE_BYTES,
  MID_URI,
  memoryFolder,
  PAGE_URI,
  rounds,
  USES,
} from './_memory.js';
import { Figures, writeSection } from './_report.js';

const figures = new Figures();
let folder: ReturnType<typeof memoryFolder>;
beforeAll(() => {
  folder = memoryFolder();
});
afterAll(() => {
  folder.remove();
  writeSection(
    'memory-stdio',
    `### Memory a client can pin (stdio)\n\nEach limit set small and crossed, round after round${SOAK ? ', at the sizes of the original reports' : ''}; RSS sampled after each round.\n\n${figures.table()}`,
  );
});

/** A V8 heap far below what the unbounded cases needed: an overrun crashes the server. */
const HEAP = { NODE_OPTIONS: '--max-old-space-size=96' };

function serve(options: Record<string, unknown>): RawStdioClient {
  return RawStdioClient.spawn(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir: folder.dir, stdio: true, ...options }), ...HEAP });
}

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'memory', version: '1.0.0' } };

describe('memory over stdio', () => {
  it(
    'remembers no completion answer for a long value: distinct long values leave RSS flat',
    async () => {
      const client = serve({});
      const size = SOAK ? 3_900_000 : 1_000_000;
      const count = SOAK ? 256 : 48;
      let id = 0;
      const samples = await rounds(client.pid, async (round) => {
        for (let i = 0; i < count; i++) {
          const value = `${round}-${i}-`.padEnd(size, 'abcdefghij'[i % 10]);
          client.send({
            jsonrpc: '2.0',
            id: ++id,
            method: 'completion/complete',
            params: modern({ ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'colour', value } }),
          });
          await client.drained();
        }
        const last = await client.waitFor((m) => m.id === id, 30_000 * GUARD);
        expect(last.result.completion.values).toEqual([]);
        client.received.length = 0;
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      expect((await client.close()).code).toBe(0);
      figures.add(`Completion: ${count} distinct ${size / 1e6} MB values per round, RSS`, described(samples, 48 * MiB));
    },
    120_000 * GUARD,
  );

  it(
    'stops building a prompt once it passes maxPromptBytes, in every substitution format',
    async () => {
      const client = serve({ limits: { maxPromptBytes: 1024 * 1024 } });
      const text = 'x'.repeat(100_000);
      let id = 0;
      const samples = await rounds(client.pid, async () => {
        for (let i = 0; i < (SOAK ? 8 : 1); i++) {
          for (const name of MANY_PROMPTS) {
            const args = name === 'many-claude' ? { arguments: text } : { text };
            const refused = await client.request('prompts/get', modern({ name, arguments: args }), ++id, 30_000 * GUARD);
            expect(refused.error, name).toEqual({ code: -32603, message: expect.any(String) });
          }
        }
        // Under the limit the same prompts are served.
        const fine = await client.request('prompts/get', modern({ name: 'many', arguments: { text: 'y' } }), ++id);
        expect(fine.result.messages[0].content.text).toHaveLength(USES * 2);
        client.received.length = 0;
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      expect((await client.close()).code).toBe(0);
      figures.add(
        `Prompt: a 100 KB argument used ${USES} times (4 formats), maxPromptBytes 1 MiB, heap 96 MiB`,
        `-32603 each; ${described(samples, 48 * MiB)}`,
      );
    },
    120_000 * GUARD,
  );

  it(
    'caps legacy subscriptions per session and their URI length with -32602',
    async () => {
      const client = serve({ watch: true, limits: { maxSubscriptions: 16, maxSubscriptionUriBytes: 512 } });
      await client.request('initialize', INIT, 0);
      client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const size = SOAK ? 3_900_000 : 1_000_000;
      const count = SOAK ? 200 : 40;
      let id = 0;
      const samples = await rounds(client.pid, async (round) => {
        for (let i = 0; i < count; i++) {
          client.send({ jsonrpc: '2.0', id: ++id, method: 'resources/subscribe', params: { uri: `skill://pick/${round}-${i}/`.padEnd(size, 'u') } });
          await client.drained();
        }
        const last = await client.waitFor((m) => m.id === id, 30_000 * GUARD);
        expect(last.error?.code).toBe(-32602);
        client.received.length = 0;
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      // Short URIs: the first 16 are kept, the 17th is refused, and one already held is fine again.
      for (let i = 0; i < 16; i++) expect((await client.request('resources/subscribe', { uri: `skill://pick/${i}` }, `s${i}`)).result).toEqual({});
      expect((await client.request('resources/subscribe', { uri: 'skill://pick/16' }, 's16')).error?.code).toBe(-32602);
      expect((await client.request('resources/subscribe', { uri: 'skill://pick/3' }, 's3-again')).result).toEqual({});
      expect((await client.close()).code).toBe(0);
      figures.add(
        `Subscriptions: ${count} URIs of ${size / 1e6} MB per round (maxSubscriptions 16, 512-byte URIs)`,
        `-32602 each; ${described(samples, 48 * MiB)}`,
      );
    },
    120_000 * GUARD,
  );

  it(
    'keeps no open listen request its parameters, and refuses a filter over the caps with -32602',
    async () => {
      const client = serve({ watch: true, stdio: { maxListenRequests: 200 }, limits: { maxSubscriptions: 4, maxSubscriptionUriBytes: 512 } });
      const pad = 'p'.repeat(SOAK ? 3_900_000 : 3_000_000);
      let id = 0;
      const samples = await rounds(client.pid, async () => {
        const ids: number[] = [];
        for (let i = 0; i < 10; i++) {
          ids.push(++id);
          client.send({
            jsonrpc: '2.0',
            id,
            method: 'subscriptions/listen',
            params: modern({ notifications: { promptsListChanged: true, resourceSubscriptions: ['skill://pick'] }, pad }),
          });
          await client.drained();
        }
        for (const listen of ids) {
          await client.waitFor(
            (m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta['io.modelcontextprotocol/subscriptionId'] === listen,
            30_000 * GUARD,
          );
        }
        client.received.length = 0;
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      const many = await client.request('subscriptions/listen', modern({ notifications: { resourceSubscriptions: ['a', 'b', 'c', 'd', 'e'] } }), 'many');
      expect(many.error?.code).toBe(-32602);
      const long = await client.request('subscriptions/listen', modern({ notifications: { resourceSubscriptions: [`skill://${'u'.repeat(600)}`] } }), 'long');
      expect(long.error?.code).toBe(-32602);
      expect((await client.close()).code).toBe(0);
      figures.add(`Listen: 10 open listen requests with ${Math.round(pad.length / 1e6)} MB of parameters per round`, described(samples, 48 * MiB));
    },
    120_000 * GUARD,
  );

  it(
    'refuses a resource over maxResourceBytes without reading it whole',
    async () => {
      // Between the two files: the big one is over it, the other under.
      const client = serve({ limits: { maxResourceBytes: MID_FILE_BYTES + MiB } });
      let id = 0;
      const samples = await rounds(client.pid, async () => {
        for (let i = 0; i < 8; i++) {
          const refused = await client.request('resources/read', modern({ uri: BIG_URI }), ++id, 30_000 * GUARD);
          expect(refused.error).toEqual({ code: -32603, message: expect.any(String) });
        }
        const fine = await client.request('resources/read', modern({ uri: MID_URI }), ++id, 30_000 * GUARD);
        expect(fine.result.contents[0].blob.length).toBeGreaterThan(0);
        client.received.length = 0;
      });
      expect(flat(samples, 48 * MiB), `RSS MiB: ${samples.map((s) => Math.round(s / MiB))}`).toBe(true);
      expect((await client.close()).code).toBe(0);
      figures.add(
        `Resource of ${Math.round(BIG_FILE_BYTES / MiB)} MiB over maxResourceBytes (${(MID_FILE_BYTES + MiB) / MiB} MiB), 8 reads per round`,
        `-32603 each; ${described(samples, 48 * MiB)}`,
      );
    },
    120_000 * GUARD,
  );
});

/**
 * A stdio server whose stdout the test stops reading: it counts answer lines
 * (the cases here send no notifications) without keeping them, as a flood's
 * answers would fill the test's own memory.
 */
class Flood {
  readonly child: ChildProcess;
  answered = 0;

  constructor(options: Record<string, unknown>) {
    this.child = spawn(process.execPath, [HTTP_FIXTURE], {
      env: { ...process.env, RELIABILITY_OPTIONS: JSON.stringify({ dir: folder.dir, stdio: true, ...options }) },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.child.stdin!.on('error', () => {});
    this.child.stdout!.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.answered++;
    });
  }

  /** Writes `line`; false when stdin then stays full for two seconds (the server stopped reading). */
  async write(line: string): Promise<boolean> {
    const stdin = this.child.stdin!;
    if (stdin.write(line)) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<boolean>((resolve) => stdin.once('drain', () => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2000))),
    ]);
    clearTimeout(timer);
    return drained;
  }

  async until(count: number): Promise<void> {
    for (let i = 0; i < 600 * GUARD && this.answered < count; i++) await sleep(100);
  }

  async close(): Promise<number | null> {
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => this.child.once('exit', resolve));
    clearTimeout(timer);
    return code;
  }
}

describe('backpressure over stdio', () => {
  async function flood(options: Record<string, unknown>, line: (id: number) => string, total: number): Promise<{ written: number; growth: number }> {
    const server = new Flood(options);
    await server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: modern() })}\n`);
    await server.until(1);
    const before = rssOf(server.child.pid!);
    server.child.stdout!.pause();
    // A line is sent once written, even when stdin then stays full.
    let written = 0;
    while (written < total && (await server.write(line(++written))));
    // What was read is still being worked on: the highest RSS over the next two seconds.
    let peak = rssOf(server.child.pid!);
    for (let i = 0; i < 20; i++) {
      await sleep(100);
      peak = Math.max(peak, rssOf(server.child.pid!));
    }
    const growth = peak - before;
    // Reading again: everything sent is answered.
    server.child.stdout!.resume();
    for (let id = written + 1; id <= total; id++) await server.write(line(id));
    await server.until(total + 1);
    expect(server.answered).toBe(total + 1);
    expect(await server.close()).toBe(0);
    return { written, growth };
  }

  it(
    'stops reading stdin while stdout holds more than maxBufferedOutputBytes, and answers everything once read',
    async () => {
      const total = SOAK ? 100_000 : 5000;
      const line = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: modern({ uri: PAGE_URI }) })}\n`;
      const { written, growth } = await flood({ stdio: { maxBufferedOutputBytes: 1024 * 1024 } }, line, total);
      expect(written).toBeLessThan(total);
      expect(growth, `RSS grew ${Math.round(growth / MiB)} MiB`).toBeLessThan(48 * MiB);
      const stopped = SOAK ? `after ${written}` : 'before the end';
      figures.add(
        `${total} reads of a 10 KB page with stdout unread (maxBufferedOutputBytes 1 MiB)`,
        `stdin no longer read ${stopped}; ${growthFigure(growth, 48 * MiB)}; all answered once read`,
      );
    },
    180_000 * GUARD,
  );

  it(
    'reads at most maxConcurrentRequests resources at once while stdout is unread',
    async () => {
      const total = SOAK ? 400 : 60;
      const line = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: modern({ uri: MID_URI }) })}\n`;
      const { growth } = await flood({ stdio: { maxBufferedOutputBytes: 1024 * 1024, maxConcurrentRequests: 4 } }, line, total);
      // Four reads at a time, each holding the file, its base64, the answer's text and its copy
      // in the pipe's queue (about 16 file sizes), plus the garbage of building them not yet collected.
      const bound = 48 * MiB + 24 * MID_FILE_BYTES;
      expect(growth, `RSS grew ${Math.round(growth / MiB)} MiB`).toBeLessThan(bound);
      figures.add(
        `${total} reads of a ${MID_FILE_BYTES / MiB} MiB file with stdout unread (maxConcurrentRequests 4)`,
        `${growthFigure(growth, bound)}; all answered once read`,
      );
    },
    180_000 * GUARD,
  );
});
