/**
 * The stdio scheduler alone, without pipes: a connection that resolves with
 * the real resolver and holds each request until the test answers it, and an
 * output whose fullness the test sets. Lanes, the cap, the listen cap,
 * stdout-full holding and resolving each message once.
 */
import { describe, expect, it } from 'vitest';
import type { ProtocolError } from '../../../src/jsonrpc/errors.js';
import { errorResponse, type JsonRpcOutgoing, type JsonRpcResponse, resultResponse } from '../../../src/jsonrpc/messages.js';
import { type LegacySession, type Resolved, resolve } from '../../../src/protocol/index.js';
import { negotiateLegacy } from '../../../src/protocol/revisions.js';
import { silentLogger } from '../../../src/server/index.js';
import { createScheduler, type ScheduledConnection } from '../../../src/transport/stdio/scheduler.js';
import { initializeParams, modern } from '../../_wire.js';

/** A request, 2026-07-28 unless `params` say otherwise. */
const request = (id: number, method = 'prompts/list', params: Record<string, unknown> = modern()) => ({ jsonrpc: '2.0', id, method, params });
const listen = (id: number) => request(id, 'subscriptions/listen', modern({ filter: {} }));
const cancel = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
const settle = () => new Promise((done) => setImmediate(done));

/** A connection over the real resolver whose requests wait until `answer(id)`; `initialize` opens the session. */
function fakeConnection() {
  const started: unknown[] = [];
  const handled: Resolved[] = [];
  const open = new Map<unknown, (response: JsonRpcResponse | undefined) => void>();
  const counts = { resolve: 0 };
  const connection: ScheduledConnection & { session: LegacySession | undefined } = {
    session: undefined,
    resolve(message) {
      counts.resolve++;
      return resolve(message, { session: connection.session });
    },
    handle(resolved) {
      handled.push(resolved);
      if (resolved.kind === 'answer') return Promise.resolve(resolved.response);
      if (resolved.kind !== 'request') return Promise.resolve(undefined);
      started.push(resolved.request.id);
      if (resolved.scope === 'opening') {
        connection.session = {
          revision: resolved.revision,
          version: resolved.revision.version,
          clientCapabilities: {},
          clientInfo: undefined,
          initialized: true,
          subscriptions: new Set(),
        };
      }
      return new Promise((done) => open.set(resolved.request.id, done));
    },
    refuse(resolved, error: ProtocolError) {
      return resolved.kind === 'request' ? errorResponse(resolved.request.id, error.code, error.message) : undefined;
    },
  };
  const answer = (id: number) => open.get(id)?.(resultResponse(id, {}));
  return { connection, started, handled, counts, answer };
}

function fakeIo() {
  const written: JsonRpcOutgoing[] = [];
  const io = {
    full: false,
    serving: true,
    reads: [] as boolean[],
    drains: [] as Array<() => void>,
  };
  return {
    io,
    written,
    port: {
      write: (message: JsonRpcOutgoing) => written.push(message),
      outputFull: () => io.full,
      onDrain: (drained: () => void) => io.drains.push(drained),
      reading: (on: boolean) => io.reads.push(on),
      serving: () => io.serving,
    },
  };
}

function setup(limits: { maxConcurrent?: number; maxStreams?: number; maxWaitingBytes?: number } = {}) {
  const conn = fakeConnection();
  const out = fakeIo();
  const scheduler = createScheduler(
    conn.connection,
    out.port,
    { maxConcurrent: limits.maxConcurrent ?? 2, maxStreams: limits.maxStreams ?? 2, maxWaitingBytes: limits.maxWaitingBytes ?? 1000 },
    silentLogger,
  );
  return { ...conn, ...out, scheduler };
}

