/**
 * Cursor pagination for the list methods. The cursor is opaque to clients
 * (MCP server/utilities/pagination: "an opaque string") and encodes an offset;
 * a cursor this server did not mint is answered with -32602, as the
 * pagination page recommends.
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';

/** One page of a list. */
export interface Page<T> {
  items: T[];
  /** Present only when more items follow. */
  nextCursor?: string;
}

const PREFIX = 'sp1:';

function encodeCursor(offset: number): string {
  return btoa(`${PREFIX}${offset}`).replace(/=+$/, '');
}

function decodeCursor(cursor: string): number {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    throw new InvalidParamsError('Invalid cursor', { cursor });
  }
  const offset = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new InvalidParamsError('Invalid cursor', { cursor });
  return offset;
}

/**
 * Returns the page of `items` that `cursor` points at. A cursor past the end
 * (the list shrank since it was minted) yields an empty last page.
 */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number): Page<T> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const end = offset + pageSize;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end);
  return page;
}
