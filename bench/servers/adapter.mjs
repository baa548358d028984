// skillport's transport ends without its handler: the node:http adapter
// (dist/http.js toNodeHandler) reading and writing, and the JSON-RPC layer
// (dist/jsonrpc/messages.js: UTF-8 decoding, the nesting check, parse,
// classify, serialize) around answers computed in a few lines, with no
// guards, routes, sessions, resolver, connection or registry. A completion's
// answer is kept per prefix and era, its JSON text with it
// (dist/jsonrpc/encoded.js), as skillport keeps it. bench/split.mjs
// serves it beside the floor and skillport, so the difference between the
// three says how much of skillport's cost per request is its transport
// ends and how much the layers between them. Not a server anyone should run:
// it checks nothing.
//   node bench/servers/adapter.mjs http PORT
import http from 'node:http';
import { toNodeHandler } from '../../dist/http.js';
import { encodeOnce } from '../../dist/jsonrpc/encoded.js';
import { classify, parseMessage, resultResponse, serializeMessage } from '../../dist/jsonrpc/messages.js';
import { naiveComplete } from '../lib/promptset.mjs';
import { onTerm, promptSet, readArgs, ready } from './_common.mjs';

const { port } = readArgs();
const { prompts, values } = promptSet();
const byName = new Map(prompts.map((p) => [p.name, p]));
const completions = new Map();
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });
const BUDGET = { take: () => true, give: () => {} };

function result(method, params, modern) {
  switch (method) {
    case 'initialize':
      return { protocolVersion: '2025-11-25', capabilities: { prompts: {}, completions: {} }, serverInfo: { name: 'bench', version: '1.0.0' } };
    case 'server/discover':
      return { supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { prompts: {}, completions: {} } };
    case 'prompts/get': {
      const p = byName.get(params?.name);
      return p
        ? { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.render(params.arguments ?? {}) } }] }
        : { messages: [] };
    }
    case 'completion/complete': {
      const key = `${modern}${params?.argument?.value}`;
      let answer = completions.get(key);
      if (answer === undefined) {
        const completion = { completion: naiveComplete(values, String(params?.argument?.value)) };
        completions.set(key, (answer = encodeOnce(modern ? { ...completion, resultType: 'complete' } : completion, true)));
      }
      return answer;
    }
    default:
      return {};
  }
}

async function reply(request) {
  const bytes = await request.readBody(4 * 1024 * 1024, BUDGET);
  const parsed = parseMessage(UTF8.decode(bytes), 64);
  const message = parsed.ok ? classify(parsed.value) : undefined;
  if (message?.kind !== 'request') return { status: 202, headers: {} };
  const { id, method, params } = message.message;
  const modern = params?._meta !== undefined;
  let answer = result(method, params, modern);
  if (modern && answer.resultType === undefined) answer = { ...answer, resultType: 'complete' };
  const headers = method === 'initialize' ? { ...JSON_HEADERS, 'mcp-session-id': 'adapter-session' } : JSON_HEADERS;
  return { status: 200, headers, body: serializeMessage(resultResponse(id, answer)) };
}

// toNodeHandler serves a handler's `reply` when its `fetch` carries the same function (web.ts replyOf).
const fetch = () => Promise.reject(new Error('served through reply'));
fetch.reply = reply;
const server = http.createServer(toNodeHandler({ fetch, reply }));
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${server.address().port}/mcp`));
onTerm(() => new Promise((done) => server.close(done)));
