/**
 * Files a skill's text cites that its folder does not hold: a path into the
 * folders the Agent Skills format names (`references/forms.md`,
 * `scripts/fill.py`, `assets/logo.png`, with or without `./`) anywhere in the
 * body, code included (a command line is where a script is cited), and a
 * relative Markdown link (`[guide](guide.md)`) outside code. A model told to
 * read or run such a file finds nothing there. What leaves the skill's
 * folder (`../`, an absolute path, a URL) or is a pattern (`scripts/<name>.py`)
 * is not checked, nor is `references/<slug>.md` when the served folders
 * share a reference document of that slug, which such a citation falls back
 * to (catalogue/citations.ts). One finding per path, on the line it is
 * first cited.
 */
import { lineCounter } from './frontmatter.js';
import type { Issue } from './issues.js';
import type { TemplateText } from './placeholders.js';
import type { SkillRecord } from './skill-record.js';

// A path token starting at one of the format's folders, not inside a longer path or word.
const BARE_PATH = /(?<![\w./-])(?:\.\/)?(?:references|scripts|assets)\/[\w./-]*/g;
// An inline link's destination: `](`, spaces, an optional `<`, then up to a space, `)` or `>`.
const LINK = /\]\([ \t]*<?([^\s)>]+)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Characters that make a cited path a pattern rather than a file: `scripts/<name>.py`, `references/{topic}.md`. */
const PATTERN_CHARACTERS = '<{*$[%';

/** The spans of a text's fenced code blocks (CommonMark §4.5), as [start, end) offsets. */
function fencedSpans(text: string, from: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let open: { at: number; fence: string } | undefined;
  for (let at = from; at < text.length; ) {
    const next = text.indexOf('\n', at);
    const end = next === -1 ? text.length : next + 1;
    const fence = FENCE.exec(text.slice(at, Math.min(end, at + 64)))?.[1];
    if (fence !== undefined) {
      if (!open) open = { at, fence };
      else if (fence[0] === open.fence[0] && fence.length >= open.fence.length) {
        spans.push([open.at, end]);
        open = undefined;
      }
    }
    at = end;
  }
  if (open) spans.push([open.at, text.length]);
  return spans;
}

/**
 * Whether an offset is inside a fenced block or a code span of its line (an
 * odd number of backticks before it on the line), for offsets asked in
 * increasing order: one scan of the text for a whole pass.
 */
function codeTester(text: string, from: number): (at: number) => boolean {
  const fences = fencedSpans(text, from);
  let fence = 0;
  let scanned = from;
  let ticks = 0;
  return (at) => {
    while (fence < fences.length && (fences[fence] as [number, number])[1] <= at) fence++;
    const span = fences[fence];
    if (span !== undefined && span[0] <= at) return true;
    for (; scanned < at; scanned++) {
      const unit = text.charCodeAt(scanned);
      if (unit === 10) ticks = 0;
      else if (unit === 96) ticks++;
    }
    return ticks % 2 === 1;
  };
}

/** A link destination as a path inside the skill folder, or undefined when it leaves it or is not a path. */
function linkPath(target: string): string | undefined {
  if (target.startsWith('#') || target.startsWith('/') || target.startsWith('~') || SCHEME.test(target)) return undefined;
  let path = target;
  for (const cut of ['#', '?']) if (path.includes(cut)) path = path.slice(0, path.indexOf(cut));
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if ([...PATTERN_CHARACTERS].some((c) => path.includes(c))) return undefined;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') {
      if (parts.pop() === undefined) return undefined;
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  if (parts.length === 0) return undefined;
  return parts.join('/') + (path.endsWith('/') ? '/' : '');
}

/**
 * A bare path token as a path inside the skill folder, or undefined when it
 * names no file: a pattern, a link's text (`[references/x](...)`, whose
 * destination is checked instead), or a name without an extension
 * (`scripts/azd`), which prose uses for folders of the reader's own project.
 */
function barePath(token: string, following: string | undefined): string | undefined {
  if (following !== undefined && (PATTERN_CHARACTERS.includes(following) || following === ']')) return undefined;
  let end = token.length;
  while (end > 0 && token[end - 1] === '.') end--;
  const path = token.slice(token.startsWith('./') ? 2 : 0, end);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.lastIndexOf('.') > 0 ? path : undefined;
}

/**
 * The cited paths of `texts` (SKILL.md, then its locale variants) that are
 * not among `held()` (the paths inside the skill folder, a folder's with a
 * trailing `/`; asked for only once something is cited), each once for the
 * skill. A path held in another case is named: it is found on some systems
 * and not on others.
 */
export function missingCitations(texts: readonly TemplateText[], held: () => ReadonlySet<string>, shared: (path: string) => boolean = () => false): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  let lowered: Map<string, string> | undefined;
  for (const { path: file, text, bodyOffset } of texts) {
    const report = (path: string | undefined, at: number, lineAt: (offset: number) => number): void => {
      if (path === undefined || seen.has(path)) return;
      seen.add(path);
      const paths = held();
      if (paths.has(path) || shared(path)) return;
      lowered ??= new Map([...paths].map((p) => [p.toLowerCase(), p]));
      const other = lowered.get(path.toLowerCase());
      const what = other !== undefined ? `only "${other}", in another case` : `no such ${path.endsWith('/') ? 'folder' : 'file'}`;
      issues.push({
        severity: 'warning',
        code: 'missing_file',
        path: file,
        line: lineAt(at),
        message: `The text cites "${path}", but the skill's folder has ${what}`,
      });
    };
    const bareLine = lineCounter(text);
    for (const match of text.slice(bodyOffset).matchAll(BARE_PATH)) {
      const at = bodyOffset + match.index;
      report(barePath(match[0], text[at + match[0].length]), at, bareLine);
    }
    const linkLine = lineCounter(text);
    let inCode: ((at: number) => boolean) | undefined;
    for (const match of text.slice(bodyOffset).matchAll(LINK)) {
      const at = bodyOffset + match.index;
      inCode ??= codeTester(text, bodyOffset);
      if (!inCode(at)) report(linkPath(match[1] as string), at, linkLine);
    }
  }
  return issues;
}

// A citation a shared reference document answers: one segment under `references/`.
const SHARED_CITATION = /^references\/([^/]+)\.md$/;

/**
 * The files a served skill's SKILL.md and locale variants cite that are not
 * there; `source` is where its SKILL.md is, `shared` the slugs of the shared
 * reference documents. The skill's paths are listed only once something is cited.
 */
export function citationIssues(skill: SkillRecord, source: string, shared: ReadonlyMap<string, string>): Issue[] {
  const prefix = skill.dir === '' ? '' : `${skill.dir}/`;
  const texts: TemplateText[] = [
    { path: source, text: skill.text, bodyOffset: skill.bodyOffset },
    ...skill.locales.map((v) => ({ path: `${prefix}SKILL.${v.locale}.md`, text: v.text, bodyOffset: v.bodyOffset })),
  ];
  let held: Set<string> | undefined;
  const paths = (): Set<string> => (held ??= new Set([...skill.files.map((f) => f.inSkill), ...skill.directories.filter((d) => d !== '').map((d) => `${d}/`)]));
  const answered = (path: string): boolean => {
    const slug = SHARED_CITATION.exec(path)?.[1];
    return slug !== undefined && shared.has(slug);
  };
  return missingCitations(texts, paths, answered);
}
