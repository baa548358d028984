/**
 * How a git source is written: schemes, the #ref:subfolder fragment, what is
 * refused, and credentials kept out of everything shown.
 */
import { describe, expect, it } from 'vitest';
import { isGitSource, parseGitSpec, redactCredentials } from '../../../src/skills/git/spec.js';

describe('parseGitSpec', () => {
  it('reads the scheme, the ref and the subfolder', () => {
    expect(parseGitSpec('git+https://example.com/team/skills.git#main:tools/skills')).toMatchObject({
      url: 'https://example.com/team/skills.git',
      ref: 'main',
      subfolder: 'tools/skills',
      name: 'skills',
    });
    expect(parseGitSpec('git+ssh://git@example.com/team/skills.git#v1.2.0')).toMatchObject({
      url: 'ssh://git@example.com/team/skills.git',
      ref: 'v1.2.0',
      subfolder: '',
    });
    expect(parseGitSpec('git+file:///srv/repos/skills.git')).toMatchObject({ url: 'file:///srv/repos/skills.git', ref: undefined, subfolder: '' });
    expect(parseGitSpec('file:///srv/repos/skills#:sub/')).toMatchObject({
      url: 'file:///srv/repos/skills',
      ref: undefined,
      subfolder: 'sub',
      name: 'skills',
    });
    expect(parseGitSpec('git+https://example.com/r.git#release/2026')).toMatchObject({ ref: 'release/2026' });
  });

  it('refuses transports other than https, ssh and file, ext:: among them', () => {
    for (const source of ['git+ext::sh -c touch% /tmp/x', 'ext::sh -c id', 'git+http://example.com/r.git', 'git+fd::17', 'git://example.com/r.git']) {
      expect(() => parseGitSpec(source), source).toThrow(/unsupported git source/);
    }
    expect(isGitSource('git+ext::sh')).toBe(true);
    expect(isGitSource('./skills')).toBe(false);
    expect(isGitSource('file:///srv/skills')).toBe(true);
  });

  it('refuses a ref that starts with "-", which git would read as an option', () => {
    // Each of these is refused by this rule alone: letters, digits and "-" are otherwise allowed.
    for (const ref of ['-x', '--recurse-submodules', '--mirror', '-']) {
      expect(() => parseGitSpec(`git+https://example.com/r.git#${ref}`), ref).toThrow(`not a branch, tag or commit: "${ref}"`);
    }
    for (const ref of ['a-b', 'release-2', 'x--y']) expect(parseGitSpec(`git+https://example.com/r.git#${ref}`).ref).toBe(ref);
  });

  it('refuses refs that git would read as options or refspec syntax, and subfolders outside the repository', () => {
    for (const ref of ['-upload-pack=touch /tmp/x', 'a..b', 'a b', 'x^', '+main', 'main.lock', '@{1}']) {
      expect(() => parseGitSpec(`git+https://example.com/r.git#${encodeURIComponent(ref).replaceAll('%3A', ':')}`), ref).toThrow();
    }
    for (const sub of ['../up', '/abs', '/', '..', 'a/../../b', 'a\\b']) {
      expect(() => parseGitSpec(`git+https://example.com/r.git#main:${sub}`), sub).toThrow(/inside the repository/);
    }
    expect(() => parseGitSpec('git+https://')).toThrow(/not a valid URL/);
    expect(() => parseGitSpec('file://host/path')).toThrow(/local path/);
  });

  it('keeps credentials out of the display form and the cache key', () => {
    const spec = parseGitSpec('git+https://user:s3cret@example.com/team/skills.git#main');
    expect(spec.url).toBe('https://example.com/team/skills.git');
    expect(spec.credentials).toEqual({ username: 'user', password: 's3cret' });
    // Decoded as git decodes them; an ssh URL keeps its user and takes no password.
    expect(parseGitSpec('git+https://us%40er:p%2Fa%3As@example.com/x.git').credentials).toEqual({ username: 'us@er', password: 'p/a:s' });
    expect(parseGitSpec('git+https://TOKEN@example.com/x.git').credentials).toEqual({ username: 'TOKEN', password: '' });
    expect(parseGitSpec('git+ssh://git@example.com/x.git')).toMatchObject({ url: 'ssh://git@example.com/x.git', credentials: undefined });
    expect(() => parseGitSpec('git+ssh://git:s3cret@example.com/x.git')).toThrow(/^an ssh URL takes no password.*ssh:\/\/\*\*\*@example\.com/);
    expect(() => parseGitSpec('git+https://u:a%0Ab@example.com/x.git')).toThrow(/line break/);
    expect(spec.display).toBe('https://***@example.com/team/skills.git');
    expect(spec.key).toBe(parseGitSpec('git+https://example.com/team/skills.git').key);
    expect(redactCredentials("fatal: unable to access 'https://TOKEN@example.com/x.git/': 403")).toBe(
      "fatal: unable to access 'https://***@example.com/x.git/': 403",
    );
    expect(() => parseGitSpec('git+ftp://user:s3cret@example.com/x')).toThrow(/^(?!.*s3cret)/);
    // Up to the last "@" of the word: a password may hold a "/", so a path with an "@" is hidden too.
    expect(redactCredentials('from https://a:b@h1/x and ssh://git@h2/y, not mail@h3 or https://h4/p@q, https://a:p/w@h5')).toBe(
      'from https://***@h1/x and ssh://***@h2/y, not mail@h3 or https://***@q, https://***@h5',
    );
    // Linear in a long run without "@" (a regular expression for this backtracks quadratically).
    const long = `https://${'a'.repeat(200_000)}`;
    expect(redactCredentials(long)).toBe(long);
  });
});
