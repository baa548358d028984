// The floor: a bare node:http (or stdio) server that parses the JSON-RPC body
// and answers with a precomputed result for the method (and prompt name or
// completion prefix). No sessions, no validation, no framework. Written as
// the fastest code node allows for each workload, so that no ratio to it is
// flattered by a slow floor:
//   - HTTP: the body kept as the Buffer chunks it arrives in, concatenated
//     only when there are several, parsed once; the answer is precomputed
//     bytes with the id spliced in, sent with a flat header array and a
//     Content-Length (no chunked encoding), one end() per response, on
//     keep-alive connections.
//   - stdio: lines split by hand on Buffers (no readline, no string decoder);
//     the answers to every line of an input chunk go out in one write, as a
//     string: measured against one Buffer per chunk, the string costs the
//     same CPU per pipelined request and up to 10% less per sequential one.
// Answers are built on first use and kept (as bytes for HTTP), so start-up
// does no more than the first request needs.
//
// BENCH_FLOOR_SPIN_NS (the profile phase only, never a timed cell): HTTP
// requests busy-wait that long before they are answered, to show what a
// server as much slower as skillport pays in socket writes (see
// bench/phases/profile.mjs).
import http from 'node:http';
import { naiveComplete } from '../lib/promptset.mjs';
import { onTerm, promptSet, readArgs, ready } from './_common.mjs';

const { mode, port } = readArgs();
const SPIN_NS = BigInt(process.env.BENCH_FLOOR_SPIN_NS ?? 0);
const { prompts, values } = promptSet();

const wirePrompt = (p) => ({
  name: p.name,
  description: p.description,
  ...(p.arguments.length ? { arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })) } : {}),
});
const sample = { name: 'Ada', tone: 'warm', language: 'go', focus: 'errors', text: 'Some text.', key: 'abc', input: 'x' };
const byName = new Map(prompts.map((p) => [p.name, p]));

/** `,"result":…}`, everything after the id: bytes for HTTP, a line's end for stdio. */
function tail(result, modern, listLike = false) {
  if (modern) result = { ...result, resultType: 'complete', ...(listLike ? { ttlMs: 0, cacheScope: 'public' } : {}) };
  const text = `,"result":${JSON.stringify(result)}}`;
  return mode === 'http' ? Buffer.from(text) : `${text}\n`;
}

/** One era's answers, each built on first use. */
function answers(modern) {
  let list;
  let discover;
  let initialize;
  let ping;
  const get = new Map();
  const complete = new Map();
  return {
    list: () => (list ??= tail({ prompts: prompts.map(wirePrompt) }, modern, true)),
    discover: () => (discover ??= tail({ supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { prompts: {}, completions: {} } }, modern, true)),
    initialize: () =>
      (initialize ??= tail(
        { protocolVersion: '2025-11-25', capabilities: { prompts: {}, completions: {} }, serverInfo: { name: 'bench', version: '1.0.0' } },
        modern,
      )),
    ping: () => (ping ??= tail({}, modern)),
    get(name) {
      let bytes = get.get(name);
      if (bytes === undefined) {
        const p = byName.get(name);
        bytes = tail(
          p ? { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.render(sample) } }] } : { messages: [] },
          modern,
        );
        get.set(name, bytes);
      }
      return bytes;
    },
    complete(prefix) {
      let bytes = complete.get(prefix);
      if (bytes === undefined) {
        bytes = tail({ completion: naiveComplete(values, String(prefix)) }, modern);
        complete.set(prefix, bytes);
      }
      return bytes;
    },
  };
}
const LEGACY = answers(false);
const MODERN = answers(true);
const EMPTY = tail({}, false);

/** The precomputed bytes after the id for a parsed request. */
function lookup(message) {
  const params = message.params;
  const era = params?._meta?.['io.modelcontextprotocol/protocolVersion'] ? MODERN : LEGACY;
  switch (message.method) {
    case 'prompts/get':
      return era.get(params.name);
    case 'completion/complete':
      return era.complete(params.argument?.value);
    case 'prompts/list':
      return era.list();
    case 'initialize':
      return era.initialize();
    case 'server/discover':
      return era.discover();
    case 'ping':
      return era.ping();
    default:
      return EMPTY;
  }
}

const HEAD_TEXT = '{"jsonrpc":"2.0","id":';
const HEAD = Buffer.from(HEAD_TEXT);
const idText = (id) => (typeof id === 'number' ? `${id}` : JSON.stringify(id));
// HTTP: up to this size an answer is copied into one Buffer with its id; a
// larger one (prompts/list) is written as pieces, corked, so its bytes are not
// copied per request. Measured on this bench's workloads: for the 100 KB list
// the pieces take about half the server CPU of a copy; for answers of 4 KB
// and less the two are within noise of each other and one Buffer is one write.
const COPY_MAX = 16 * 1024;

if (mode === 'http') {
  const JSON_TYPE = 'application/json';
  const respond = (res, body) => {
    if (SPIN_NS > 0n) for (const start = process.hrtime.bigint(); process.hrtime.bigint() - start < SPIN_NS; );
    let message;
    try {
      message = JSON.parse(body === undefined ? '' : body.toString());
    } catch {
      res.writeHead(400, ['content-length', '0']);
      res.end();
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202, ['content-length', '0']);
      res.end();
      return;
    }
    const after = lookup(message);
    const id = idText(message.id);
    const length = HEAD.length + Buffer.byteLength(id) + after.length;
    res.writeHead(
      200,
      message.method === 'initialize'
        ? ['content-type', JSON_TYPE, 'content-length', length, 'mcp-session-id', 'floor-session']
        : ['content-type', JSON_TYPE, 'content-length', length],
    );
    if (after.length > COPY_MAX) {
      res.cork();
      res.write(HEAD);
      res.write(id);
      res.end(after);
      res.uncork();
    } else {
      const out = Buffer.allocUnsafe(length);
      HEAD.copy(out, 0);
      after.copy(out, HEAD.length + out.write(id, HEAD.length));
      res.end(out);
    }
  };
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, ['content-length', '0']);
      res.end();
      return;
    }
    let first;
    let chunks;
    req.on('data', (chunk) => {
      if (first === undefined) first = chunk;
      else if (chunks === undefined) chunks = [first, chunk];
      else chunks.push(chunk);
    });
    req.on('end', () => respond(res, chunks === undefined ? first : Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
  onTerm(() => new Promise((r) => server.close(r)));
} else {
  onTerm();
  let rest;
  process.stdin.on('data', (chunk) => {
    if (rest !== undefined) {
      chunk = Buffer.concat([rest, chunk]);
      rest = undefined;
    }
    // The answers to all of this chunk's lines go out in one write.
    let out = '';
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      const line = chunk.toString('utf8', start, at);
      start = at + 1;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (message.id !== undefined) out += `${HEAD_TEXT}${idText(message.id)}${lookup(message)}`;
    }
    if (start < chunk.length) rest = chunk.subarray(start);
    if (out !== '') process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
}
