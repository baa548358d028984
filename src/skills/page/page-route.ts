/**
 * `GET /` for people: the served catalogue as a page (layout.ts), or one
 * skill's view (`?skill=NAME`), or only the shown part (`&part=main`, what
 * the page's script fetches as you type and polls with `If-None-Match`).
 * Answered only to a request that asks for HTML (RFC 9110 §12.5.1 `Accept`);
 * any other gets the 404 the server gave before, so `/` stays what it was
 * for every client but a browser.
 *
 * What is shown is what the caller may use: the list and the skill are
 * looked up in `skillDirectoryFor(principal)` (core/audience.ts `mayUse`), a
 * skill the caller may not use is answered exactly as one that does not
 * exist, and its files are `filesFor(skill, principal)`. Each answer is
 * rendered from the catalogue served at that moment, so a reload shows at
 * the next request.
 */
import type { Principal } from '../../core/context.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { digestText } from '../../util/digest.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { hostConnections } from './connect.js';
import { findingsOf } from './findings.js';
import { CONTENT_SECURITY_POLICY, renderPage } from './layout.js';
import { shownEndpoint } from './mcp-url.js';
import { renderSkillList } from './skill-list.js';
import { renderNoSkill, renderSkillView } from './skill-view.js';

/** The request as the page needs it: the HTTP transport's route request has this shape (`RouteRequest`). */
export interface PageRequest {
  readonly method: string;
  /** The raw query string, with or without its `?`. */
  readonly search?: string;
  readonly headers: { get(name: string): string | null };
  readonly principal?: Principal;
}

/** The page's answer: the shape of the HTTP transport's `RouteReply`. */
export interface PageReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface CataloguePageOptions {
  /** The MCP endpoint's own URL (`serveHttp`'s `url`), or a function giving it once the server listens. */
  url: URL | string | (() => URL | string);
  /**
   * The `Host` values the shown endpoint may take from a request, as
   * `allowedHosts` names them (hostnames, or `host:port`); `*` takes none.
   * Default: the loopback names, as the transport's default.
   */
  allowedHosts?: readonly string[];
  /** The server's name: the page's title and the entry the hosts' configurations name. Default `skillport`. */
  name?: string;
  /**
   * Behind a proxy every request passes (`trustProxy`): the shown endpoint
   * takes its scheme from the proxy's `X-Forwarded-Proto` (http or https), so
   * a page reached over TLS at the proxy shows an https URL. Default false.
   */
  trustProxy?: boolean;
}

/** What a catalogue's page answers: a route for the HTTP transport's `routes` option. */
export type CataloguePage = (request: PageRequest) => Promise<PageReply>;

const MAX_QUERY = 200;
const NOT_FOUND = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'Not Found' } });

/** Whether `accept` names HTML with a q above 0 (RFC 9110 §12.5.1); `*` ranges do not count: only a page asks for HTML by name. */
export function acceptsHtml(accept: string | null): boolean {
  if (accept === null) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/html' && type !== 'application/xhtml+xml') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function urlOf(option: CataloguePageOptions['url']): URL {
  const value = typeof option === 'function' ? option() : option;
  return typeof value === 'string' ? new URL(value) : value;
}

/** The shown part for this query: the list, or one skill's view. */
async function mainPart(
  catalogue: Catalogue,
  principal: Principal | undefined,
  query: string,
  skillName: string | null,
): Promise<{ html: string; found: boolean }> {
  const directory = catalogue.skillDirectoryFor(principal);
  if (skillName === null)
    return { html: renderSkillList(query === '' ? directory.entries : directory.search(query), query, directory.entries.length), found: true };
  const entry = directory.get(skillName);
  if (!entry) return { html: renderNoSkill(skillName), found: false };
  const files = catalogue.filesFor(entry.skill, principal);
  // markdown-it is loaded with the first skill shown, not with every server that may never show one.
  const markdown = await import('./markdown.js');
  return { html: renderSkillView(entry, files, findingsOf(entry.skill, catalogue.skills, catalogue.issues), markdown), found: true };
}

/** Whether `ifNoneMatch` names `etag` (RFC 9110 §13.1.2, weak comparison). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === bare;
  });
}

/**
 * The catalogue page of `source` (a skills folder, or anything holding the
 * catalogue served now), for the HTTP transport's `routes` option at `/`.
 *
 * @example
 * const folder = await loadSkillsFolder(['./skills'], { watch: true });
 * let http: HttpServer;
 * const page = cataloguePage(folder, { url: () => http.url });
 * http = await serveHttp(server, { routes: { '/': { answer: page, access: 'authorized' } } });
 */
export function cataloguePage(source: { readonly catalogue: Catalogue }, options: CataloguePageOptions): CataloguePage {
  const name = options.name ?? 'skillport';
  const forwarded = (request: PageRequest) => (options.trustProxy === true ? request.headers.get('x-forwarded-proto') : null);
  return async (request) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !acceptsHtml(request.headers.get('accept'))) {
      return { status: 404, headers: { 'content-type': 'application/json' }, body: NOT_FOUND };
    }
    const params = new URLSearchParams(request.search ?? '');
    const query = (params.get('q') ?? '').slice(0, MAX_QUERY);
    const skillName = params.get('skill')?.slice(0, MAX_QUERY) ?? null;
    const main = await mainPart(source.catalogue, request.principal, query.trim(), skillName);
    const etag = `W/"${digestText(main.html)}"`;
    const onlyMain = params.get('part') === 'main';
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      // Per caller (the principal's view) and per Accept: no shared cache may keep it.
      'cache-control': 'private, no-cache',
      vary: 'Accept, Authorization, Cookie',
      ...(onlyMain ? { etag } : {}),
    };
    const status = main.found ? 200 : 404;
    if (onlyMain && status === 200 && matches(request.headers.get('if-none-match'), etag)) return { status: 304, headers };
    const body = onlyMain
      ? main.html
      : renderPage({
          title: name,
          query,
          hosts: hostConnections(shownEndpoint(urlOf(options.url), request.headers.get('host'), options.allowedHosts, forwarded(request)), name),
          main: main.html,
          etag,
        });
    return request.method === 'HEAD' ? { status, headers } : { status, headers, body };
  };
}
