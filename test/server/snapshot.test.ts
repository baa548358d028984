/**
 * A 2025 session as data (src/server/snapshot.ts, session.ts): a
 * connection's `snapshot()` is plain JSON, `connect(peer, { restore })`
 * carries the session on with no handshake and behaves as the original
 * (log level, subscriptions, the client capabilities its questions need,
 * the principal its updates are filtered by), `update` brings a copy in step,
 * and a snapshot that is not one (malformed, out of bounds, an unknown
 * version) is refused whole.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/core/context.js';
import { createServer, definePrompt, liveResources, type Server, type SessionSnapshot, staticPrompts } from '../../src/index.js';
import type { Connection } from '../../src/server/index.js';
import { PRINCIPAL_BUDGET_BYTES } from '../../src/server/snapshot.js';

type Message = Record<string, any>;

const VERSION = '2025-11-25';
const LIMITS = { maxSubscriptions: 3, maxSubscriptionUriBytes: 32 };

function serverWith(resources = liveResources()): Server {
  return createServer({
    name: 't',
    version: '1',
    logging: true,
    resources,
    prompts: staticPrompts([
      definePrompt({ name: 'hello', arguments: [{ name: 'who', required: true }], get: ({ who }) => `Hello ${who}` }),
      definePrompt({
        name: 'chatty',
        get: (_args, ctx) => {
          for (const level of ['debug', 'info', 'warning'] as const) ctx.log?.(level, level);
          return 'said';
        },
      }),
    ]),
    limits: { ...LIMITS, inputTimeoutMs: 60_000 },
  });
}

function peer(sent: Message[]) {
  return { carriesRequests: true, send: (message: unknown) => void sent.push(message as Message) };
}

/** A session opened by a real handshake, with a log level and subscriptions set. */
async function opened(server: Server, capabilities: Record<string, unknown> = { elicitation: {} }): Promise<Connection> {
  const connection = server.connect(peer([]));
  await connection.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities, clientInfo: { name: 'client', title: 'A client', version: '2.0.0', extra: 'dropped' } },
  });
  await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await connection.receive({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } });
  for (const uri of ['x://b', 'x://a']) await connection.receive({ jsonrpc: '2.0', id: uri, method: 'resources/subscribe', params: { uri } });
  return connection;
}

const valid = (): SessionSnapshot => ({ version: VERSION, clientCapabilities: {}, initialized: true, subscriptions: [] });

describe('snapshot', () => {
  it('is undefined without a session, and plain JSON of the session with one', async () => {
    const server = serverWith();
    expect(server.connect(peer([])).snapshot()).toBeUndefined();
    const snapshot = (await opened(server)).snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot).toEqual({
      version: VERSION,
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'client', title: 'A client', version: '2.0.0' },
      initialized: true,
      logLevel: 'info',
      subscriptions: ['x://a', 'x://b'],
    });
  });

  it('round-trips: a connection restored from it gives the same snapshot, with no handshake sent or answered', async () => {
    const server = serverWith();
    const snapshot = (await opened(server)).snapshot() as SessionSnapshot;
    const sent: Message[] = [];
    const restored = server.connect(peer(sent), { restore: JSON.parse(JSON.stringify(snapshot)) });
    expect(restored.snapshot()).toEqual(snapshot);
    expect(restored.session?.version).toBe(VERSION);
    expect(sent).toEqual([]);
    // The session is open: another initialize is refused, as on the original.
    const again = (await restored.receive({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: VERSION } })) as Message;
    expect(again.error?.code).toBe(-32600);
  });
});

