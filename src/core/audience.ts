/**
 * Who may use what: a prompt, resource, skill or directory listing may be
 * restricted to audiences (team names, groups, scopes); a request's
 * principal (core/context.ts) names the audiences its caller belongs to. An
 * item is usable by a caller when it names no audience, when the request
 * has no principal (nothing was authenticated: stdio, a static token), or
 * when the two share an audience.
 *
 * The restriction travels on the catalogue's own objects as a symbol-keyed,
 * non-enumerable property: it never reaches the wire (JSON ignores it) and a
 * catalogue stays built once. A caller's view of a list is a filter of it,
 * kept per list and audience set, so every request of the same audiences
 * gets the same array (and the pager's encoded pages of it).
 */
import type { Principal } from './context.js';

const AUDIENCE = Symbol('skillport.audience');

type Restricted = { [AUDIENCE]?: readonly string[] };

/** Restricts `item` to `audience` (an empty list: to no one who is authenticated); returns it. */
export function restrictTo<T extends object>(item: T, audience: readonly string[] | undefined): T {
  if (audience !== undefined) Object.defineProperty(item, AUDIENCE, { value: Object.freeze([...audience]), enumerable: false, configurable: true });
  return item;
}

/** The audiences `item` is restricted to, or undefined when it is not. */
export function audienceOf(item: object): readonly string[] | undefined {
  return (item as Restricted)[AUDIENCE];
}

/** Whether the caller `principal` may use `item`. */
export function mayUse(item: object, principal: Principal | undefined): boolean {
  const audience = (item as Restricted)[AUDIENCE];
  if (audience === undefined || principal === undefined) return true;
  const mine = principal.audiences;
  return mine !== undefined && audience.some((a) => mine.includes(a));
}

/** One string per audience set, the same for equal sets: what views are kept by. */
export function audienceKey(principal: Principal): string {
  const audiences = principal.audiences ?? [];
  return audiences.length < 2 ? (audiences[0] ?? '') : [...new Set(audiences)].sort().join('\n');
}

/** Views kept per list; past this many audience sets the oldest is dropped (and rebuilt if asked again). */
const MAX_VIEWS = 64;
const views = new WeakMap<readonly object[], Map<string, readonly object[]> | null>();

/**
 * The items of `items` the caller may use: `items` itself when it may use
 * them all (nothing restricted, or no principal), else a filtered copy kept
 * for the next caller with the same audiences.
 */
export function visibleTo<T extends object>(items: readonly T[], principal: Principal | undefined): readonly T[] {
  if (principal === undefined) return items;
  let byKey = views.get(items);
  if (byKey === undefined) {
    byKey = items.some((item) => audienceOf(item) !== undefined) ? new Map() : null;
    views.set(items, byKey);
  }
  if (byKey === null) return items;
  const key = audienceKey(principal);
  let view = byKey.get(key) as readonly T[] | undefined;
  if (view === undefined) {
    view = Object.freeze(items.filter((item) => mayUse(item, principal)));
    if (byKey.size >= MAX_VIEWS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, view);
  }
  return view;
}
