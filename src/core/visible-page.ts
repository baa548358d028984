/** A list page as one caller sees it: the engine's lists are filtered by audience (core/audience.ts). */
import type { Encoded } from '../jsonrpc/encoded.js';
import { audienceKey, perCaller, visibleTo } from './audience.js';
import type { Principal } from './context.js';
import type { Page, Pager } from './paginate.js';

/**
 * The page of what `principal` may see of `list`; a filtered list's cursors
 * are its view's alone, and its pages are answers for that caller.
 */
export function pageFor<T extends object>(pager: Pager, list: readonly T[], cursor: string | undefined, principal: Principal | undefined): Encoded<Page<T>> {
  const visible = visibleTo(list, principal);
  if (visible === list || principal === undefined) return pager.page(list, cursor);
  return perCaller(pager.page(visible, cursor, audienceKey(principal)));
}
