/**
 * What a pusher writes in `.gitattributes` runs no program of the operator's
 * and changes no byte: filter drivers the operator's git configuration defines
 * (in ~/.gitconfig, $XDG_CONFIG_HOME/git/config, GIT_CONFIG_COUNT entries, or
 * through an init template), named directly, through an `[attr]` macro or in
 * the served subfolder, never run; eol, ident and encoding conversions do not
 * apply. The served bytes are the blob's bytes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { type GitSkillsFolder, loadGitSkills } from '../../../src/skills.js';
import { type Content, createRepo, GIT, skillMd } from './_repo.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Repo = ReturnType<typeof createRepo>;

/** Text that every conversion would change: LF line ends, an `$Id$` keyword, non-ASCII letters. */
const NOTES = 'line one\nline two $Id$\nnaïve café\n';

/**
 * The operator's git configuration, in every place git reads it from: filter
 * drivers `evil` and `lfs` whose programs leave a mark when they run, and an
 * init template whose `info/attributes` names them for every path.
 */
function hostileOperator(r: Repo): { env: Record<string, string>; marker: string } {
  const marker = join(r.dir, 'filter-ran');
  const script = (name: string) => {
    const path = join(r.dir, `${name}.sh`);
    writeFileSync(path, `#!/bin/sh\necho ${name} >> ${marker}\ncat\n`, { mode: 0o755 });
    return path;
  };
  const drivers = ['evil', 'lfs']
    .map(
      (d) =>
        `[filter "${d}"]\n\tsmudge = ${script(`${d}-smudge`)}\n\tclean = ${script(`${d}-clean`)}\n\tprocess = ${script(`${d}-process`)}\n\trequired = true\n`,
    )
    .join('');
  const template = join(r.dir, 'template');
  mkdirSync(join(template, 'info'), { recursive: true });
  writeFileSync(join(template, 'info', 'attributes'), '* filter=evil\n');
  // The served process's HOME, not the one the test's own clone commits with.
  const home = join(r.dir, 'operator-home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), `${drivers}[init]\n\ttemplateDir = ${template}\n[core]\n\tautocrlf = true\n`);
  const xdg = join(r.dir, 'xdg');
  mkdirSync(join(xdg, 'git'), { recursive: true });
  writeFileSync(join(xdg, 'git', 'config'), drivers);
  writeFileSync(join(xdg, 'git', 'attributes'), '* filter=lfs\n');
  const env = {
    ...r.env,
    HOME: home,
    XDG_CONFIG_HOME: xdg,
    GIT_TEMPLATE_DIR: template,
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'filter.env.smudge',
    GIT_CONFIG_VALUE_0: script('env-smudge'),
    GIT_CONFIG_KEY_1: 'filter.env.required',
    GIT_CONFIG_VALUE_1: 'true',
  };
  return { env, marker };
}

function repo(files: Record<string, Content>): Repo {
  const made = createRepo(files);
  cleanups.push(() => made.remove());
  return made;
}

async function open(r: Repo, env: Record<string, string>, fragment = '#main', git = GIT): Promise<GitSkillsFolder> {
  const folder = await loadGitSkills(`git+${r.url}${fragment}`, { cacheDir: r.cache, git, env, pullIntervalMs: 0 });
  cleanups.push(() => folder.close());
  return folder;
}

/** A file's bytes as the repository holds them. */
function blob(r: Repo, path: string): string {
  return execFileSync(GIT, ['--git-dir', r.bare, 'cat-file', 'blob', `main:${path}`], { env: r.env, encoding: 'utf8' });
}

async function served(folder: GitSkillsFolder, uri: string): Promise<string> {
  const content = (await folder.resources.read(uri, ctx)).contents[0];
  return content && 'text' in content ? content.text : `(not text: ${JSON.stringify(content)})`;
}

describe('a git source with .gitattributes', () => {
  it.each([
    ['a filter named for every path', '* filter=evil\n'],
    ['a filter named through an [attr] macro', '[attr]innocent filter=evil\n* innocent\n'],
    ['the filter the operator uses for LFS', '*.md filter=lfs diff=lfs merge=lfs -text\n'],
    ['a filter defined in the environment', '* filter=env\n'],
    ['eol, ident and encoding conversions', '* text eol=crlf ident working-tree-encoding=UTF-16\n'],
  ])('runs none of the operator’s programs and serves the blob’s bytes: %s', async (_, attributes) => {
    const r = repo({ '.gitattributes': attributes, 'alpha/SKILL.md': skillMd('alpha', 'Attributes.'), 'alpha/notes.md': NOTES });
    const { env, marker } = hostileOperator(r);
    const folder = await open(r, env);
    expect(await served(folder, 'skill://alpha/notes.md')).toBe(blob(r, 'alpha/notes.md'));
    expect(await served(folder, 'skill://alpha/SKILL.md')).toBe(blob(r, 'alpha/SKILL.md'));
    // And after a commit fetched later.
    r.push({ 'alpha/notes.md': `${NOTES}more\n` });
    await folder.sync();
    expect(await served(folder, 'skill://alpha/notes.md')).toBe(blob(r, 'alpha/notes.md'));
    expect(existsSync(marker)).toBe(false);
  });

  it('in the served subfolder runs nothing either', async () => {
    const r = repo({
      'skills/.gitattributes': '* filter=evil ident\n',
      'skills/alpha/.gitattributes': '*.md filter=lfs\n',
      'skills/alpha/SKILL.md': skillMd('alpha', 'Attributes.'),
      'skills/alpha/notes.md': NOTES,
    });
    const { env, marker } = hostileOperator(r);
    const folder = await open(r, env, '#main:skills');
    expect(await served(folder, 'skill://alpha/notes.md')).toBe(blob(r, 'skills/alpha/notes.md'));
    expect(existsSync(marker)).toBe(false);
  });

  it('gives the operator’s configuration to the fetch alone, and none to the commands that write the checkout', async () => {
    const r = repo({ '.gitattributes': '* filter=evil\n', 'alpha/SKILL.md': skillMd('alpha', 'Attributes.') });
    const { env } = hostileOperator(r);
    const seen = join(r.dir, 'seen');
    // A "git" that writes down, for each command, the configuration git shows in that command's environment, then runs it.
    const wrapper = join(r.dir, 'git-wrapper');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'skip=; cmd=',
        'for a in "$@"; do',
        '  if [ -n "$skip" ]; then skip=; continue; fi',
        '  case "$a" in -c) skip=1;; -*) ;; *) cmd=$a; break;; esac',
        'done',
        `(cd / && ${GIT} config --list --show-scope 2>/dev/null) | sed "s/^/$cmd /" >> ${seen}`,
        `echo "$cmd ran" >> ${seen}`,
        `exec ${GIT} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    await open(r, env, '#main', wrapper);
    const lines = readFileSync(seen, 'utf8').split('\n');
    const ran = lines.filter((l) => l.endsWith(' ran')).map((l) => l.split(' ')[0]);
    expect(new Set(ran)).toEqual(new Set(['init', 'fetch', 'rev-parse', 'ls-tree', 'read-tree']));
    for (const command of ran.filter((c) => c !== 'fetch')) {
      expect(
        lines.filter((l) => l.startsWith(`${command} `) && !l.endsWith(' ran')),
        command,
      ).toEqual([]);
    }
    expect(lines).toContain(`fetch global\tfilter.evil.smudge=${join(r.dir, 'evil-smudge.sh')}`);
    expect(lines).toContain('fetch command\tfilter.env.required=true');
  });
});
