/**
 * The page around the list or the skill view: the search form (a plain GET
 * form, so search works without the script), how each host connects with
 * copy buttons (shown by the script, which alone can copy), and the shown
 * part in `<main id="main">`, whose ETag the script polls with.
 */
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from './assets.js';
import type { HostConnection } from './connect.js';
import { escapeHtml, text } from './html.js';

export { CONTENT_SECURITY_POLICY };

function connection(host: HostConnection): string {
  const id = `connect-${host.id}`;
  const link = host.link ? ` <a href="${escapeHtml(host.link)}">Install in ${escapeHtml(host.host)}</a>` : '';
  return [
    `<div class="host"><h3>${escapeHtml(host.host)} <small>${escapeHtml(host.where)}</small></h3>`,
    `<pre id="${id}"><code>${escapeHtml(host.text)}</code></pre>`,
    `<button type="button" data-copy="${id}" aria-label="Copy the ${escapeHtml(host.host)} configuration" hidden>Copy</button>${link}</div>`,
  ].join('');
}

export interface PageParts {
  /** The server's name, as `--name` gives it. */
  readonly title: string;
  readonly query: string;
  readonly hosts: readonly HostConnection[];
  /** The shown part: the list or one skill's view. */
  readonly main: string;
  readonly etag: string;
}

/** The whole document. */
export function renderPage(parts: PageParts): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${text(parts.title)}: skills</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<header><h1>${text(parts.title)}</h1>`,
    '<form id="search" role="search" method="get">',
    '<label for="q" class="visually-hidden">Search skills</label>',
    `<input type="search" id="q" name="q" value="${text(parts.query)}" placeholder="Search skills" autocomplete="off" maxlength="200">`,
    '<button type="submit">Search</button></form>',
    `<details class="connect"><summary>Connect a host</summary>${parts.hosts.map(connection).join('')}</details></header>`,
    `<main id="main" data-etag="${escapeHtml(parts.etag)}">${parts.main}</main>`,
    '<footer><p><small>Served by skillport.</small></p></footer>',
    `<script>${SCRIPT}</script></body></html>`,
  ].join('');
}
