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
 *
 * An item may also hold parts restricted on their own ({@link withParts}: a
 * skill's manifest lists the files of a skill nested in it, which has
 * audiences of its own); a caller's view of such an item is a copy without
 * the parts it may not use. And an answer made for the caller's audiences
 * is marked ({@link perCaller}), so that whatever says how widely it may be
 * shared (the 2026-07-28 `cacheScope`) says it is the caller's alone.
 */
import type { Principal } from './context.js';

const AUDIENCE = Symbol('skillport.audience');
const PARTS = Symbol('skillport.parts');

type Restricted = { [AUDIENCE]?: readonly string[]; [PARTS]?: string };

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

/**
 * Says that `item[field]` is a list of parts restricted on their own (the
 * files of a skill's manifest, some of which a nested skill owns): a view of
 * `item` ({@link viewOf}, {@link visibleTo}) leaves out the parts its caller
 * may not use. Returns `item`.
 */
export function withParts<T extends object>(item: T, field: keyof T & string): T {
  Object.defineProperty(item, PARTS, { value: field, enumerable: false, configurable: true });
  return item;
}

function partsOf(item: object): readonly object[] | undefined {
  const field = (item as Restricted)[PARTS];
  const parts = field === undefined ? undefined : (item as Record<string, unknown>)[field];
  return Array.isArray(parts) ? parts : undefined;
}

/**
 * Views kept per list; past this many audience sets the oldest is dropped (and rebuilt if asked again).
 * Keyed by the list itself, in a WeakMap, as the pager keeps versions (paginate.ts): a view is
 * derived from the list's content alone, which never changes once handed over, and goes with it.
 */
const MAX_VIEWS = 64;
/** Per list: its views by audience set, or null when every caller sees it whole. */
const views = new WeakMap<readonly object[], Map<string, readonly object[]> | null>();

function viewsOf(items: readonly object[]): Map<string, readonly object[]> | null {
  let byKey = views.get(items);
  if (byKey === undefined) {
    byKey = items.some(dependsOnAudience) ? new Map() : null;
    views.set(items, byKey);
  }
  return byKey;
}

/** Whether what `item` shows depends on who asks: it, or one of its parts, is restricted. */
export function dependsOnAudience(item: object): boolean {
  if (audienceOf(item) !== undefined) return true;
  const parts = partsOf(item);
  return parts !== undefined && viewsOf(parts) !== null;
}

/**
 * The items of `items` the caller may use, those with parts as {@link viewOf} gives them:
 * `items` itself when every caller sees it whole (nothing restricted, or no
 * principal), else a copy kept for the next caller with the same audiences.
 */
export function visibleTo<T extends object>(items: readonly T[], principal: Principal | undefined): readonly T[] {
  if (principal === undefined) return items;
  const byKey = viewsOf(items);
  if (byKey === null) return items;
  const key = audienceKey(principal);
  let view = byKey.get(key) as readonly T[] | undefined;
  if (view === undefined) {
    // Only an item with parts needs a view of its own; the others are kept as they are.
    view = Object.freeze(items.filter((item) => mayUse(item, principal)).map((item) => (partsOf(item) ? viewOf(item, principal) : item)));
    if (byKey.size >= MAX_VIEWS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, view);
  }
  return view;
}

/** Per item: its views by audience set (bounded as lists' are). */
const itemViews = new WeakMap<object, Map<string, object>>();

/**
 * `item` (a plain object) as the caller sees it: `item` itself when that
 * does not depend on who asks (nothing of it restricted, or no principal),
 * else a copy for the caller's audiences, without the parts it may not use,
 * kept for the next caller with the same audiences and marked
 * {@link perCaller}. Whether the caller may use `item` at all is
 * {@link mayUse}'s to say.
 */
export function viewOf<T extends object>(item: T, principal: Principal | undefined): T {
  if (principal === undefined || !dependsOnAudience(item)) return item;
  let byKey = itemViews.get(item);
  if (byKey === undefined) {
    byKey = new Map();
    itemViews.set(item, byKey);
  }
  const key = audienceKey(principal);
  let view = byKey.get(key) as T | undefined;
  if (view === undefined) {
    const field = (item as Restricted)[PARTS];
    const parts = partsOf(item);
    view = field !== undefined && parts !== undefined ? ({ ...item, [field]: visibleTo(parts, principal) } as T) : ({ ...item } as T);
    restrictTo(view, audienceOf(item));
    perCaller(view);
    if (byKey.size >= MAX_VIEWS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, view);
  }
  return view;
}

/** Answers made for their caller's audiences; a WeakSet, since shared answers are frozen. */
const madeForCaller = new WeakSet<object>();

/**
 * Marks `answer` (a list page, a read's result, a view) as made for its
 * caller: another caller may be answered otherwise, so it must not be served
 * across authorization contexts. Returns `answer`.
 */
export function perCaller<T extends object>(answer: T): T {
  madeForCaller.add(answer);
  return answer;
}

/** Whether `answer` was marked {@link perCaller}. */
export function isPerCaller(answer: object): boolean {
  return madeForCaller.has(answer);
}
