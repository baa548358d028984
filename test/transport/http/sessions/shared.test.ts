/**
 * Shared sessions (src/transport/http/sessions/shared.ts, record.ts) over an
 * in-memory shared state, two replicas in one process: the record is the
 * connection's snapshot and its owner, another replica restores the session
 * from it with no handshake, a change on one replica reaches the other's copy
 * as state, and a record that is not one of this server's leaves the session
 * unknown. The same over real Redis and processes: test/cluster/.
 */
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, liveResources, type Server, staticPrompts } from '../../../../src/index.js';
import { createSharedSessions, type SharedSessions } from '../../../../src/transport/http/sessions/shared.js';
import { createSessionStore, type Session, type SessionStore } from '../../../../src/transport/http/sessions/store.js';
import { memoryLists, type SharedState } from '../../../../src/transport/shared-state.js';

const VERSION = '2025-11-25';

/** Records and topics in memory, shared by the replicas made over it. */
function memoryState() {
  const records = new Map<string, string>();
  const topics = new Map<string, Set<(message: string) => void>>();
  const lists = memoryLists();
  let replicas = 0;
  const replica = (): SharedState => ({
    replica: `r${++replicas}`,
    get: async (key) => records.get(key),
    set: async (key, value) => void records.set(key, value),
    touch: async (key) => records.has(key),
    delete: async (key) => void records.delete(key),
    async swap(key, expected, value) {
      if (records.get(key) !== expected) return false;
      records.set(key, value);
      return true;
    },
    async publish(topic, message) {
      for (const listener of topics.get(topic) ?? []) queueMicrotask(() => listener(message));
    },
    subscribe(topic, listener) {
      const set = topics.get(topic) ?? new Set();
      topics.set(topic, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    ...lists,
    ping: async () => true,
    close: async () => {},
  });
  return { records, replica };
}

interface Replica {
  store: SessionStore;
  shared: SharedSessions;
}

function server(): Server {
  return createServer({
    name: 't',
    version: '1',
    logging: true,
    resources: liveResources(),
    prompts: staticPrompts([definePrompt({ name: 'p', get: () => 'x' })]),
  });
}

function replicaOver(state: SharedState): Replica {
  const store = createSessionStore({ idleMs: 60_000, maxSessions: 10, backlog: false });
  return { store, shared: createSharedSessions(state, store, server(), 60_000, { debug() {}, info() {}, warn() {}, error() {} }) };
}

/** A session opened on `at` by a real handshake, registered and recorded. */
async function open(at: Replica): Promise<Session> {
  const session = at.store.open(server());
  await session.connection.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' } },
  });
  await session.connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  at.store.register(session);
  session.owner = 'someone';
  expect(await at.shared.saved(session)).toBe(true);
  return session;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('shared sessions', () => {
  it('record the snapshot and the owner, and restore it on another replica', async () => {
    const memory = memoryState();
    const a = replicaOver(memory.replica());
    const b = replicaOver(memory.replica());
    const original = await open(a);
    const record = JSON.parse(memory.records.get(`session:${original.id}`) as string);
    expect(record).toEqual({ ...original.connection.snapshot(), owner: 'someone' });
    const copy = (await b.shared.find(original.id)) as Session;
    expect(copy.id).toBe(original.id);
    expect(copy.owner).toBe('someone');
    expect(copy.connection.snapshot()).toEqual(original.connection.snapshot());
    expect(b.store.get(original.id)).toBe(copy);
    const answer = (await copy.connection.receive({ jsonrpc: '2.0', id: 1, method: 'prompts/list' })) as Record<string, any>;
    expect(answer.result.prompts).toHaveLength(1);
  });

  it("bring another replica's copy in step with a change, as state", async () => {
    const memory = memoryState();
    const a = replicaOver(memory.replica());
    const b = replicaOver(memory.replica());
    const original = await open(a);
    const copy = (await b.shared.find(original.id)) as Session;
    await original.connection.receive({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } });
    await original.connection.receive({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'x://a' } });
    expect(await a.shared.saved(original)).toBe(true);
    await settle();
    await settle();
    expect(copy.connection.snapshot()).toEqual(original.connection.snapshot());
    expect(copy.connection.session?.logLevel).toBe('error');
    expect([...(copy.connection.session?.subscriptions ?? [])]).toEqual(['x://a']);
  });

  it('leave a session unknown when its record is not one this server can carry on', async () => {
    const memory = memoryState();
    const b = replicaOver(memory.replica());
    const snapshot = { version: VERSION, clientCapabilities: {}, initialized: true, subscriptions: [] };
    const records: Record<string, string> = {
      garbage: '{not json',
      list: '[]',
      version: JSON.stringify({ ...snapshot, version: '2024-11-05' }),
      subscriptions: JSON.stringify({ ...snapshot, subscriptions: Array.from({ length: 1000 }, (_, i) => `x://${i}`) }),
      huge: JSON.stringify({ ...snapshot, clientInfo: { name: 'n'.repeat(4 * 1024 * 1024) } }),
    };
    for (const [id, text] of Object.entries(records)) memory.records.set(`session:${id}`, text);
    for (const id of Object.keys(records)) expect(await b.shared.find(id), id).toBeUndefined();
    expect(b.store.size).toBe(0);
    expect(await b.shared.find('absent')).toBeUndefined();
  });
});
