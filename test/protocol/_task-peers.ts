/**
 * Raw peers of the tasks fixture (test/fixtures/servers/tasks.mjs), one
 * interface over its two transports: a child process over stdio, and the
 * same fixture over Streamable HTTP on 127.0.0.1 (serveHttp), a 2025
 * session or 2026-07-28 requests. Each request resolves with the whole
 * JSON-RPC response, for the tests to check against the schemas.
 */
import { eventually, httpSend, messagesOf, modernHeaders, startHttpFixture } from '../_http-client.js';
import { initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { initializeParams, type Message, MODERN_VERSION, modernMeta } from '../_wire.js';

export const TASKS_FIXTURE = `${ROOT}test/fixtures/servers/tasks.mjs`;
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** An HTTP answer besides its JSON-RPC message. */
export interface Answer {
  message: Message;
  status?: number;
  contentType?: string;
}

export interface TaskPeer {
  /** The initialize result of a 2025 session. */
  readonly initialized?: Message;
  /** One request; `headers` replace the conformant ones over HTTP (ignored over stdio). */
  request(method: string, params?: Message, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export type Transport = 'stdio' | 'http';

let nextId = 1;

/**
 * 2026-07-28 params: the per-request envelope, declaring the Tasks
 * extension unless `extension` is false, and elicitation.
 */
export function modernParams(params: Message = {}, extension = true): Message {
  const meta = modernMeta();
  meta['io.modelcontextprotocol/clientCapabilities'] = { elicitation: {}, ...(extension ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) };
  return { ...params, _meta: meta };
}

/** Opens a peer of the fixture at `version` over `transport`; `closers` gets what stops it. */
export async function openPeer(transport: Transport, version: string, closers: Array<() => Promise<unknown>>): Promise<TaskPeer> {
  const modern = version === MODERN_VERSION;
  if (transport === 'stdio') {
    const client = RawStdioClient.spawn(TASKS_FIXTURE);
    closers.push(() => client.close());
    const initialized = modern ? undefined : (await initialize(client, version)).result;
    return {
      ...(initialized ? { initialized } : {}),
      request: async (method, params) => ({ message: await client.request(method, params) }),
      close: () => client.close().then(() => undefined),
    };
  }
  const { url } = await startHttpFixture(TASKS_FIXTURE, ['--http'], closers);
  const exchange = async (body: Message, headers: Record<string, string>): Promise<Answer & { session?: string }> => {
    const answer = await httpSend(url, { headers, body: JSON.stringify(body), agent: false });
    const { messages, garbage } = messagesOf(answer.headers['content-type'] as string | undefined, answer.body);
    if (garbage.length > 0) throw new Error(`Not JSON: ${garbage.join('\n')}`);
    const message = (messages as Message[]).find((m) => m.id === body.id);
    if (!message) throw new Error(`No answer to ${JSON.stringify(body)}: ${answer.status} ${answer.body}`);
    const session = answer.headers['mcp-session-id'];
    const contentType = answer.headers['content-type'] as string | undefined;
    return { message, status: answer.status, ...(contentType ? { contentType } : {}), ...(typeof session === 'string' ? { session } : {}) };
  };
  if (modern) {
    return {
      request: (method, params = {}, headers = {}) => {
        const body = { jsonrpc: '2.0', id: nextId++, method, params };
        const own = modernHeaders(body, url);
        // SEP-2663 §Streamable HTTP: Routing Headers: Mcp-Name mirrors the task id.
        if (method.startsWith('tasks/') && typeof params.taskId === 'string') own['Mcp-Name'] = params.taskId;
        return exchange(body, { ...own, ...headers });
      },
      close: async () => {},
    };
  }
  const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: url.host };
  const opened = await exchange({ jsonrpc: '2.0', id: nextId++, method: 'initialize', params: initializeParams(version) }, base);
  if (!opened.session) throw new Error('No session');
  const headers = { ...base, 'Mcp-Session-Id': opened.session, 'MCP-Protocol-Version': version };
  const accepted = await httpSend(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), agent: false });
  if (accepted.status !== 202) throw new Error(`initialized: ${accepted.status}`);
  return {
    initialized: opened.message.result,
    request: (method, params, extra = {}) =>
      exchange({ jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }, { ...headers, ...extra }),
    close: async () => {
      await httpSend(url, { method: 'DELETE', headers, agent: false });
    },
  };
}

/** Polls `tasks/get` through `get` until `check` holds for its result; bounded. */
export async function pollTask(get: () => Promise<Answer>, check: (result: Message) => boolean): Promise<Message> {
  let last: Message | undefined;
  await eventually(async () => {
    const { message } = await get();
    last = message.result as Message | undefined;
    return last !== undefined && check(last);
  }, 15_000);
  return last as Message;
}
