/**
 * stdio, the web handler and the node:http server stop the same way (the
 * drain of src/transport/lifecycle.ts; MCP 2025-06-18 basic/lifecycle
 * §Shutdown): a request in flight when shutdown starts is answered within the
 * drain time; one that outlives it is cancelled and answered with nothing;
 * an open listen request ends with its result; close() is one promise however
 * often it is called; and a request that arrives once the drain began is
 * refused the way that transport refuses (stdin unread, 503, no connection).
 *
 * No timing is asserted. A drain time of a minute stands for "never runs
 * out", so a close() that resolves proves the work settled; a drain time of
 * 1 ms stands for "runs out at once".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LifecycleTarget, lifecycleServer, TRANSPORTS, until } from './_lifecycle-targets.js';

const NEVER_RUNS_OUT = 60_000;
const RUNS_OUT_AT_ONCE = 1;

const settledYet = (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Two macrotask turns: long enough for a promise that was ready to be seen settled.
  return new Promise((resolve) => setImmediate(() => setImmediate(() => resolve(settled))));
};

describe.each(TRANSPORTS)('shutdown over $name', (transport) => {
  let open: LifecycleTarget | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('answers a request in flight when shutdown starts, and only then stops', async () => {
    const fixture = lifecycleServer();
    const target = (open = await transport.start(fixture.server, NEVER_RUNS_OUT));
    const inFlight = target.request(1, 'prompts/get', { name: 'gated' });
    await until(() => fixture.started.includes('gated'));
    const closing = target.close();
    // The drain waits for the request (its time never runs out here).
    expect(await settledYet(closing)).toBe(false);
    fixture.release();
    const outcome = await inFlight;
    expect(outcome.message?.result?.messages?.[0]?.content?.text).toBe('released');
    await closing;
    expect(fixture.cancelled).toEqual([]);
  });

  it('cancels a request that outlives the drain time and answers it with nothing', async () => {
    const fixture = lifecycleServer();
    const target = (open = await transport.start(fixture.server, RUNS_OUT_AT_ONCE));
    const inFlight = target.request(1, 'prompts/get', { name: 'stuck' });
    await until(() => fixture.started.includes('stuck'));
    await target.close();
    // Cancelled by the disconnect that ends the drain (server/connection.ts close('disconnect')).
    expect(fixture.cancelled).toEqual([{ name: 'stuck', reason: 'disconnect' }]);
    const outcome = await inFlight;
    expect(outcome.message).toBeUndefined();
    expect(transport.silent).toContain(outcome.how);
  });

  it('ends an open listen request with its result, which lets the drain finish', async () => {
    const fixture = lifecycleServer();
    const target = (open = await transport.start(fixture.server, NEVER_RUNS_OUT));
    const { ended } = await target.listen(7);
    await target.close();
    const outcome = await ended;
    // 2026-07-28 subscriptions: the server SHOULD answer the listen request when it ends the stream.
    expect(outcome.message).toMatchObject({ id: 7, result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } } });
  });

  it('returns the same promise from every close()', async () => {
    const fixture = lifecycleServer();
    const target = (open = await transport.start(fixture.server, NEVER_RUNS_OUT));
    const first = target.close();
    expect(target.close()).toBe(first);
    await first;
    // Also once it has finished: a later caller learns of the same stop.
    expect(target.close()).toBe(first);
  });

  it('refuses a request that arrives once the drain began, without running it', async () => {
    const fixture = lifecycleServer();
    const target = (open = await transport.start(fixture.server, NEVER_RUNS_OUT));
    const inFlight = target.request(1, 'prompts/get', { name: 'gated' });
    await until(() => fixture.started.includes('gated'));
    const closing = target.close();
    const late = target.request(2, 'prompts/get', { name: 'quick' });
    // The request in flight keeps the drain open meanwhile; then it is answered.
    fixture.release();
    expect((await inFlight).message?.result).toBeDefined();
    await closing;
    const outcome = await late;
    expect(outcome.message?.result).toBeUndefined();
    expect(transport.refused).toContain(outcome.how);
    if (outcome.how === 'HTTP 503') expect(outcome.message?.error?.message).toContain('shutting down');
    expect(fixture.started).not.toContain('quick');
  });
});
