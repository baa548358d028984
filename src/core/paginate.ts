/**
 * Cursor pagination for the list methods. The cursor is opaque to clients
 * (MCP server/utilities/pagination: "an opaque string") and encodes an offset
 * (and, for {@link createPager}, the version of the list it belongs to, a
 * digest of its content, so every replica serving the same content accepts
 * it); a cursor no server with this content minted is answered with -32602,
 * as the pagination page recommends.
 */
import { type Encoded, encodeOnce } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { digestText } from '../util/digest.js';
import { trimEndOf } from '../util/trim.js';

/** One page of a list. Pages may be shared between requests: never mutate one. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Present only when more items follow. */
  readonly nextCursor?: string;
}

const PREFIX = 'sp1:';

function encodeCursor(offset: number): string {
  return trimEndOf(btoa(`${PREFIX}${offset}`), '=');
}

/** A cursor's text; -32602 when it is not base64. */
function cursorText(cursor: string): string {
  try {
    return atob(cursor);
  } catch {
    throw new InvalidParamsError('Invalid cursor', { cursor });
  }
}

function decodeCursor(cursor: string): number {
  const text = cursorText(cursor);
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
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end) } : { items: page };
}

const VERSIONED = 'sp3:';
/** A version in a cursor: a content digest, or a local number for a list that has no JSON form. */
const VERSIONED_CURSOR = /^([0-9a-f]{16}|l\d+):(\d+)$/;

/** The version and offset a cursor of {@link createPager} names; -32602 for anything else. */
function readCursor(cursor: string): { version: string; offset: number } {
  const text = cursorText(cursor);
  const match = text.startsWith(VERSIONED) ? VERSIONED_CURSOR.exec(text.slice(VERSIONED.length)) : null;
  const offset = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(offset)) throw new InvalidParamsError('Invalid cursor', { cursor });
  return { version: match[1] as string, offset };
}

/** The one page of a list that fits on one, kept with the list in `wholes`. */
function wholePage<T>(wholes: WeakMap<object, Encoded<Page<unknown>>>, items: readonly T[]): Encoded<Page<T>> {
  let whole = wholes.get(items) as Encoded<Page<T>> | undefined;
  if (!whole) {
    whole = encodeOnce<Page<T>>({ items: Object.freeze(items.slice()) });
    wholes.set(items, whole);
  }
  return whole;
}

/** Pages over the successive versions of one list; see {@link createPager}. */
export interface Pager {
  /**
   * A page of `items`. `view` names the audience set `items` was filtered
   * for (core/audience.ts), if it was: it is part of the list's version, so
   * a cursor minted for one view is refused for another and a cursor cannot
   * page through what another caller sees.
   */
  page<T>(items: readonly T[], cursor: string | undefined, view?: string): Encoded<Page<T>>;
}

/** One kept version of a list and the pages handed out for it, by offset. */
interface Kept {
  items: readonly unknown[];
  /** The view the list was filtered for; undefined for a list everyone sees. */
  view: string | undefined;
  pages: Map<number, Encoded<Page<unknown>>>;
}

/**
 * Pagination that survives the list being replaced (a live reload) while a
 * client pages through it, and that replicas agree on. Each distinct list (by
 * identity: a catalogue hands out the same array until it changes) gets a
 * version, the digest of its JSON text (util/digest.ts), computed once per array;
 * the cursor carries version and offset. Every process serving equal content
 * therefore mints and accepts the same cursors, so a client round-robined
 * across replicas pages through one listing. The last `keep` versions stay
 * reachable: a client finishes on the version it started with instead of
 * stitching pages of two catalogues together (duplicates, missing items). A
 * cursor for a version that is neither current nor kept is -32602, like any
 * invalid cursor (MCP server/utilities/pagination), and the client lists again.
 *
 * While a version is kept, the same (version, offset) yields the same
 * {@link Encoded} page, so what a protocol derives from it (its wire form,
 * that form's text) is made once. The list itself must not be mutated once paged: a changed
 * list is a new array.
 *
 * The versions are kept by the list, in a WeakMap, so one goes when its list
 * does. The lists are the engine's copies of provider catalogues (cached.ts),
 * audience views (audience.ts) and listings a provider returns whole
 * (`listFor`, `readDirectory`, whose contracts say a returned array never
 * changes); a digest per request instead would cost the list path what this
 * saves.
 */
export function createPager(pageSize: number, keep = 8): Pager {
  const versions = new WeakMap<object, string>();
  /**
   * The one page of each list that fits on one. Such a page mints no cursor,
   * so its version is never seen and is not computed for it: the digest
   * stringifies the whole list, which for 10,000 prompts cost about 10 ms
   * and a megabyte of garbage at the first prompts/list (PERFORMANCE.md).
   */
  const wholes = new WeakMap<object, Encoded<Page<unknown>>>();
  const kept = new Map<string, Kept>();
  let local = 0;
  let lastUsed = '';

  function versionOf(items: readonly unknown[], view: string | undefined): string {
    let version = versions.get(items);
    if (version === undefined) {
      try {
        version = digestText(JSON.stringify(items));
      } catch {
        // No JSON form (a cycle, a BigInt): a version only this process knows.
        version = `l${++local}`;
      }
      versions.set(items, version);
    }
    // A view's version is its own, the same on every replica for the same view and content.
    return view === undefined ? version : digestText(`${view}\u0000${version}`);
  }

  function remember(version: string, items: readonly unknown[], view: string | undefined): Kept {
    let entry = kept.get(version);
    if (entry) {
      // Already the most recently used: nothing to reorder (the common case of repeated first pages).
      if (version === lastUsed) return entry;
      kept.delete(version);
    } else {
      entry = { items, view, pages: new Map() };
    }
    kept.set(version, entry);
    lastUsed = version;
    // Maps iterate in insertion order: the first key is the least recently used.
    while (kept.size > keep) kept.delete(kept.keys().next().value as string);
    return entry;
  }

  return {
    page<T>(items: readonly T[], cursor: string | undefined, view?: string): Encoded<Page<T>> {
      if (cursor === undefined && items.length <= pageSize) return wholePage(wholes, items);
      let version = versionOf(items, view);
      let list: readonly T[] = items;
      let offset = 0;
      if (cursor !== undefined) {
        const named = readCursor(cursor);
        // The current list, whoever minted the cursor (another replica with the same content), or a kept one.
        const older = named.version === version ? undefined : kept.get(named.version);
        const source = named.version === version ? items : older?.view === view ? older?.items : undefined;
        if (!source) throw new InvalidParamsError('Invalid cursor', { cursor });
        version = named.version;
        list = source as readonly T[];
        offset = named.offset;
      }
      const entry = remember(version, list, view);
      const known = entry.pages.get(offset) as Encoded<Page<T>> | undefined;
      if (known) return known;
      const end = offset + pageSize;
      const slice = Object.freeze(list.slice(offset, end));
      // The same for every request while the version is kept: its wire forms are made once.
      const page = encodeOnce<Page<T>>(
        end < list.length ? { items: slice, nextCursor: trimEndOf(btoa(`${VERSIONED}${version}:${end}`), '=') } : { items: slice },
      );
      // Only the offsets this pager mints are kept, so forged cursors cannot grow the cache.
      if (offset % pageSize === 0 && offset <= list.length) entry.pages.set(offset, page);
      return page;
    },
  };
}
