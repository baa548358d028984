/**
 * The catalogue page's HTML over a folder whose every text is hostile: no
 * element, attribute or URL that could run script survives, only the page's
 * own script (allowed by its hash) is there, and the answers carry the
 * Content-Security-Policy and the other headers that keep what the markup
 * cannot. Also: the list follows load_skill's search, a skill's view shows
 * its arguments, locales, files and findings, and `/` answers non-HTML
 * requests with the 404 it gave before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue, type Catalogue } from '../../../src/skills/catalogue/catalogue.js';
import type { Issue } from '../../../src/skills/load/issues.js';
import type { SkillRecord } from '../../../src/skills/load/skill-record.js';
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from '../../../src/skills/page/assets.js';
import { findingsOf } from '../../../src/skills/page/findings.js';
import { linkAllowed } from '../../../src/skills/page/markdown.js';
import { acceptsHtml, cataloguePage, type PageRequest } from '../../../src/skills/page/page-route.js';
import { PWN, writeHostileFolder } from './_hostile.js';

let folder: { dir: string; remove(): void };
let catalogue: Catalogue;

beforeAll(async () => {
  folder = writeHostileFolder();
  catalogue = await buildCatalogue([folder.dir], {});
});
afterAll(() => folder.remove());

const page = () => cataloguePage({ catalogue }, { url: 'http://127.0.0.1:3000/mcp' });

function get(search: string, headers: Record<string, string> = {}): PageRequest {
  const all = new Map(Object.entries({ accept: 'text/html', host: '127.0.0.1:3000', ...headers }).map(([k, v]) => [k.toLowerCase(), v]));
  return { method: 'GET', search, headers: { get: (name) => all.get(name.toLowerCase()) ?? null } };
}

/** Every start tag of `html`: its name and its attributes, values with their entities decoded as a browser would. */
function tags(html: string): Array<{ name: string; attributes: Map<string, string> }> {
  const found: Array<{ name: string; attributes: Map<string, string> }> = [];
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const attributes = new Map<string, string>();
    for (const a of (match[2] as string).matchAll(/([^\s=/"'<>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      const raw = a[2] ?? a[3] ?? a[4] ?? '';
      const decoded = raw
        .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
        .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
      attributes.set((a[1] as string).toLowerCase(), decoded);
    }
    found.push({ name: (match[1] as string).toLowerCase(), attributes });
  }
  return found;
}

/** What a browser would take as the scheme of a URL attribute. */
function schemeOf(url: string): string | undefined {
  const kept = [...url].filter((char) => char.charCodeAt(0) > 0x20 && char.charCodeAt(0) !== 0x7f).join('');
  return /^([a-z][a-z0-9+.-]*):/i.exec(kept)?.[1]?.toLowerCase();
}

/** Fails on anything in `html` that could run script, but the page's own script element. */
function expectInert(html: string): void {
  const found = tags(html);
  const scripts = found.filter((t) => t.name === 'script');
  expect(scripts.length).toBeLessThanOrEqual(1);
  // The one script is the page's own, whose text is fixed: the document holds it once, exactly.
  if (scripts.length === 1) expect(html.split('<script')).toHaveLength(2);
  if (scripts.length === 1) expect(html).toContain(`<script>${SCRIPT}</script>`);
  for (const tag of found) {
    expect(['iframe', 'svg', 'math', 'object', 'embed', 'img', 'base', 'link'], tag.name).not.toContain(tag.name);
    for (const [name, value] of tag.attributes) {
      expect(name.startsWith('on'), `${tag.name} ${name}`).toBe(false);
      if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(name)) {
        const scheme = schemeOf(value);
        if (scheme !== undefined) expect(['http', 'https', 'mailto', 'vscode', 'cursor'], value).toContain(scheme);
      }
    }
  }
  expect(html).not.toMatch(/<\/script>\s*<script>window/);
  // Every payload is still there, as text the reader can see.
  expect(html).not.toContain('<script>window.__pwned');
}

describe('the catalogue page', () => {
  it('renders hostile frontmatter and Markdown as text, with nothing that can run', async () => {
    const list = await page()(get(''));
    expect(list.status).toBe(200);
    expectInert(list.body as string);
    expect(list.body).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    // Bidi overrides are shown as escapes, not obeyed.
    expect(list.body).toContain('\\u202eevil\\u202c');
    expect(list.body).not.toContain('\u202E');

    const view = await page()(get('?skill=hostile'));
    expect(view.status).toBe(200);
    const html = view.body as string;
    expectInert(html);
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.com/docs" rel="nofollow noopener noreferrer">fine</a>');
    // A relative link to one of the skill's files points at its row; a missing one stays as written.
    expect(html).toContain('<tr id="file-SKILL.fr.md">');
    expect(html).toContain('<a href="#file-SKILL.fr.md" rel="nofollow noopener noreferrer">the French text</a>');
    expect(html).toContain('<a href="references/guide.md" rel="nofollow noopener noreferrer">relative</a>');
    for (const label of ['plain', 'upper', 'entity', 'tabbed', 'vb', 'data', 'file', 'ref link']) expect(html).not.toMatch(new RegExp(`<a [^>]*>${label}</a>`));
    expect(html).toContain('\\u2066isolate\\u2069');
    // The argument, the locale and the odd file name, as text.
    expect(html).toContain('&lt;b onmouseover=&quot;window.__pwned=1&quot;&gt;bold&lt;/b&gt;');
    expect(html).toContain('<code>fr</code>');
    expect(html).toContain('references/&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.md');
  });

  it('refuses every link scheme but http, https and mailto', () => {
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:x',
      ' javascript:x',
      'java\tscript:x',
      'java%09script:x',
      'vbscript:x',
      'data:text/html,x',
      'file:///etc/passwd',
      'x:y',
    ]) {
      expect(linkAllowed(url), url).toBe(false);
    }
    for (const url of ['https://example.com', 'http://example.com/a:b', 'mailto:a@example.com', 'references/a.md', '#part', '/x?y=a:b', '../up'])
      expect(linkAllowed(url), url).toBe(true);
  });

  it('sends a strict Content-Security-Policy and the headers that keep the page to itself', async () => {
    const reply = await page()(get(''));
    const csp = reply.headers['content-security-policy'] as string;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe');
    const { createHash } = await import('node:crypto');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(SCRIPT)}`);
    expect(csp).toContain(`style-src ${hash(STYLE)}`);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('lists skills in the order load_skill ranks them, and shows one skill whole', async () => {
    const reply = await page()(get('?q=release+notes&part=main'));
    expect(reply.body).toContain('>calm</a>');
    expect(reply.body).not.toContain('>hostile</a>');
    const names = catalogue
      .skillDirectoryFor(undefined)
      .search('release notes')
      .map((e) => e.prompt.name);
    expect(names).toEqual(['calm']);
    const view = (await page()(get('?skill=hostile&part=main'))).body as string;
    expect(view).toContain('<h3>Arguments</h3>');
    expect(view).toContain('<code>target</code>');
    expect(view).toContain('<h3>Locales</h3>');
    expect(view).toContain('<h3>Files</h3>');
    expect(view).toMatch(/<code>SKILL\.md<\/code><\/td><td class="size">\d+(\.\d)? (B|KB)<\/td>/);
    expect(view).not.toContain('<html');
  });

  it('answers an unknown skill as not found, and a part unchanged as 304', async () => {
    expect((await page()(get('?skill=nope'))).status).toBe(404);
    const first = await page()(get('?part=main'));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
    const again = await page()(get('?part=main', { 'if-none-match': etag }));
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect((await page()(get('?part=main&q=calm', { 'if-none-match': etag }))).status).toBe(200);
  });

  it('shows the endpoint on a Host only the allow-list vouches for', async () => {
    const shown = async (host: string, allowedHosts?: string[]) => {
      const body = (await cataloguePage({ catalogue }, { url: 'http://0.0.0.0:3000/mcp', ...(allowedHosts ? { allowedHosts } : {}) })(get('', { host })))
        .body as string;
      return /claude mcp add --transport http skillport ([^\s<]+)</.exec(body)?.[1];
    };
    expect(await shown('localhost:3000')).toBe('http://localhost:3000/mcp');
    expect(await shown('evil.example')).toBe('http://0.0.0.0:3000/mcp');
    expect(await shown('skills.example.com', ['skills.example.com'])).toBe('http://skills.example.com/mcp');
    expect(await shown('evil.example', ['*'])).toBe('http://0.0.0.0:3000/mcp');
    expect(await shown('skills.example.com"><script>', ['*'])).toBe('http://0.0.0.0:3000/mcp');
  });

  it('takes the scheme a trusted proxy forwards, and only from a trusted proxy', async () => {
    const shown = async (trustProxy: boolean, proto: string) => {
      const page = cataloguePage({ catalogue }, { url: 'http://0.0.0.0:8080/mcp', allowedHosts: ['skills.example.com'], trustProxy });
      const body = (await page(get('', { host: 'skills.example.com', 'x-forwarded-proto': proto }))).body as string;
      return /claude mcp add --transport http skillport ([^\s<]+)</.exec(body)?.[1];
    };
    expect(await shown(true, 'https')).toBe('https://skills.example.com/mcp');
    expect(await shown(true, 'javascript, https')).toBe('https://skills.example.com/mcp');
    expect(await shown(true, 'https, javascript')).toBe('http://skills.example.com/mcp');
    expect(await shown(false, 'https')).toBe('http://skills.example.com/mcp');
  });

  it('gives the install links of each host', async () => {
    const body = (await page()(get(''))).body as string;
    const config = encodeURIComponent(JSON.stringify({ name: 'skillport', type: 'http', url: 'http://127.0.0.1:3000/mcp' }));
    expect(body).toContain(`href="vscode:mcp/install?${config}"`);
    const cursor = /href="(cursor:[^"]+)"/.exec(body)?.[1] as string;
    const link = new URL(cursor.replaceAll('&amp;', '&'));
    expect(link.host + link.pathname).toBe('anysphere.cursor-deeplink/mcp/install');
    expect(link.searchParams.get('name')).toBe('skillport');
    expect(JSON.parse(Buffer.from(link.searchParams.get('config') as string, 'base64').toString())).toEqual({ url: 'http://127.0.0.1:3000/mcp' });
    expect(body).toContain('&quot;mcp-remote&quot;');
  });

  it('keeps the 404 for a request that does not ask for HTML', async () => {
    for (const accept of ['application/json', '*/*', 'text/html;q=0', '']) {
      const reply = await page()(get('', { accept }));
      expect(reply.status, accept).toBe(404);
      expect(reply.headers['content-type']).toBe('application/json');
    }
    expect((await page()({ ...get(''), method: 'POST' })).status).toBe(404);
    expect(acceptsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(acceptsHtml('application/xhtml+xml')).toBe(true);
  });

  it('gives a skill the findings of its own files, none of a nested skill’s', () => {
    const skill = (dir: string) => ({ dir }) as SkillRecord;
    const [outer, inner, sibling] = [skill('outer'), skill('outer/parts/inner'), skill('outer-two')];
    const issue = (path: string): Issue => ({ severity: 'warning', code: 'x', path, message: path });
    const issues = ['outer/SKILL.md', 'outer/parts/notes.md', 'outer/parts/inner/SKILL.md', 'outer-two/SKILL.md', 'elsewhere.md'].map(issue);
    const all = [outer, inner, sibling];
    expect(findingsOf(outer, all, issues).map((i) => i.path)).toEqual(['outer/SKILL.md', 'outer/parts/notes.md']);
    expect(findingsOf(inner, all, issues).map((i) => i.path)).toEqual(['outer/parts/inner/SKILL.md']);
    expect(findingsOf(sibling, all, issues).map((i) => i.path)).toEqual(['outer-two/SKILL.md']);
  });

  it('answers HEAD with the headers alone', async () => {
    const reply = await page()({ ...get(''), method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeUndefined();
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(PWN).toBe('window.__pwned=1');
  });
});
