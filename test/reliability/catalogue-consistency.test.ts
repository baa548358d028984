/**
 * A client paging through prompts/list while live reload replaces the
 * catalogue must finish on the catalogue it started with: offset-only
 * cursors stitched pages of two catalogues together (duplicates, missing
 * names), which the load test caught under reload. Deterministic here, with
 * the public API: a live prompt set replaced between pages.
 */
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, livePrompts } from '../../src/index.js';
import { modern } from '../_wire.js';
import type { Message } from './_harness.js';

function prompts(names: string[]) {
  return names.map((name) => definePrompt({ name, description: `${name}.`, get: () => name }));
}

async function call(server: ReturnType<typeof createServer>, method: string, params: Message): Promise<Message> {
  const connection = server.connect({ send() {} });
  const reply = (await connection.receive({ jsonrpc: '2.0', id: 1, method, params: modern(params) })) as Message;
  connection.close('disconnect');
  return reply;
}

describe('catalogue consistency across pages', () => {
  it('finishes a listing on the catalogue it started with when the catalogue is replaced between pages', async () => {
    const v1 = ['a', 'b', 'c', 'd', 'e', 'f'];
    const v2 = ['0', 'a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const live = livePrompts(prompts(v1));
    const server = createServer({ name: 't', version: '1', prompts: live, pageSize: 2 });
    const seen: string[] = [];
    let cursor: string | undefined;
    let page = 0;
    do {
      const reply = await call(server, 'prompts/list', cursor ? { cursor } : {});
      expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
      seen.push(...(reply.result.prompts as Message[]).map((p) => p.name as string));
      cursor = reply.result.nextCursor;
      // A reload lands after the first page.
      if (++page === 1) live.set(prompts(v2));
    } while (cursor && page < 20);
    expect(seen).toEqual(v1);
    // A fresh listing sees the new catalogue.
    const fresh = await call(server, 'prompts/list', {});
    expect((fresh.result.prompts as Message[]).map((p) => p.name)).toEqual(['0', 'a']);
    server.close();
  });

  it('answers a cursor from a catalogue too many reloads ago with -32602, never a mixed page', async () => {
    const live = livePrompts(prompts(['a', 'b', 'c']));
    const server = createServer({ name: 't', version: '1', prompts: live, pageSize: 1 });
    const first = await call(server, 'prompts/list', {});
    for (let i = 0; i < 50; i++) {
      live.set(prompts([`v${i}-1`, `v${i}-2`]));
      await call(server, 'prompts/list', {});
    }
    const stale = await call(server, 'prompts/list', { cursor: first.result.nextCursor });
    expect(stale.error?.code ?? 'served b').toSatisfy((v: unknown) => v === -32602 || v === 'served b');
    if (!stale.error) expect((stale.result.prompts as Message[]).map((p) => p.name)).toEqual(['b']);
    server.close();
  });
});
