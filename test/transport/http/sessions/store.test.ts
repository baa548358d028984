/**
 * The session store (src/transport/http/sessions/store.ts): expiry of idle
 * sessions and of handshakes never completed, eviction when full, and
 * sessions opened from a snapshot.
 */
import { describe, expect, it } from 'vitest';
import { createServer, staticPrompts } from '../../../../src/index.js';
import { createSessionStore } from '../../../../src/transport/http/sessions/store.js';

describe('session store', () => {
  const server = createServer({ name: 's', version: '1', prompts: staticPrompts([]) });

  it('ends sessions idle past the limit, but not busy ones', () => {
    let now = 0;
    const store = createSessionStore({ idleMs: 1000, maxSessions: 10, now: () => now });
    const idle = store.open(server);
    const busy = store.open(server);
    store.register(idle);
    store.register(busy);
    busy.inFlight = 1;
    now = 2000;
    store.sweep();
    expect(store.get(idle.id)).toBeUndefined();
    expect(store.get(busy.id)).toBe(busy);
  });

  it('ends a session whose handshake never completed after a minute idle', async () => {
    let now = 0;
    const store = createSessionStore({ idleMs: 30 * 60_000, maxSessions: 10, now: () => now });
    const probe = store.open(server);
    const client = store.open(server);
    for (const session of [probe, client]) {
      store.register(session);
      await session.connection.receive({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
    }
    await client.connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    now = 2 * 60_000;
    store.sweep();
    expect(store.get(probe.id)).toBeUndefined();
    expect(store.get(client.id)).toBe(client);
  });

  it('evicts the least recently used idle session when full, and refuses when all are busy', () => {
    let now = 0;
    const store = createSessionStore({ idleMs: 60_000, maxSessions: 2, now: () => now });
    const first = store.open(server);
    store.register(first);
    now = 1;
    const second = store.open(server);
    store.register(second);
    second.lastActive = 1;
    const third = store.open(server);
    expect(store.register(third)).toBe(true);
    expect(store.get(first.id)).toBeUndefined();
    second.inFlight = 1;
    third.inFlight = 1;
    expect(store.register(store.open(server))).toBe(false);
    expect(store.size).toBe(2);
  });

  it('opens a session under a given id from a snapshot, with no handshake, and refuses one that is not a snapshot', () => {
    const store = createSessionStore({ idleMs: 60_000, maxSessions: 10 });
    const snapshot = { version: '2025-11-25', clientCapabilities: {}, initialized: true, subscriptions: [] };
    const session = store.open(server, 'given', snapshot);
    expect(session.id).toBe('given');
    expect(session.connection.snapshot()).toEqual(snapshot);
    expect(() => store.open(server, 'other', { ...snapshot, version: 'none' })).toThrow(TypeError);
    expect(store.size).toBe(0);
  });
});