describe('a restored connection', () => {
  it('logs at the restored level', async () => {
    const server = serverWith();
    const sent: Message[] = [];
    const restored = server.connect(peer(sent), { restore: (await opened(server)).snapshot() });
    const answer = (await restored.receive({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'chatty' } })) as Message;
    expect(answer.result).toBeDefined();
    expect(sent.filter((m) => m.method === 'notifications/message').map((m) => m.params.level)).toEqual(['info', 'warning']);
  });

  it('is told of updates to the restored subscriptions only', async () => {
    const resources = liveResources();
    const server = serverWith(resources);
    const sent: Message[] = [];
    server.connect(peer(sent), { restore: (await opened(server)).snapshot() });
    resources.updated('x://a');
    resources.updated('x://c');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri)).toEqual(['x://a']);
  });

  it('asks its client only what the restored capabilities allow', async () => {
    const server = serverWith();
    const sent: Message[] = [];
    const able = server.connect(peer(sent), { restore: (await opened(server)).snapshot() });
    void able.receive({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'hello' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.find((m) => m.method === 'elicitation/create')).toBeDefined();
    able.close('disconnect');

    const unable = server.connect(peer([]), { restore: (await opened(server, {})).snapshot() });
    const answer = (await unable.receive({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'hello' } })) as Message;
    expect(answer.error).toBeDefined();
  });

  it('keeps the principal that opened the session, so updates stay within what it may read', async () => {
    const resources = liveResources();
    const readable = new Set(['x://a']);
    const server = createServer({
      name: 't',
      version: '1',
      resources: Object.assign(resources, { mayRead: (uri: string) => readable.has(uri) }),
    });
    const principal: Principal = { subject: 'alice', scopes: ['read'], audiences: ['staff'] };
    const restore: SessionSnapshot = { ...valid(), subscriptions: ['x://'], principal };
    const sent: Message[] = [];
    const restored = server.connect(peer(sent), { restore });
    expect(restored.snapshot()?.principal).toEqual(principal);
    resources.updated('x://a');
    resources.updated('x://b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri)).toEqual(['x://a']);
  });
});

describe('update', () => {
  it('brings a copy to the settings of a snapshot of the same session, and refuses another version', async () => {
    const server = serverWith();
    const original = await opened(server);
    const copy = server.connect(peer([]), { restore: original.snapshot() });
    await original.receive({ jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'error' } });
    await original.receive({ jsonrpc: '2.0', id: 6, method: 'resources/unsubscribe', params: { uri: 'x://b' } });
    await original.receive({ jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri: 'x://c' } });
    expect(copy.update(original.snapshot())).toBe(true);
    expect(copy.snapshot()).toEqual(original.snapshot());
    expect(copy.update({ ...original.snapshot(), version: '2025-06-18', subscriptions: [] })).toBe(false);
    expect(copy.update({ ...original.snapshot(), subscriptions: 'x://a' })).toBe(false);
    expect(copy.snapshot()).toEqual(original.snapshot());
    expect(server.connect(peer([])).update(original.snapshot())).toBe(false);
  });
});

describe('restore refuses what is not a snapshot of this server', () => {
  const server = serverWith();
  const cases: Array<[string, unknown]> = [
    ['not an object', 'session'],
    ['an array', []],
    ['an unknown version', { ...valid(), version: '2024-11-05' }],
    ['a stateless version', { ...valid(), version: '2026-07-28' }],
    ['no version', { ...valid(), version: undefined }],
    ['capabilities not an object', { ...valid(), clientCapabilities: 'all' }],
    ['initialized not a boolean', { ...valid(), initialized: 'yes' }],
    ['an unknown log level', { ...valid(), logLevel: 'loud' }],
    ['subscriptions not strings', { ...valid(), subscriptions: [1] }],
    ['more subscriptions than the cap', { ...valid(), subscriptions: ['x://a', 'x://b', 'x://c', 'x://d'] }],
    ['a subscribed URI over the byte cap', { ...valid(), subscriptions: [`x://${'é'.repeat(15)}`] }],
    ['client info not an object', { ...valid(), clientInfo: 'me' }],
    ['a client name over its budget', { ...valid(), clientInfo: { name: 'n'.repeat(257) } }],
    ['a principal without scopes', { ...valid(), principal: { subject: 'alice' } }],
    ['a principal over its budget', { ...valid(), principal: { subject: 's'.repeat(PRINCIPAL_BUDGET_BYTES), scopes: [] } }],
  ];
  for (const [what, restore] of cases) {
    it(`with ${what}`, () => {
      expect(() => server.connect(peer([]), { restore: restore as SessionSnapshot })).toThrow(TypeError);
    });
  }

  it('drops capabilities the server does not use, as a handshake does', () => {
    const restored = server.connect(peer([]), {
      restore: { ...valid(), clientCapabilities: { elicitation: { form: { pad: 'x' } }, experimental: { big: 'x' } } },
    });
    expect(restored.snapshot()?.clientCapabilities).toEqual({ elicitation: { form: {} } });
  });
});
