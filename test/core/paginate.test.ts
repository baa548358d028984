import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/core/paginate.js';
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
