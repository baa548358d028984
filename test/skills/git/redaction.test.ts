/**
 * A git source's user and password are never shown: not in what the parser
 * keeps, not in the error of a source it refuses (whatever the password holds:
 * "/", "@", "#", "?", spaces, any character), not in a log line, not in what
 * the CLI prints. A distinctive mark inside the password is what must never
 * appear.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownArguments } from '../../../src/cli/main.js';
import { isGitSource, parseGitSpec, redactCredentials, redactSource } from '../../../src/skills/git/spec.js';
import { runCli } from '../../cli/_run.js';

const MARK = 'Mk7f3a9c1e';
/** The characters that end or split a URL's parts, often; any other character too. */
const URL_CHARACTERS = ['/', '@', '#', '?', ':', '%', '%2F', '%40', '\\', '[', ']', '.', ' ', '\t', '\n', 'a', '1'];
const character = fc.oneof(fc.constantFrom(...URL_CHARACTERS), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
/** Any characters at all. */
const anyText = fc.string({ unit: character, maxLength: 12 });
/**
 * Schemes with a host, and so user information (a file: URL has none: what
 * follows "file:" is a local path, where ":" and "@" are only characters;
 * tested apart below).
 */
const scheme = fc.constantFrom('git+https', 'git+ssh', 'https', 'http', 'git+http', 'git+ext', 'ssh', 'git', 'HTTPS', 'GIT+HTTPS');
/** What may follow the scheme: WHATWG URLs take special schemes without slashes, or with backslashes. */
const separator = fc.constantFrom('://', ':', ':/', ':\\\\', ':///', ':\\/');
const source = fc
  .record({ scheme, separator, user: anyText, before: anyText, after: anyText, rest: anyText })
  .map(({ scheme, separator, user, before, after, rest }) => `${scheme}${separator}${user}:${before}${MARK}${after}@${rest}`);

/** What a parsed spec shows or hands to git's command line: everything but the credentials. */
function shown(text: string): string {
  try {
    const { credentials: _, ...rest } = parseGitSpec(text);
    return JSON.stringify(rest);
  } catch (error) {
    return (error as Error).message;
  }
}

describe('a password in a git source', () => {
  it('is never in what the parser keeps or in the error it throws, whatever characters it holds', () => {
    fc.assert(
      fc.property(source, (text) => {
        expect(shown(text)).not.toContain(MARK);
        expect(redactSource(text)).not.toContain(MARK);
      }),
      { numRuns: 3000 },
    );
  });

  it('is never in a log line that names the URL, whatever characters other than spaces it holds', () => {
    const token = anyText.filter((t) => !/\s/.test(t));
    fc.assert(
      fc.property(anyText, fc.constantFrom('https', 'ssh', 'git+https'), token, token, token, anyText, (head, scheme, user, before, after, tail) => {
        const line = `${head} ${scheme}://${user}:${before}${MARK}${after}@host/x.git ${tail}`;
        expect(redactCredentials(line)).not.toContain(MARK);
      }),
      { numRuns: 3000 },
    );
  });

  it('is refused with an error that shows none of it when a "/", "#" or "?" in it leaves an "@" after the host', () => {
    for (const password of [`12/${MARK}`, `12#${MARK}`, `12?${MARK}`, `12\\${MARK}`, `pa/ss${MARK}`]) {
      const text = `git+https://user:${password}@example.com/x.git#main`;
      expect(() => parseGitSpec(text), text).toThrow(/^(not a valid URL|an "@" after the host)/);
      expect(shown(text), text).not.toContain(MARK);
    }
    // A file: URL takes no user information at all.
    for (const text of [`file://user:${MARK}@host/x.git`, `git+file://user:${MARK}@/x.git`]) expect(shown(text), text).not.toContain(MARK);
    // Percent-encoded, as a URL wants it, the same password is served.
    expect(parseGitSpec(`git+https://user:${encodeURIComponent(`12/${MARK}#?@`)}@example.com/x.git`).credentials).toEqual({
      username: 'user',
      password: `12/${MARK}#?@`,
    });
  });

  it('is not in what list prints for a source it refuses, or for a URL that is no git source', async () => {
    for (const text of [
      `git+https://user:pa/ss${MARK}@127.0.0.1:1/x.git`,
      `git+https://user:12/${MARK}@127.0.0.1:1/x.git`,
      `git+https:user:pa/ss${MARK}@127.0.0.1:1/x.git`,
      `git+http://user:${MARK}@127.0.0.1:1/x.git`,
      `https://user:${MARK}@127.0.0.1:1/x.git`,
      `git+ssh://git:${MARK}@127.0.0.1:1/x.git`,
      // ssh's short form is no URL: looked for as a folder, and named without the password.
      `user:${MARK}@127.0.0.1:org/x.git`,
    ]) {
      const { code, stdout, stderr } = await runCli('list', text);
      expect(code, text).toBe(1);
      expect(stderr, text).toMatch(/^skillport list: /);
      expect(stdout + stderr, text).not.toContain(MARK);
    }
  });

  it('is hidden from the command line skillport shows, spaces and all', () => {
    const argv = ['serve', `git+https://user:pa ss${MARK}@example.com/x.git#main`, '--redis', `redis://:${MARK}@127.0.0.1:6379`, '--http', '127.0.0.1:0'];
    const title = shownArguments(argv);
    expect(title).not.toContain(MARK);
    expect(title).toContain('--http 127.0.0.1:0');
    expect(shownArguments(['list', './skills'])).toBeUndefined();
    // The bearer token too, the other secret a command line may hold.
    expect(shownArguments(['serve', '--http', '127.0.0.1:0', '--auth-token', MARK])).toBe('skillport serve --http 127.0.0.1:0 --auth-token ***');
    expect(shownArguments(['serve', `--auth-token=${MARK}`])).toBe('skillport serve --auth-token=***');
  });
});

describe('isGitSource', () => {
  it('takes any URL for a source, so that one with credentials is refused as such and never named as a folder', () => {
    expect(isGitSource('https://user:pw@example.com/x.git')).toBe(true);
    expect(isGitSource('./skills')).toBe(false);
    expect(isGitSource('/srv/skills@v2')).toBe(false);
  });
});
