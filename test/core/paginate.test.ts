import { describe, expect, it } from 'vitest';
import { createPager, paginate } from '../../src/core/paginate.js';
import { ErrorCode } from '../../src/jsonrpc/errors.js';

describe('paginate', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);

  it('walks every item exactly once and ends without a cursor', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = paginate(items, cursor, 3);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });

  it('gives no cursor when everything fits', () => {
    expect(paginate(items, undefined, 7)).toEqual({ items });
  });

  it('rejects cursors it did not mint with -32602', () => {
    for (const cursor of ['garbage', '', '!!', btoa('sp1:-1'), btoa('sp1:1.5'), btoa('other:3')]) {
      expect(() => paginate(items, cursor, 3), cursor).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    }
  });

  it('returns an empty last page for a cursor past a shrunken list', () => {
    const cursor = paginate(items, undefined, 3).nextCursor;
    expect(paginate([1], cursor, 3)).toEqual({ items: [] });
  });
});

describe('createPager', () => {
  it('hands out the same frozen page for the same list version and offset', () => {
    const pager = createPager(2);
    const items = ['a', 'b', 'c'];
    const first = pager.page(items, undefined);
    expect(pager.page(items, undefined)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.items)).toBe(true);
    const second = pager.page(items, first.nextCursor);
    expect(second).toEqual({ items: ['c'] });
    expect(pager.page(items, first.nextCursor)).toBe(second);
  });

  it('answers a list that fits on one page without digesting it, and digests it when a cursor names a version', () => {
    const pager = createPager(3);
    let digested = 0;
    // The version is the digest of the list's JSON text: toJSON counts how often it is made.
    const item = (name: string) => ({ name, toJSON: () => (digested++, { name }) });
    const whole = [item('a'), item('b')];
    const page = pager.page(whole, undefined);
    expect(page).toEqual({ items: whole });
    expect(Object.isFrozen(page) && Object.isFrozen(page.items)).toBe(true);
    expect(pager.page(whole, undefined)).toBe(page);
    expect(digested).toBe(0);
    // A cursor minted elsewhere for this content and a smaller page (another replica's) still pages it.
    const elsewhere = createPager(1).page(whole, undefined);
    expect(digested).toBe(2);
    expect(pager.page(whole, elsewhere.nextCursor)).toEqual({ items: [whole[1]] });
    expect(digested).toBe(4);
  });

  it('pages a new list afresh and keeps the old one reachable by its cursors', () => {
    const pager = createPager(2);
    const v1 = ['a', 'b', 'c'];
    const first = pager.page(v1, undefined);
    const v2 = ['x', 'y', 'z', 'w'];
    const fresh = pager.page(v2, undefined);
    expect(fresh).not.toBe(first);
    expect(fresh.items).toEqual(['x', 'y']);
    expect(pager.page(v2, first.nextCursor)).toEqual({ items: ['c'] });
  });

  it('does not cache pages for offsets it never minted', () => {
    const pager = createPager(2);
    const items = ['a', 'b', 'c'];
    const first = pager.page(items, undefined);
    const version = atob(first.nextCursor!).split(':')[1];
    const forged = btoa(`sp3:${version}:1`);
    const page = pager.page(items, forged);
    expect(page.items).toEqual(['b', 'c']);
    expect(pager.page(items, forged)).not.toBe(page);
  });
});