describe('the stdio scheduler', () => {
  it('runs at most maxConcurrent work messages, in the order read, and starts the next as one ends', async () => {
    const { scheduler, started, answer, written } = setup();
    for (const id of [1, 2, 3, 4]) scheduler.message(request(id), 10);
    expect(started).toEqual([1, 2]);
    answer(2);
    await settle();
    expect(started).toEqual([1, 2, 3]);
    expect(written).toEqual([resultResponse(2, {})]);
  });

  it('handles control now, ahead of waiting work: a cancellation keeps its waiting request from ever starting', async () => {
    const { scheduler, started, handled, answer } = setup({ maxConcurrent: 1 });
    scheduler.message(request(1), 10);
    scheduler.message(request(2), 10);
    scheduler.message(request(3), 10);
    scheduler.message(cancel(2), 10);
    scheduler.message({ jsonrpc: '2.0', id: 99, result: {} }, 10);
    expect(started).toEqual([1]);
    expect(handled.map((r) => r.kind)).toEqual(['request', 'notification', 'response']);
    answer(1);
    await settle();
    expect(started).toEqual([1, 3]);
  });

  it('gives stream requests a cap of their own, outside maxConcurrent, and refuses one over it as its revision encodes errors', async () => {
    const { scheduler, started, written } = setup({ maxConcurrent: 1, maxStreams: 2 });
    scheduler.message(request(1), 10);
    scheduler.message(listen(2), 10);
    scheduler.message(listen(3), 10);
    scheduler.message(listen(4), 10);
    // Listens behind work held at the cap wait their turn in the same line.
    scheduler.message(request(5), 10);
    scheduler.message(listen(6), 10);
    expect(started).toEqual([1, 2, 3]);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ id: 4, error: { code: -32603, message: 'Too many open listen requests (2); cancel one first' } });
  });

  it('starts nothing and stops reading while stdout is full, and goes on once it drained', async () => {
    const { scheduler, started, io, answer } = setup();
    io.full = true;
    scheduler.message(request(1), 10);
    expect(started).toEqual([]);
    expect(io.reads).toEqual([false]);
    expect(io.drains).toHaveLength(1);
    // One drain is awaited at a time.
    scheduler.message(request(2), 10);
    expect(io.drains).toHaveLength(1);
    io.full = false;
    io.drains[0]?.();
    expect(started).toEqual([1, 2]);
    expect(io.reads).toEqual([false, true]);
    answer(1);
    answer(2);
    await scheduler.settled();
  });

  it('stops reading while more than maxWaitingBytes wait, and resumes only while serving', async () => {
    const { scheduler, io, answer } = setup({ maxConcurrent: 1, maxWaitingBytes: 100 });
    scheduler.message(request(1), 60);
    scheduler.message(request(2), 60);
    scheduler.message(request(3), 60);
    expect(io.reads).toEqual([false]);
    io.serving = false;
    answer(1);
    await settle();
    expect(io.reads).toEqual([false]);
    io.serving = true;
    answer(2);
    await settle();
    expect(io.reads).toEqual([false, true]);
  });

  it('resolves a message held at the cap once', async () => {
    const { scheduler, counts, started, answer } = setup({ maxConcurrent: 1 });
    scheduler.message(request(1), 10);
    scheduler.message(request(2), 10);
    scheduler.pump();
    scheduler.pump();
    answer(1);
    await settle();
    expect(started).toEqual([1, 2]);
    expect(counts.resolve).toBe(2);
  });

  it('reads a waiting message again when an initialize answered meanwhile opened its session', async () => {
    const { scheduler, counts, handled, answer, written } = setup({ maxConcurrent: 1 });
    scheduler.message(request(1, 'prompts/list', modern()), 10);
    scheduler.message(request(2, 'initialize', initializeParams('2025-06-18')), 10);
    scheduler.message(request(3, 'prompts/list', {}), 10);
    answer(1);
    await settle();
    answer(2);
    await settle();
    // Read before the session opened: no session then; in the session now.
    expect(handled.at(-1)).toMatchObject({ kind: 'request', scope: 'session', revision: negotiateLegacy('2025-06-18') });
    expect(counts.resolve).toBe(4);
    expect(written.map((m) => (m as { id: unknown }).id)).toEqual([1, 2]);
  });

  it('writes the answer to an unreadable line in its turn, and settles once nothing waits or runs', async () => {
    const { scheduler, written, answer } = setup({ maxConcurrent: 1 });
    scheduler.message(request(1), 10);
    scheduler.message(request(2), 10);
    const bad = errorResponse(null, -32700, 'Parse error');
    scheduler.reply(bad, 10);
    expect(written).toEqual([]);
    let settled = false;
    void scheduler.settled().then(() => {
      settled = true;
    });
    answer(1);
    await settle();
    // Behind request 2, which has started: nothing holds it any longer.
    expect(written).toEqual([resultResponse(1, {}), bad]);
    expect(settled).toBe(false);
    answer(2);
    await settle();
    expect(settled).toBe(true);
  });
});
