// Each performance trick of src/ measured on its own, in one process: the
// same work with the trick and without it, in µs per request (median of
// rounds). PERFORMANCE.md quotes its output; `npm run bench:tricks` writes
// bench/TRICKS.json. Run `npm run build` first.
//
//   node bench/tricks.mjs [--rounds=5] [--out=bench/TRICKS.json]
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { resolveCompleter } from '../dist/core/completers.js';
import { createCompletionIndex } from '../dist/core/rank.js';
import { createServer, definePrompt, staticPrompts } from '../dist/index.js';
import { nestingDepthExceeds, serializeMessage, splitEncodedMessage } from '../dist/jsonrpc/messages.js';
import { encodePrompt } from '../dist/protocol/rev2025-06-18/encode.js';
import { SHAPE_2025_11_25 } from '../dist/protocol/rev2025-11-25/index.js';
import { LazySignal } from '../dist/server/in-flight.js';
import { InFlightTable } from '../dist/server/in-flight-table.js';
import { MetricsRegistry } from '../dist/telemetry/registry.js';
import { readTracingConfig } from '../dist/telemetry/tracing/config.js';
import { encodeProtobuf } from '../dist/telemetry/tracing/encode.js';
import { createOtlpSender } from '../dist/telemetry/tracing/otlp-http.js';
import { completionValues, PREFIXES } from './lib/promptset.mjs';
import { median } from './lib/stats.mjs';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, out: { type: 'string' } } });
const ROUNDS = Number(flags.rounds);
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** µs per call of `fn` over a round of about 0.3 s, median over the rounds. */
async function time(fn) {
  let n = 1;
  // Calibrate: enough calls for about 0.3 s.
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (ms > 50) {
      n = Math.max(1, Math.round((n * 300) / ms));
      break;
    }
    n *= 4;
  }
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    rounds.push(Number(process.hrtime.bigint() - start) / 1e3 / n);
  }
  return median(rounds);
}

/** Bytes a transport would write for `response`: the encoded parts when it has them. */
function wireBytes(response) {
  const parts = splitEncodedMessage(response);
  if (parts) return Buffer.byteLength(parts.head) + parts.result.byteLength + 1;
  return Buffer.from(serializeMessage(response)).byteLength;
}

function listing(count) {
  return Array.from({ length: count }, (_, i) =>
    definePrompt({
      name: `gen_${String(i).padStart(4, '0')}`,
      description: `Generated prompt number ${i}, for listing.`,
      arguments: [{ name: 'topic', description: 'What it is about', required: i % 2 === 0 }],
      get: () => 'x',
    }),
  );
}

const cases = [];
const silent = { debug() {}, info() {}, warn() {}, error() {} };
async function compare(id, what, withTrick, without, note) {
  const on = await time(withTrick);
  const off = await time(without);
  cases.push({ id, what, withTrick: on, without: off, saved: off - on, factor: off / on, note });
  console.error(`${id}: ${on.toFixed(2)} µs with, ${off.toFixed(2)} µs without (${(off / on).toFixed(1)}×)`);
}

// 1. A list page encoded once: the wire form, its JSON text and its UTF-8 bytes
// are made for the first request of a catalogue version and shared.
{
  const prompts = listing(1000);
  const server = createServer({ name: 'b', version: '1', prompts: staticPrompts(prompts), pageSize: 1000 });
  const connection = server.connect({ send() {} });
  const request = (id) => ({ jsonrpc: '2.0', id, method: 'prompts/list', params: { _meta: META } });
  const envelope = {
    resultType: 'complete',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'b', version: '1' } },
    ttlMs: 10_000,
    cacheScope: 'public',
  };
  await compare(
    'encoded-list',
    'prompts/list, 1,000 prompts on one page, 2026-07-28: the answer as bytes to write',
    async (i) => wireBytes(await connection.receive(request(i))),
    // Without: what each request would do, from the same catalogue (its lookup and the request's handling left out).
    (i) =>
      Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: i, result: { prompts: prompts.map((p) => encodePrompt(p.prompt, SHAPE_2025_11_25)), ...envelope } }))
        .byteLength,
    'src/jsonrpc/encoded.ts; pages from core/paginate.ts, encoders in rev2025-06-18/registry.ts, envelope in rev2026-07-28/index.ts',
  );
}

// 2. A prompt whose output is the same for every request (`definePrompt({ output })`).
{
  const body = 'Review the change for correctness, security and style. '.repeat(74);
  const server = createServer({
    name: 'b',
    version: '1',
    prompts: staticPrompts([definePrompt({ name: 'fixed', output: body }), definePrompt({ name: 'built', get: () => body })]),
  }).connect({ send() {} });
  const request = (id, name) => ({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name, _meta: META } });
  await compare(
    'encoded-output',
    `prompts/get, a ${(body.length / 1024).toFixed(1)} KB body, 2026-07-28: output (encoded once) against get (built per request)`,
    async (i) => wireBytes(await server.receive(request(i, 'fixed'))),
    async (i) => wireBytes(await server.receive(request(i, 'built'))),
    'core/prompts.ts fixedResult, skills/catalogue/entries.ts',
  );
}

