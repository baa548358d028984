/**
 * Observers (server/observer.ts) hear of every request a server runs, with
 * its revision and its answer, and of every session opened by a handshake;
 * one that throws changes no answer; one removed hears nothing more.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedRequest, RequestObserver } from '../../src/index.js';
import { createServer, definePrompt, staticPrompts } from '../../src/index.js';
import { initializeParams, modernMeta } from '../_wire.js';

function server() {
  return createServer({
    name: 't',
    version: '1',
    prompts: staticPrompts([definePrompt({ name: 'hello', description: 'Says hello', get: () => 'Hello' })]),
  });
}

/** Records what an observer is told. */
function recorder(): RequestObserver & { seen: Array<{ request: ObservedRequest; response: unknown }>; sessions: string[] } {
  const seen: Array<{ request: ObservedRequest; response: unknown }> = [];
  const sessions: string[] = [];
  return {
    seen,
    sessions,
    request(request) {
      const entry = { request, response: 'pending' as unknown };
      seen.push(entry);
      return (response) => {
        entry.response = response;
      };
    },
    session(version) {
      sessions.push(`open ${version}`);
      return () => sessions.push(`end ${version}`);
    },
  };
}

const get = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name, _meta: modernMeta() } });

describe('request observers', () => {
  it('hear each request with its method, params, revision, peer and answer', async () => {
    const s = server();
    const observer = recorder();
    s.observe(observer);
    expect(s.observed).toBe(true);
    const connection = s.connect({ send() {}, network: 'pipe' });
    const ok = await connection.receive(get(1, 'hello'));
    const unknown = await connection.receive(get(2, 'nope'));
    expect(observer.seen.map((e) => [e.request.method, e.request.params.name, e.request.protocolVersion, e.request.peer.network])).toEqual([
      ['prompts/get', 'hello', '2026-07-28', 'pipe'],
      ['prompts/get', 'nope', '2026-07-28', 'pipe'],
    ]);
    expect(observer.seen[0]?.response).toBe(ok);
    expect(observer.seen[1]?.response).toBe(unknown);
    expect(unknown).toMatchObject({ error: { code: -32602 } });
  });

  it('hear a session open by its handshake and end when its connection closes', async () => {
    const s = server();
    const observer = recorder();
    s.observe(observer);
    const connection = s.connect({ send() {} });
    await connection.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
    expect(observer.sessions).toEqual(['open 2025-11-25']);
    connection.close('disconnect');
    expect(observer.sessions).toEqual(['open 2025-11-25', 'end 2025-11-25']);
    // A restored session did not begin here.
    const restored = s.connect({ send() {} }, { restore: connection.snapshot() });
    restored.close('disconnect');
    expect(observer.sessions).toHaveLength(2);
  });

  it('are told a cancelled request ended with nothing sent', async () => {
    let release!: () => void;
    const s = createServer({
      name: 't',
      version: '1',
      prompts: {
        list: async () => [{ name: 'slow' }],
        get: () => new Promise((resolve) => (release = () => resolve({ messages: [] }))),
      },
    });
    const observer = recorder();
    s.observe(observer);
    const connection = s.connect({ send() {} });
    const answer = connection.receive(get(1, 'slow'));
    await new Promise((resolve) => setImmediate(resolve));
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: modernMeta() } });
    release();
    expect(await answer).toBeUndefined();
    expect(observer.seen[0]?.response).toBeUndefined();
  });

  it('change no answer when they throw, and hear nothing once removed', async () => {
    const s = server();
    const quiet = recorder();
    s.observe({
      request() {
        throw new Error('observer broke');
      },
    });
    s.observe({
      request: () => () => {
        throw new Error('end broke');
      },
    });
    const stop = s.observe(quiet);
    const connection = s.connect({ send() {} });
    expect(await connection.receive(get(1, 'hello'))).toMatchObject({ result: { messages: [{ content: { text: 'Hello' } }] } });
    expect(quiet.seen).toHaveLength(1);
    stop();
    await connection.receive(get(2, 'hello'));
    expect(quiet.seen).toHaveLength(1);
  });

  it('change no answer when one alone throws, at the start or the end of a request or a session', async () => {
    // One observer is served without the list's wrappers (observer.ts guarded): each throw is still its own.
    const throwing: Array<RequestObserver> = [
      {
        request() {
          throw new Error('start broke');
        },
        session() {
          throw new Error('session start broke');
        },
      },
      {
        request: () => () => {
          throw new Error('end broke');
        },
        session: () => () => {
          throw new Error('session end broke');
        },
      },
    ];
    for (const observer of throwing) {
      const s = server();
      s.observe(observer);
      const connection = s.connect({ send() {} });
      expect(await connection.receive(get(1, 'hello'))).toMatchObject({ result: { messages: [{ content: { text: 'Hello' } }] } });
      expect(await connection.receive(get(2, 'nothing'))).toMatchObject({ error: { code: -32602 } });
      const legacy = s.connect({ send() {} });
      expect(await legacy.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') })).toMatchObject({
        result: { protocolVersion: '2025-11-25' },
      });
      expect(() => legacy.close('disconnect')).not.toThrow();
    }
  });

  it('cost nothing when there are none: no observer, not observed', () => {
    const s = server();
    expect(s.observed).toBe(false);
    const stop = s.observe({});
    expect(s.observed).toBe(true);
    stop();
    expect(s.observed).toBe(false);
  });
});
