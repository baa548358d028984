// The floor: a bare node:http (or stdio) server that parses the JSON-RPC body
// and answers with a precomputed result for the method (and prompt name or
// completion prefix). No sessions, no validation, no framework: the cost of
// HTTP + JSON.parse + one string concat on this machine.
import http from 'node:http';
import { createInterface } from 'node:readline';
import { naiveComplete, PREFIXES } from '../lib/promptset.mjs';
import { onTerm, promptSet, readArgs, readBody, ready } from './_common.mjs';

const { mode, port } = readArgs();
const { prompts, values } = promptSet();

const wirePrompt = (p) => ({
  name: p.name,
  description: p.description,
  ...(p.arguments.length ? { arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })) } : {}),
});
const sample = { name: 'Ada', tone: 'warm', language: 'go', focus: 'errors', text: 'Some text.', key: 'abc', input: 'x' };

const legacy = new Map();
legacy.set('initialize', { protocolVersion: '2025-11-25', capabilities: { prompts: {}, completions: {} }, serverInfo: { name: 'bench', version: '1.0.0' } });
legacy.set('server/discover', { supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { prompts: {}, completions: {} } });
legacy.set('prompts/list', { prompts: prompts.map(wirePrompt) });
for (const p of prompts) {
  legacy.set(`prompts/get ${p.name}`, { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.render(sample) } }] });
}
for (const prefix of PREFIXES) legacy.set(`completion/complete ${prefix}`, { completion: naiveComplete(values, prefix) });
legacy.set('ping', {});

const text = new Map();
for (const [key, result] of legacy) {
  text.set(`L ${key}`, JSON.stringify(result));
  const modern = { ...result, resultType: 'complete' };
  if (key === 'prompts/list' || key === 'server/discover') Object.assign(modern, { ttlMs: 0, cacheScope: 'public' });
  text.set(`M ${key}`, JSON.stringify(modern));
}
const EMPTY = JSON.stringify({ completion: { values: [] } });

function answer(message) {
  if (message.id === undefined) return undefined;
  const params = message.params ?? {};
  const era = params._meta?.['io.modelcontextprotocol/protocolVersion'] ? 'M' : 'L';
  let key = message.method;
  if (key === 'prompts/get') key += ` ${params.name}`;
  else if (key === 'completion/complete') key += ` ${params.argument?.value}`;
  const result = text.get(`${era} ${key}`) ?? EMPTY;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
}

if (mode === 'http') {
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let message;
    try {
      message = JSON.parse(await readBody(req));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const body = answer(message);
    if (body === undefined) {
      res.writeHead(202).end();
      return;
    }
    const headers = { 'content-type': 'application/json' };
    if (message.method === 'initialize') headers['mcp-session-id'] = 'floor-session';
    res.writeHead(200, headers).end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
  onTerm(() => new Promise((r) => server.close(r)));
} else {
  onTerm();
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const body = answer(message);
    if (body !== undefined) process.stdout.write(`${body}\n`);
  });
  rl.on('close', () => process.exit(0));
}