// 3. Request signals made on first read: most handlers never read theirs.
{
  const kept = new Array(1024);
  await compare(
    'lazy-signal',
    'a request context whose signal nobody reads, kept as long as a request lives',
    (i) => {
      kept[i & 1023] = new LazySignal();
    },
    (i) => {
      const controller = new AbortController();
      kept[i & 1023] = { controller, signal: controller.signal };
    },
    'server/in-flight.ts LazySignal',
  );
}

// 4. The node adapter answers a handler of createHttpHandler directly: no web
// Request, Headers, Response per request.
{
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada' }, _meta: META } });
  const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada.' } }] } });
  const headers = [
    ['host', '127.0.0.1:3000'],
    ['content-type', 'application/json'],
    ['accept', 'application/json, text/event-stream'],
    ['mcp-protocol-version', '2026-07-28'],
    ['mcp-method', 'prompts/get'],
    ['mcp-name', 'greet'],
  ];
  await compare(
    'direct-node',
    'what one POST costs besides the protocol: reading the body and writing the answer',
    async () => {
      // What the direct path does: the body chunks as one string, the answer as one string.
      const text = Buffer.concat([Buffer.from(body)]).toString('utf8');
      return text.length + Buffer.byteLength(answer);
    },
    async () => {
      const request = new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers, body });
      const text = await request.text();
      const response = new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
      return text.length + (await response.arrayBuffer()).byteLength;
    },
    'transport/http/node.ts toNodeHandler, request.ts directReply',
  );
}

// 5. The nesting check counts brackets before it scans.
{
  const message = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'prompts/get',
    params: { name: 'review', arguments: { code: 'x'.repeat(200) }, _meta: META },
  });
  const fullScan = (text, limit) => {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > limit) return true;
      } else if (c === 0x5d || c === 0x7d) depth--;
    }
    return false;
  };
  await compare(
    'depth-count',
    `nesting-depth check of a ${message.length}-byte request`,
    () => nestingDepthExceeds(message, 64),
    () => fullScan(message, 64),
    'jsonrpc/messages.ts nestingDepthExceeds',
  );
}

// 6. A fixed completion list remembers its last answers.
{
  const values = completionValues();
  const remembered = resolveCompleter(values);
  const index = createCompletionIndex(values);
  await compare(
    'remembered-completion',
    'completion over 100,000 values, the 8 two-letter prefixes in turn',
    (i) => remembered(PREFIXES[i & 7], { arguments: {} }),
    (i) => index.complete(PREFIXES[i & 7]),
    'core/completers.ts rememberingIndex',
  );
}

// 7. A metrics series is found by a map lookup per label value, not by its
// label values joined into one key.
{
  const registry = new MetricsRegistry();
  const histogram = registry.histogram('bench_seconds', 'bench', ['a', 'b', 'c', 'd', 'e', 'f'], [0.001, 0.01, 0.1, 1]);
  const labels = { a: 'prompts/get', b: '2026-07-28', c: undefined, d: 'greet', e: undefined, f: 'tcp' };
  const names = Object.keys(labels);
  const joined = new Map([[names.map((n) => labels[n] ?? '').join('\u0000'), new Float64Array(6)]]);
  await compare(
    'metrics-index',
    'one histogram observation with six labels (the MCP operation duration)',
    () => histogram.observe(0.0001, labels),
    () => {
      const data = joined.get(names.map((n) => labels[n] ?? '').join('\u0000'));
      data[0] += 1;
      data[5] += 0.0001;
    },
    'telemetry/registry.ts seriesAt',
  );
}

// 7b. A request's labels compared with those of the series recorded to last
// (the next request usually repeats them) before any map lookup. Without:
// two label sets in turn, so each observation misses it and walks the index.
{
  const registry = new MetricsRegistry();
  const histogram = registry.histogram('bench_seconds', 'bench', ['a', 'b', 'c', 'd', 'e', 'f'], [0.001, 0.01, 0.1, 1]);
  const labels = { a: 'prompts/get', b: '2026-07-28', c: undefined, d: 'greet', e: undefined, f: 'tcp' };
  const other = { ...labels, d: 'review' };
  await compare(
    'metrics-last-series',
    'one histogram observation with six labels, the same as the last one',
    () => histogram.observe(0.0001, labels),
    (i) => histogram.observe(0.0001, i & 1 ? other : labels),
    'telemetry/registry.ts #slot',
  );
}

