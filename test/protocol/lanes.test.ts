/**
 * The resolver tags each message with the lane a transport schedules it in
 * (protocol/revision.ts `Lane`), as the message's revision lists it: the
 * transports read the lane and match no method name.
 */
import { describe, expect, it } from 'vitest';
import { type LegacySession, resolve } from '../../src/protocol/index.js';
import { negotiateLegacy } from '../../src/protocol/revisions.js';
import { modern } from '../_wire.js';

const session: LegacySession = {
  revision: negotiateLegacy('2025-11-25'),
  version: '2025-11-25',
  clientCapabilities: {},
  clientInfo: undefined,
  initialized: true,
  subscriptions: new Set(),
};

/** Request headers, by lower-case name. */
const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });

describe('lanes', () => {
  it('puts a 2026-07-28 listen request in the stream lane, over stdio and over HTTP', () => {
    const listen = { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: modern({ filter: {} }) };
    expect(resolve(listen)).toMatchObject({ kind: 'request', scope: 'stateless', lane: 'stream' });
    expect(
      resolve(listen, { http: { headers: headers({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' }), unknownSession: false } }),
    ).toMatchObject({ kind: 'request', lane: 'stream' });
  });

  it('puts the same method without the envelope, in a session, in the work lane: it is no listen there', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen' };
    expect(resolve(message, { session })).toMatchObject({ kind: 'request', scope: 'session', lane: 'work' });
  });

  it('puts a listen with an id MCP refuses in the work lane, as an answer (-32600, id null)', () => {
    const bad = { jsonrpc: '2.0', id: 1.5, method: 'subscriptions/listen', params: modern() };
    expect(resolve(bad)).toMatchObject({ kind: 'answer', lane: 'work', response: { id: null, error: { code: -32600 } } });
  });

  it('puts cancellations in the control lane in every era, naming the request they withdraw', () => {
    const cancel = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
    expect(resolve(cancel({ requestId: 7 }), { session })).toMatchObject({ kind: 'notification', scope: 'session', lane: 'control', cancels: 7 });
    expect(resolve(cancel({ requestId: 'a' }))).toMatchObject({ kind: 'notification', scope: 'sessionless', lane: 'control', cancels: 'a' });
    expect(resolve(cancel(modern({ requestId: 3 })))).toMatchObject({ kind: 'notification', scope: 'stateless', lane: 'control', cancels: 3 });
    // An id no request can have names none.
    const unnamed = resolve(cancel({ requestId: { x: 1 } }), { session });
    expect(unnamed).toMatchObject({ kind: 'notification', lane: 'control' });
    expect(unnamed).not.toHaveProperty('cancels');
  });

  it('puts responses in the control lane and everything else in the work lane', () => {
    expect(resolve({ jsonrpc: '2.0', id: 4, result: {} }, { session })).toMatchObject({ kind: 'response', lane: 'control' });
    expect(resolve({ jsonrpc: '2.0', id: 4, error: { code: 1, message: 'no' } })).toMatchObject({ kind: 'response', lane: 'control' });
    expect(resolve({ jsonrpc: '2.0', method: 'notifications/initialized' }, { session })).toMatchObject({ kind: 'notification', lane: 'work' });
    expect(resolve({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }, { session })).toMatchObject({ kind: 'request', lane: 'work' });
    expect(resolve({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: modern() })).toMatchObject({ kind: 'request', lane: 'work' });
    expect(resolve({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toMatchObject({ scope: 'opening', lane: 'work' });
    expect(resolve([])).toMatchObject({ kind: 'answer', lane: 'work' });
  });
});
