/**
 * Cursors across replicas: two engines built separately on the same content
 * (two processes behind a load balancer) mint and accept the same cursors,
 * because a list's version is a digest of its content, not a local counter.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/core/engine.js';
import type { Prompt } from '../../src/core/model.js';
import { createPager } from '../../src/core/paginate.js';
import { definePrompt, staticPrompts } from '../../src/core/prompts.js';
import { defineResource, staticResources } from '../../src/core/resources.js';
import { ErrorCode } from '../../src/jsonrpc/errors.js';

function replica() {
  // Built afresh each call: nothing is shared between the two but the content.
  const prompts = Array.from({ length: 23 }, (_, i) => definePrompt({ name: `p${i}`, description: `prompt ${i}`, get: () => ({ messages: [] }) }));
  const resources = Array.from({ length: 11 }, (_, i) => defineResource({ uri: `x://r/${i}`, name: `r${i}`, read: () => ({ contents: [] }) }));
  return createEngine({ prompts: staticPrompts(prompts), resources: staticResources({ resources }), pageSize: 5 });
}

describe('cursors across replicas', () => {
  it('pages prompts/list alternately across two engines and yields exactly one engine’s listing', async () => {
    const a = replica();
    const b = replica();
    const alone: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await a.listPrompts(cursor);
      alone.push(...page.items.map((prompt: Prompt) => prompt.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);

    const alternating: string[] = [];
    let turn = 0;
    do {
      const page = await (turn++ % 2 === 0 ? a : b).listPrompts(cursor);
      alternating.push(...page.items.map((prompt: Prompt) => prompt.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(turn).toBe(5);
    expect(alternating).toEqual(alone);
    expect(new Set(alternating).size).toBe(23);
  });

  it('mints the same cursor on both engines for the same page', async () => {
    const a = replica();
    const b = replica();
    const fromA = (await a.listResources(undefined)).nextCursor;
    expect(fromA).toBeDefined();
    expect((await b.listResources(undefined)).nextCursor).toBe(fromA);
    expect((await b.listResources(fromA)).items.map((r) => r.name)).toEqual(['r5', 'r6', 'r7', 'r8', 'r9']);
  });

  it('refuses with -32602 a cursor for content the other replica does not serve', async () => {
    const a = replica();
    const other = createEngine({
      prompts: staticPrompts(Array.from({ length: 23 }, (_, i) => definePrompt({ name: `q${i}`, get: () => ({ messages: [] }) }))),
      pageSize: 5,
    });
    const cursor = (await a.listPrompts(undefined)).nextCursor;
    await expect(other.listPrompts(cursor)).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'Invalid cursor' });
  });
});

describe('createPager versions by content', () => {
  it('accepts on a fresh pager the cursor another pager minted for an equal list', () => {
    const first = createPager(2).page(['a', 'b', 'c'], undefined);
    expect(createPager(2).page(['a', 'b', 'c'], first.nextCursor)).toEqual({ items: ['c'] });
  });

  it('tells lists apart that differ in one item or in order', () => {
    const cursor = createPager(2).page(['a', 'b', 'c'], undefined).nextCursor;
    for (const list of [
      ['a', 'b', 'd'],
      ['b', 'a', 'c'],
      ['a', 'b', 'c', 'd'],
    ]) {
      expect(() => createPager(2).page(list, cursor), list.join()).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    }
  });
});
