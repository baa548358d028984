/**
 * A git source as written on the command line: `git+https://host/org/repo.git#ref:sub/folder`.
 *
 * The npm/pip shape of a git dependency (a `git+` scheme, the ref in the
 * fragment), with a subfolder after the ref. Only the transports git can be
 * held to are accepted (https, ssh, file); anything else, `ext::` among them,
 * is refused here, and again by git itself (`GIT_ALLOW_PROTOCOL`, see run-git.ts).
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/** A parsed git source. */
export interface GitSpec {
  /** The URL handed to git, credentials included. */
  readonly remote: string;
  /** The URL without user and password (what git's command line shows; see run-git.ts `credentialsAside`). */
  readonly bare: string;
  /** The URL with any user and password replaced by `***`: the only form ever logged. */
  readonly display: string;
  /** The branch, tag or commit to serve; undefined for the remote's HEAD. */
  readonly ref: string | undefined;
  /** A folder inside the repository to serve instead of its root ('' for the root). */
  readonly subfolder: string;
  /** The repository's name (last path segment without `.git`), the default prefix of shared references. */
  readonly name: string;
  /** A digest of the remote without credentials: the cache folder's name. */
  readonly key: string;
}

/** A git source that cannot be served as written. */
export class GitSpecError extends Error {
  override name = 'GitSpecError';
}

/** The schemes accepted, and the URL scheme git is given for each. */
const SCHEMES: Record<string, string> = {
  'git+https:': 'https:',
  'git+ssh:': 'ssh:',
  'git+file:': 'file:',
  'file:': 'file:',
};

/**
 * Whether a command-line source names a git repository rather than a folder:
 * a `git+` scheme or a `file:` URL. Unsupported `git+` schemes count, so that
 * they are refused with a reason instead of being looked for as folders.
 */
export function isGitSource(source: string): boolean {
  return /^git\+[a-z][a-z0-9+.-]*:/i.test(source) || /^file:/i.test(source);
}

/**
 * A ref git takes as a refspec source and nothing else (git-check-ref-format
 * rules, narrowed): no leading `-` (it would read as an option), no `:`, `+`,
 * `^`, `~`, `*`, `?`, `[`, `\`, space or control character (refspec syntax),
 * no `..`, `//`, `@{`, trailing `/`, `.` or `.lock`.
 */
const REF = /^(?!-)(?!\/)(?!.*(?:\.\.|\/\/|@\{|\/$|\.$|\.lock$))[A-Za-z0-9._/@-]+$/;

/** Characters that end a URL's user information (RFC 3986 §3.2: it ends at "@", before any "/"), or the URL. */
const USERINFO_END = new Set(['/', '@', ' ', '\t', '\n', '\r']);

/**
 * Replaces the user and password of every URL in `text` by `***`
 * (`https://TOKEN@host` too: the user part may be the token). A scan rather
 * than a regular expression: the unanchored pattern for this backtracks
 * quadratically on a long run without "@".
 */
export function redact(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    const start = at + 3;
    let end = start;
    while (end < text.length && !USERINFO_END.has(text[end] as string)) end++;
    if (text[end] !== '@' || end === start) continue;
    out += `${text.slice(from, start)}***`;
    from = end;
    at = end - 2;
  }
  return out + text.slice(from);
}

/** Parses a git source; throws a {@link GitSpecError} saying what is wrong. */
export function parseGitSpec(source: string): GitSpec {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(source)?.[0].toLowerCase();
  const target = scheme === undefined ? undefined : SCHEMES[scheme];
  if (target === undefined) {
    throw new GitSpecError(`unsupported git source ${redact(source)}: use git+https://, git+ssh://, git+file:// or file://`);
  }
  let url: URL;
  try {
    url = new URL(target + source.slice(scheme?.length));
  } catch {
    throw new GitSpecError(`not a valid URL: ${redact(source)}`);
  }
  if (target !== 'file:' && url.hostname === '') throw new GitSpecError(`no host in ${redact(source)}`);
  if (target === 'file:' && url.host !== '') throw new GitSpecError(`a file: URL names a local path (file:///path), not a host: ${redact(source)}`);
  let fragment: string;
  try {
    fragment = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw new GitSpecError(`bad escape in the #ref of ${redact(source)}`);
  }
  url.hash = '';
  const at = fragment.indexOf(':');
  const ref = at === -1 ? fragment : fragment.slice(0, at);
  const sub = at === -1 ? '' : fragment.slice(at + 1);
  if (ref !== '' && !REF.test(ref)) throw new GitSpecError(`not a branch, tag or commit: "${ref}"`);
  const normal = sub === '' ? '' : posix.normalize(sub);
  // normalize leaves at most one trailing slash.
  const subfolder = normal.endsWith('/') ? normal.slice(0, -1) : normal;
  if (
    sub !== '' &&
    (sub.startsWith('/') || subfolder.startsWith('/') || subfolder === '.' || subfolder === '..' || subfolder.startsWith('../') || sub.includes('\\'))
  ) {
    throw new GitSpecError(`the subfolder must be a path inside the repository: "${sub}"`);
  }
  const remote = url.href;
  const bare = new URL(remote);
  bare.username = '';
  bare.password = '';
  const last = bare.pathname.split('/').filter(Boolean).pop() ?? 'skills';
  return {
    remote,
    bare: bare.href,
    display: redact(remote),
    ref: ref === '' ? undefined : ref,
    subfolder,
    name: last.replace(/\.git$/, '') || 'skills',
    key: createHash('sha256').update(bare.href).digest('hex').slice(0, 16),
  };
}
