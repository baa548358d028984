/**
 * The page's one style sheet and one script, inline and allowed by their
 * SHA-256 hashes in the Content-Security-Policy (CSP Level 3 §2.3.1
 * hash-source): no other script can run, whatever a skill's text holds, and
 * neither text carries anything from the folder.
 *
 * The script only enhances: without it the search is a GET form and each
 * skill a link. With it, the list is fetched as you type (debounced), the
 * shown part is polled with `If-None-Match` so it follows the catalogue's
 * reloads (a 304 costs nothing; backing off while the server is away), and
 * the copy buttons copy.
 */
import { createHash } from 'node:crypto';

export const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1f;--muted:#5d5d68;--bg:#fff;--card:#f5f5f8;--line:#d8d8e0;--accent:#2453c7}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ee;--muted:#a4a4b0;--bg:#141418;--card:#1e1e24;--line:#33333c;--accent:#8fb0ff}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header h1{font-size:1.4rem;margin:1rem 0 .5rem}
a{color:var(--accent)}
form{display:flex;gap:.5rem;margin:.5rem 0 1rem}
input[type=search]{flex:1;font:inherit;padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
button{font:inherit;padding:.3rem .8rem;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);cursor:pointer}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
details.connect{background:var(--card);border-radius:8px;padding:.5rem 1rem;margin-bottom:1rem}
.host{margin:.6rem 0}.host h3{font-size:1rem;margin:0}
pre{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
ul.skills{list-style:none;padding:0}
li.skill{border-bottom:1px solid var(--line);padding:.5rem 0}
li.skill h3{margin:0;font-size:1.05rem}li.skill p{margin:.2rem 0}
.facts,.count,small{color:var(--muted);font-size:.9em}
table{border-collapse:collapse;width:100%}td,th{text-align:left;border-bottom:1px solid var(--line);padding:.2rem .4rem}
.size{white-space:nowrap}.findings .error strong{color:#c62828}.findings .warning strong{color:#b26a00}
.markdown{border-top:1px solid var(--line)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;

export const SCRIPT = `(() => {
  'use strict';
  const main = document.getElementById('main');
  const form = document.getElementById('search');
  const input = form && form.querySelector('input[name=q]');
  if (!main || !input) return;
  let etag = main.getAttribute('data-etag');
  let controller;
  const partUrl = () => { const u = new URL(location.href); u.searchParams.set('part', 'main'); return u; };
  async function refresh(poll) {
    if (controller) controller.abort();
    controller = new AbortController();
    const headers = { Accept: 'text/html' };
    if (poll && etag) headers['If-None-Match'] = etag;
    const r = await fetch(partUrl(), { headers, signal: controller.signal, credentials: 'same-origin', cache: 'no-store' });
    if (r.status === 304) return;
    // A 404 is an answer too: the skill shown is gone, or no longer the caller's to see.
    if (!r.ok && r.status !== 404) throw new Error('status ' + r.status);
    const html = await r.text();
    etag = r.headers.get('ETag');
    main.innerHTML = html;
    document.dispatchEvent(new CustomEvent('catalogue-updated'));
  }
  let typing;
  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      const u = new URL(location.href);
      u.searchParams.delete('skill');
      if (input.value === '') u.searchParams.delete('q'); else u.searchParams.set('q', input.value);
      history.replaceState(null, '', u);
      refresh(false).catch(() => {});
    }, 150);
  });
  let wait = 3000;
  function poll() {
    setTimeout(() => {
      if (document.visibilityState !== 'visible') return poll();
      const failed = (e) => { if (e.name !== 'AbortError') wait = Math.min(wait * 2, 60000); };
      refresh(true).then(() => { wait = 3000; }, failed).finally(poll);
    }, wait);
  }
  poll();
  function copied(button, ok) {
    button.textContent = ok ? 'Copied' : 'Select and copy';
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  }
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const source = document.getElementById(button.getAttribute('data-copy'));
      if (!source) return;
      const value = source.textContent;
      const fallback = () => {
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        copied(button, document.execCommand('copy'));
      };
      if (navigator.clipboard && isSecureContext) navigator.clipboard.writeText(value).then(() => copied(button, true), fallback);
      else fallback();
    });
  }
})();`;

/** The CSP source of `text`'s SHA-256, as a hash-source. */
function hashSource(value: string): string {
  return `'sha256-${createHash('sha256').update(value, 'utf8').digest('base64')}'`;
}

/**
 * The page's Content-Security-Policy: nothing but its own script and style
 * by hash, fetches to itself, forms to itself, no frames of it anywhere, no
 * `<base>` (CSP Level 3 §6; `frame-ancestors` §6.4.2, `base-uri` §6.3.1,
 * `form-action` §6.4.1). Inline handlers (`onerror=`) and `javascript:` URLs
 * are blocked by `script-src` without 'unsafe-inline'.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hashSource(SCRIPT)}`,
  `style-src ${hashSource(STYLE)}`,
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');
