/**
 * Request signals are created on first read. Whenever a handler reads
 * `ctx.signal` or `ctx.closing`, it must see the same thing as if they had
 * existed from the start: aborted if the request was cancelled (or the
 * connection closing) before, firing later otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/core/context.js';
import type { PromptProvider } from '../../src/core/prompts.js';
import { createServer } from '../../src/index.js';
import { modernMeta } from '../_wire.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A provider whose `get` runs `body` with the request's context. */
function provider(body: (ctx: RequestContext) => Promise<string>, list: () => Promise<void> = async () => {}): PromptProvider & { calls: number } {
  const p = {
    calls: 0,
    async list() {
      await list();
      return [{ name: 'p' }];
    },
    async get(_name: string, _args: Record<string, string>, ctx: RequestContext) {
      p.calls++;
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: await body(ctx) } }] };
    },
  };
  return p;
}

const META = modernMeta();
const get = (id: number) => ({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'p', _meta: META } });
const cancelled = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind', _meta: META } });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('request signals', () => {
  it('fires a signal read before the cancellation', async () => {
    let seen: AbortSignal | undefined;
    const server = createServer({
      name: 't',
      version: '1',
      prompts: provider(async (ctx) => {
        seen = ctx.signal;
        expect(ctx.signal).toBe(seen);
        expect(seen.aborted).toBe(false);
        await new Promise((resolve) => seen!.addEventListener('abort', resolve));
        return 'aborted';
      }),
    });
    const connection = server.connect({ send() {} });
    const reply = connection.receive(get(1));
    await tick();
    expect(seen?.aborted).toBe(false);
    await connection.receive(cancelled(1));
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe('changed my mind');
    expect(await reply).toBeUndefined();
  });

  it('hands out an aborted signal when first read after the cancellation', async () => {
    const late = gate();
    let seen: AbortSignal | undefined;
    let cancelledFlag: boolean | undefined;
    const server = createServer({
      name: 't',
      version: '1',
      prompts: provider(async (ctx) => {
        await late.promise;
        cancelledFlag = ctx.cancelled;
        seen = ctx.signal;
        expect(ctx.signal).toBe(seen);
        return 'late';
      }),
    });
    const connection = server.connect({ send() {} });
    const reply = connection.receive(get(1));
    await tick();
    await connection.receive(cancelled(1));
    late.open();
    expect(await reply).toBeUndefined();
    expect(cancelledFlag).toBe(true);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe('changed my mind');
  });

  it('gives a spread copy of the context the request signal, limits and cancelled flag', async () => {
    let copy: RequestContext | undefined;
    const server = createServer({
      name: 't',
      version: '1',
      limits: { maxPromptBytes: 1234 },
      prompts: provider(async (ctx) => {
        // What a provider does to pass its own logger on.
        copy = { ...ctx, logger: ctx.logger };
        expect(copy.cancelled).toBe(false);
        expect(copy.limits?.maxPromptBytes).toBe(1234);
        await new Promise((resolve) => copy!.signal.addEventListener('abort', resolve));
        return 'aborted';
      }),
    });
    const connection = server.connect({ send() {} });
    const reply = connection.receive(get(1));
    await tick();
    expect(copy?.signal.aborted).toBe(false);
    await connection.receive(cancelled(1));
    expect(copy?.signal.aborted).toBe(true);
    expect(await reply).toBeUndefined();
  });

  it('does not call the provider for a request cancelled while the catalogue loads', async () => {
    const loading = gate();
    const prompts = provider(
      async () => 'never',
      () => loading.promise,
    );
    const server = createServer({ name: 't', version: '1', prompts });
    const connection = server.connect({ send() {} });
    const reply = connection.receive(get(1));
    await tick();
    await connection.receive(cancelled(1));
    loading.open();
    expect(await reply).toBeUndefined();
    expect(prompts.calls).toBe(0);
  });

  it('aborts every signal of in-flight requests on disconnect, read before or after', async () => {
    const late = gate();
    const seen: AbortSignal[] = [];
    const server = createServer({
      name: 't',
      version: '1',
      prompts: provider(async (ctx) => {
        if (seen.length === 0) seen.push(ctx.signal);
        await late.promise;
        seen.push(ctx.signal);
        return 'x';
      }),
    });
    const connection = server.connect({ send() {} });
    const one = connection.receive(get(1));
    await tick();
    const two = connection.receive(get(2));
    await tick();
    connection.close('disconnect');
    late.open();
    expect(await one).toBeUndefined();
    expect(await two).toBeUndefined();
    expect(seen).toHaveLength(3);
    for (const signal of seen) {
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe('disconnect');
    }
  });

  it('fires ctx.closing on shutdown whether read before or after, and lets the request finish', async () => {
    const late = gate();
    const closings: AbortSignal[] = [];
    const signals: AbortSignal[] = [];
    const server = createServer({
      name: 't',
      version: '1',
      prompts: provider(async (ctx) => {
        const closing = (ctx as RequestContext & { closing: AbortSignal }).closing;
        if (closings.length === 0) closings.push(closing);
        await late.promise;
        closings.push((ctx as RequestContext & { closing: AbortSignal }).closing);
        signals.push(ctx.signal);
        return 'done';
      }),
    });
    const connection = server.connect({ send() {} });
    const one = connection.receive(get(1));
    await tick();
    expect(closings[0]?.aborted).toBe(false);
    connection.close('shutdown');
    expect(closings[0]?.aborted).toBe(true);
    const two = connection.receive(get(2));
    late.open();
    expect(await one).toMatchObject({ id: 1, result: { messages: [{ content: { text: 'done' } }] } });
    expect(await two).toMatchObject({ id: 2, result: { messages: [{ content: { text: 'done' } }] } });
    for (const closing of closings) {
      expect(closing.aborted).toBe(true);
      expect(closing.reason).toBe('shutdown');
    }
    // Shutdown does not cancel requests.
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    connection.close('disconnect');
  });

  it('hands out an aborted ctx.closing when first read after shutdown began', async () => {
    const late = gate();
    let closing: AbortSignal | undefined;
    const server = createServer({
      name: 't',
      version: '1',
      prompts: provider(async (ctx) => {
        await late.promise;
        closing = (ctx as RequestContext & { closing: AbortSignal }).closing;
        return 'done';
      }),
    });
    const connection = server.connect({ send() {} });
    const reply = connection.receive(get(1));
    await tick();
    connection.close('shutdown');
    late.open();
    expect(await reply).toMatchObject({ id: 1, result: {} });
    expect(closing?.aborted).toBe(true);
    expect(closing?.reason).toBe('shutdown');
    connection.close('disconnect');
  });
});
