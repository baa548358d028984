// What a real client puts on the wire, per era.
//   legacy (2025-11-25): initialize once, notifications/initialized, then every
//     request with Mcp-Session-Id (when the server issued one) and
//     MCP-Protocol-Version.
//   modern (2026-07-28): no handshake (one server/discover, as the v2 client's
//     probe does); every request carries MCP-Protocol-Version, Mcp-Method,
//     Mcp-Name (prompts/get) and the per-request _meta envelope.
import { PREFIXES, STANDARD_COUNT } from './promptset.mjs';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
export const CLIENT_INFO = { name: 'skillport-bench', version: '1.0.0' };
export const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};

export const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * The HTTP workloads: method, params and the Mcp-Name header source. skillport
 * declares greet with `get` and static_4k with a fixed `output`; static_4k_get
 * is the same 4 KB body declared with `get`.
 */
export const WORKLOADS = [
  { id: 'list', label: `prompts/list (${STANDARD_COUNT.toLocaleString('en-US')} prompts)`, method: 'prompts/list', params: () => undefined },
  {
    id: 'get',
    label: 'prompts/get with arguments (get)',
    method: 'prompts/get',
    name: 'greet',
    params: () => ({ name: 'greet', arguments: { name: 'Ada', tone: 'warm' } }),
  },
  {
    id: 'complete',
    label: 'completion/complete, 2-letter prefix over 100,000 values',
    method: 'completion/complete',
    variants: PREFIXES.length,
    params: (n) => ({ ref: { type: 'ref/prompt', name: 'lookup' }, argument: { name: 'key', value: PREFIXES[n % PREFIXES.length] } }),
    check: (r) => Array.isArray(r?.completion?.values) && r.completion.values.length === 100,
  },
  { id: 'get4k', label: 'prompts/get, 4 KB body (output)', method: 'prompts/get', name: 'static_4k', params: () => ({ name: 'static_4k' }) },
  { id: 'get4k-get', label: 'prompts/get, 4 KB body (get)', method: 'prompts/get', name: 'static_4k_get', params: () => ({ name: 'static_4k_get' }) },
];

/** One JSON-RPC request body for an era. */
export function requestBody(era, method, params, id) {
  const p = era === 'modern' ? { ...(params ?? {}), _meta: META } : params;
  return JSON.stringify(p === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: p });
}

/** Headers for one request of `workload` in `era`, given the session headers. */
export function requestHeaders(era, session, workload) {
  if (era === 'legacy') return { ...BASE_HEADERS, ...session };
  const h = { ...BASE_HEADERS, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': workload.method };
  if (workload.name) h['mcp-name'] = workload.name;
  return h;
}

/** POSTs one JSON-RPC message; parses a JSON or SSE body. */
export async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  let json;
  if (type.includes('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (!data) continue;
      try {
        const m = JSON.parse(data);
        if ('result' in m || 'error' in m) json = m;
      } catch {}
    }
  } else if (text) {
    try {
      json = JSON.parse(text);
    } catch {}
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * Opens an era against a server like a real client and returns the headers
 * every later request carries (the session, for legacy).
 */
export async function openEra(url, era) {
  if (era === 'modern') {
    const r = await post(url, requestBody('modern', 'server/discover', {}, 'discover'), {
      ...BASE_HEADERS,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'server/discover',
    });
    if (r.status !== 200 || !r.json?.result) throw new Error(`server/discover: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    return {};
  }
  const init = await post(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } }),
    BASE_HEADERS,
  );
  if (init.status !== 200 || !init.json?.result) throw new Error(`initialize: HTTP ${init.status} ${init.text.slice(0, 200)}`);
  const session = { 'mcp-protocol-version': init.json.result.protocolVersion ?? LEGACY_VERSION };
  const id = init.headers.get('mcp-session-id');
  if (id) session['mcp-session-id'] = id;
  const note = await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { ...BASE_HEADERS, ...session });
  if (note.status >= 300) throw new Error(`notifications/initialized: HTTP ${note.status}`);
  return session;
}

/** Checks a sample response of a workload; returns an error string or undefined. */
export function checkResult(workload, json) {
  if (!json) return 'no JSON-RPC response';
  if (json.error) return `JSON-RPC error ${json.error.code}: ${json.error.message}`;
  const r = json.result;
  if (workload.check) return workload.check(r) ? undefined : `unexpected result ${JSON.stringify(r).slice(0, 200)}`;
  if (workload.id === 'list')
    return r?.prompts?.length === STANDARD_COUNT ? undefined : `listed ${r?.prompts?.length} prompts, expected ${STANDARD_COUNT} in one page`;
  if (workload.id.startsWith('get4k')) return r?.messages?.[0]?.content?.text?.length > 4000 ? undefined : '4 KB body missing';
  return Array.isArray(r?.messages) ? undefined : `unexpected result ${JSON.stringify(r).slice(0, 200)}`;
}
