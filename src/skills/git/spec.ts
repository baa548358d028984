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

/** A user and password for an https remote, decoded from the URL. */
export interface GitCredentials {
  readonly username: string;
  readonly password: string;
}

/** A parsed git source. */
export interface GitSpec {
  /**
   * The URL handed to git, on its command line: never a password, and for
   * https no user either (those are {@link GitSpec.credentials}). An ssh URL
   * keeps its user (`git@`), which ssh is given on its command line anyway.
   */
  readonly url: string;
  /** The https user and password of the source, handed to git apart from the URL (run-git.ts `credentialsEnv`). */
  readonly credentials: GitCredentials | undefined;
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
 * a `git+` scheme, a `file:` URL, or any other URL (`https://…`). Unsupported
 * schemes count, so that they are refused with a reason (and their
 * credentials hidden) instead of being looked for, and named, as folders.
 */
export function isGitSource(source: string): boolean {
  return /^git\+[a-z][a-z0-9+.-]*:/i.test(source) || /^file:/i.test(source) || /^[a-z][a-z0-9+.-]+:\/\//i.test(source);
}

/**
 * A ref git takes as a refspec source and nothing else (git-check-ref-format
 * rules, narrowed): no leading `-` (it would read as an option), no `:`, `+`,
 * `^`, `~`, `*`, `?`, `[`, `\`, space or control character (refspec syntax),
 * no `..`, `//`, `@{`, trailing `/`, `.` or `.lock`.
 */
const REF = /^(?!-)(?!\/)(?!.*(?:\.\.|\/\/|@\{|\/$|\.$|\.lock$))[A-Za-z0-9._/@-]+$/;

/**
 * Replaces the user and password of every URL in `text` by `***`
 * (`https://TOKEN@host` too: the user part may be the token). A URL in free
 * text ends at whitespace, and its user information here at the last "@"
 * before that: RFC 3986 §3.2 allows no "/" in it, but a password written
 * unencoded ("pa/ss", as base64 tokens have) is still a password, so a path
 * holding an "@" is hidden too. A scan that reads each word once, rather than
 * a regular expression, which backtracks quadratically on a long word
 * without "@".
 */
export function redactCredentials(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('://'); at !== -1; ) {
    const start = at + 3;
    let end = start;
    let last = -1;
    for (; end < text.length && !/\s/.test(text[end] as string); end++) if (text[end] === '@') last = end;
    if (last > start) {
      out += `${text.slice(from, start)}***`;
      from = last;
    }
    at = text.indexOf('://', end);
  }
  return out + text.slice(from);
}

/** A scheme, and the slashes after it (or backslashes, which WHATWG URLs read as slashes, or none). */
const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:[/\\]*/i;

/**
 * `source`, one URL as written (a command-line argument), with everything
 * between its scheme and its last "@" replaced by `***`: whatever the user
 * and password hold (spaces, "/", "#", "@"), and however the URL parser reads
 * or refuses it. Without a scheme, as {@link redactCredentials}.
 */
export function redactSource(source: string): string {
  const start = SCHEME_PREFIX.exec(source)?.[0].length;
  if (start === undefined) return redactCredentials(source);
  const at = source.lastIndexOf('@');
  return at > start ? `${source.slice(0, start)}***${source.slice(at)}` : source;
}

/** Parses a git source; throws a {@link GitSpecError} saying what is wrong. */
export function parseGitSpec(source: string): GitSpec {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(source)?.[0].toLowerCase();
  const target = scheme === undefined ? undefined : SCHEMES[scheme];
  if (target === undefined) {
    throw new GitSpecError(`unsupported git source ${redactSource(source)}: use git+https://, git+ssh://, git+file:// or file://`);
  }
  let url: URL;
  try {
    url = new URL(target + source.slice(scheme?.length));
  } catch {
    throw new GitSpecError(`not a valid URL: ${redactSource(source)}`);
  }
  if (target !== 'file:' && url.hostname === '') throw new GitSpecError(`no host in ${redactSource(source)}`);
  if (target === 'file:' && url.host !== '') throw new GitSpecError(`a file: URL names a local path (file:///path), not a host: ${redactSource(source)}`);
  // A "/", "?", "#" or "\" in a password ends the authority early (RFC 3986 §3.2; WHATWG URL): the rest of
  // the password, up to the real "@", would be read as the path, the query or the ref, and handed to git.
  if (target !== 'file:' && /@/.test(url.pathname + url.search + url.hash)) {
    throw new GitSpecError(
      `an "@" after the host in ${redactSource(source)}: percent-encode "/", "?", "#" and "@" in a user or password (%2F, %3F, %23, %40), and "@" in a path or ref (%40)`,
    );
  }
  let fragment: string;
  try {
    fragment = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw new GitSpecError(`bad escape in the #ref of ${redactSource(source)}`);
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
  const display = redactCredentials(url.href);
  const credentials = credentialsOf(url, display);
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  // ssh takes its user from the URL (ssh://git@host/...); it is no secret, and ssh is given it on its command line anyway.
  if (target === 'ssh:') bare.username = url.username;
  const key = new URL(bare.href);
  key.username = '';
  const last = bare.pathname.split('/').filter(Boolean).pop() ?? 'skills';
  return {
    url: bare.href,
    credentials,
    display,
    ref: ref === '' ? undefined : ref,
    subfolder,
    name: last.replace(/\.git$/, '') || 'skills',
    key: createHash('sha256').update(key.href).digest('hex').slice(0, 16),
  };
}

/**
 * The user and password of an https URL, decoded as git decodes them; none
 * for a URL without. ssh authenticates with keys (batch mode, see
 * run-git.ts): a password in an ssh URL could only end up on ssh's command line.
 */
function credentialsOf(url: URL, display: string): GitCredentials | undefined {
  if (url.password !== '' && url.protocol === 'ssh:') {
    throw new GitSpecError(`an ssh URL takes no password (ssh authenticates with keys: use ssh-agent or ~/.ssh/config): ${display}`);
  }
  if (url.protocol !== 'https:' || (url.username === '' && url.password === '')) return undefined;
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new GitSpecError(`bad escape in the user or password of ${display}`);
  }
  // git's credential protocol is line-based (one key=value per line, NUL-free): such a value cannot reach it whole.
  if (/[\0\n\r]/.test(username + password)) throw new GitSpecError(`a line break or NUL in the user or password of ${display}`);
  return { username, password };
}