// 8. The layers between a revision's handler and the user's `get` chain on
// the promise they have instead of each awaiting the next (five layers: the
// registry's handler, withInput, getPrompt, the definition's get, and the
// response's settle).
{
  const get = (args) => `Say hello to ${args.name} in a ${args.tone ?? 'plain'} tone.`;
  const toResult = (text) => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });
  const args = { name: 'Ada', tone: 'warm' };
  const chained = () =>
    Promise.resolve(toResult(get(args)))
      .then((result) => result)
      .then((result) => ({ ...result, resultType: 'complete' }))
      .then((result) => result)
      .then((result) => ({ jsonrpc: '2.0', id: 1, result }));
  const definition = async () => toResult(await get(args));
  const render = async () => await definition();
  const registry = async () => ({ ...(await render()), resultType: 'complete' });
  const withInput = async () => await registry();
  const settle = async () => ({ jsonrpc: '2.0', id: 1, result: await withInput() });
  await compare(
    'no-async-layers',
    'a prompts/get result through five layers of the server',
    chained,
    settle,
    'core/prompt-catalogue.ts getPrompt, server/run-request.ts settle',
  );
}

// 9. A connection keeps its first request in flight in a slot, not a Map: a
// 2026-07-28 HTTP request makes a connection for itself alone.
{
  const entry = { id: 1 };
  await compare(
    'in-flight-slot',
    'a one-request connection: its table made, the request added, found and removed',
    (i) => {
      const table = new InFlightTable();
      if (!table.has(i)) table.set(i, entry);
      table.delete(i);
      return table;
    },
    (i) => {
      const table = new Map();
      if (!table.has(i)) table.set(i, entry);
      table.delete(i);
      return table;
    },
    'server/in-flight-table.ts InFlightTable',
  );
}

// 10. Spans leave through node:http on a kept-alive connection, not fetch: a
// batch of 512 spans (about 150 KB of protobuf) to a receiver in this process.
{
  const receiver = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${receiver.address().port}/v1/traces`;
  const span = (n) => ({
    ...{ traceId: 'ab'.repeat(16), spanId: n.toString(16).padStart(16, '0'), name: 'prompts/get greet', startUs: 1e15 + n, endUs: 1e15 + n + 40, status: 0 },
    attributes: { 'mcp.method.name': 'prompts/get', 'mcp.protocol.version': '2026-07-28', 'jsonrpc.request.id': String(n), 'gen_ai.prompt.name': 'greet' },
  });
  const spans = Array.from({ length: 512 }, (_, n) => span(n));
  const config = readTracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url }, '1', () => {});
  const send = createOtlpSender(config, { name: 'skillport', version: '1' }, silent);
  // Each export under a signal of its own, as the batch processor gives it; without: the sender as it was.
  await compare(
    'otlp-node-http',
    'a batch of 512 spans (150 KB) encoded and exported to a local receiver',
    () => send(spans, AbortSignal.timeout(30_000)),
    async () => {
      const body = encodeProtobuf({ 'service.name': 'bench' }, { name: 'skillport', version: '1' }, spans);
      const signal = AbortSignal.any([AbortSignal.timeout(30_000), AbortSignal.timeout(config.timeoutMs)]);
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body, signal });
      await answer.arrayBuffer();
    },
    'telemetry/tracing/otlp-http.ts post',
  );
  receiver.close();
}

// 11. stdio joins a tick's answers into one string before writing: 500 answers of a pipelined
// burst into a pipe (a child that reads and drops), corked strings against one joined string.
{
  const { spawn } = await import('node:child_process');
  const sink = spawn('sh', ['-c', 'cat > /dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada in a warm tone.' } }] } })}\n`;
  const drained = () => (sink.stdin.writableNeedDrain ? new Promise((done) => sink.stdin.once('drain', done)) : undefined);
  await compare(
    'stdio-joined',
    'a pipelined burst of 500 stdio answers written to a pipe (µs a burst)',
    () => {
      let text = '';
      for (let i = 0; i < 500; i++) text += line;
      sink.stdin.write(text);
      return drained();
    },
    () => {
      sink.stdin.cork();
      for (let i = 0; i < 500; i++) sink.stdin.write(line);
      sink.stdin.uncork();
      return drained();
    },
    'transport/stdio/stdout.ts write, writeText',
  );
  sink.stdin.end();
}

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores`,
  rounds: ROUNDS,
  cases,
};
if (flags.out) writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
console.log('| Trick | With, µs | Without, µs | Saved, µs | × |\n|---|---:|---:|---:|---:|');
for (const c of cases) console.log(`| ${c.what} | ${c.withTrick.toFixed(2)} | ${c.without.toFixed(2)} | ${c.saved.toFixed(2)} | ${c.factor.toFixed(1)} |`);
process.exit(0);
