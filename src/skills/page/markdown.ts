/**
 * A skill's SKILL.md as HTML, safe to show: the skill's text is untrusted, so
 * markdown-it runs with raw HTML off (`html: false`: a `<script>` or an
 * `<img onerror>` in the Markdown is shown as text, CommonMark §4.6 and §6.6
 * left unrecognised), links only to http, https and mailto or relative paths
 * (`validateLink`: no `javascript:`, `vbscript:`, `data:` or `file:` link,
 * however it is spelt), and images shown as links rather than loaded (the
 * page's Content-Security-Policy would block them anyway). What markdown-it
 * writes of the text itself it escapes. The page's CSP is the second wall.
 */
import markdownIt, { type MarkdownIt } from 'markdown-it';
import { escapeControls } from '../../util/printable.js';
import { escapeHtml } from './html.js';

/** A URI scheme (RFC 3986 §3.1) at the start of a link. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/;
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
/** `url` without what browsers drop or may drop before reading its scheme (WHATWG URL: C0 controls and spaces around it, tabs and newlines anywhere), and DEL. */
function withoutIgnored(url: string): string {
  let kept = '';
  for (const char of url) {
    const code = char.charCodeAt(0);
    if (code > 0x20 && code !== 0x7f) kept += char;
  }
  return kept;
}

/** Whether a link may be followed: no scheme (a relative path or an anchor), or http, https, mailto. */
export function linkAllowed(url: string): boolean {
  const plain = withoutIgnored(url).toLowerCase();
  const scheme = SCHEME.exec(plain)?.[1];
  // A colon before any slash, query or fragment that is no scheme is refused too: browsers differ on it.
  if (scheme === undefined) return !/^[^/?#]*:/.test(plain);
  return ALLOWED_SCHEMES.has(scheme);
}

/** What a rendering knows of its skill: the paths of the files the caller may see, inside the skill. */
export interface MarkdownEnv {
  readonly files?: ReadonlySet<string>;
}

/** The id of a file's row in the skill view's file table (skill-view.ts). */
export function fileAnchor(inSkill: string): string {
  return `file-${encodeURIComponent(inSkill)}`;
}

/**
 * A relative link to one of the skill's own files, as its row in the file
 * table: the page serves no file, and `references/guide.md` resolved against
 * `/` would name nothing. Other links are left as they are.
 */
function withinSkill(href: string, files: ReadonlySet<string> | undefined): string | undefined {
  if (files === undefined || href === '' || SCHEME.test(href) || '/?#'.includes(href[0] as string)) return undefined;
  const end = href.search(/[?#]/);
  let path = end < 0 ? href : href.slice(0, end);
  while (path.startsWith('./')) path = path.slice(2);
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return files.has(path) ? `#${fileAnchor(path)}` : undefined;
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  md.validateLink = linkAllowed;
  const rules = md.renderer.rules;
  const openLink = rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  rules.link_open = (tokens, i, options, env, self) => {
    // No referrer, no opener, no endorsement of what a skill links to.
    tokens[i]?.attrSet('rel', 'nofollow noopener noreferrer');
    const own = withinSkill(String(tokens[i]?.attrGet('href') ?? ''), (env as MarkdownEnv | undefined)?.files);
    if (own !== undefined) tokens[i]?.attrSet('href', own);
    return openLink(tokens, i, options, env, self);
  };
  rules.image = (tokens, i) => {
    const token = tokens[i];
    const src = token?.attrGet('src') ?? '';
    const alt = token?.content ?? '';
    const label = escapeHtml(`image: ${alt === '' ? String(src) : alt}`);
    return src === ''
      ? `<span class="image">[${label}]</span>`
      : `<a class="image" rel="nofollow noopener noreferrer" href="${escapeHtml(String(src))}">[${label}]</a>`;
  };
  return md;
}

let renderer: MarkdownIt | undefined;

/**
 * Markdown as safe HTML; controls and bidi overrides in the text are made
 * visible first (util/printable.ts). Relative links to `env.files` point at
 * their rows in the skill view.
 */
export function renderMarkdown(markdown: string, env: MarkdownEnv = {}): string {
  renderer ??= createRenderer();
  return renderer.render(escapeControls(markdown, { lines: true }), { ...env });
}
