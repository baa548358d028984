/**
 * The pieces `check` uses to tell authors what they got wrong: which known
 * key a misspelled one meant, which cited paths a skill's folder lacks, and
 * what a `SKILL.<x>.md` that is no locale variant should be named.
 */
import { describe, expect, it } from 'vitest';
import { missingCitations } from '../../../src/skills/load/cited-files.js';
import { probableKey } from '../../../src/skills/load/key-spelling.js';
import { localeOf, misnamedLocale } from '../../../src/skills/load/locale-files.js';
import { placeholderIssues } from '../../../src/skills/load/placeholders.js';
import { editDistance } from '../../../src/util/edit-distance.js';

const KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'model', 'hooks', 'agent'];

describe('probableKey', () => {
  it.each([
    ['descripton', 'description'],
    ['discription', 'description'],
    ['nmae', 'name'],
    ['licence', 'license'],
    ['allowed_tools', 'allowed-tools'],
    ['AllowedTools', 'allowed-tools'],
    ['Description', 'description'],
    ['metdata', 'metadata'],
    ['compatability', 'compatibility'],
    ['mode', 'model'],
  ])('takes %s for %s', (typo, meant) => {
    expect(probableKey(typo, KEYS)).toBe(meant);
  });

  it.each(['tools', 'author', 'tags', 'category', 'owner', 'name', 'x', 'a'.repeat(100)])('leaves %s alone', (key) => {
    expect(probableKey(key, KEYS)).toBeUndefined();
  });

  it('counts a transposition once and stops past its limit', () => {
    expect(editDistance('nmae', 'name', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });
});

describe('missingCitations', () => {
  const held = new Set(['references/', 'references/forms.md', 'scripts/', 'scripts/fill.py', 'guide.md']);
  const cited = (body: string, shared = (_: string) => false) =>
    missingCitations([{ path: 's/SKILL.md', text: `---\nname: s\n---\n${body}`, bodyOffset: 14 }], () => held, shared).map((i) => [i.line, i.message]);

  it('reports a path into the format folders, anywhere in the body, once, on its first line', () => {
    expect(cited('See references/gone.md.\n```sh\npython scripts/run.py\n```\nAgain references/gone.md')).toEqual([
      [4, `The text cites "references/gone.md", but the skill's folder has no such file`],
      [6, `The text cites "scripts/run.py", but the skill's folder has no such file`],
    ]);
  });

  it('reports a relative link outside code, with its fragment and ./ taken off', () => {
    expect(cited('[a](./gone.md#part) [b](guide.md) [c](references/forms.md?x)\n`[d](code.md)`\n~~~\n[e](fenced.md)\n~~~')).toEqual([
      [4, `The text cites "gone.md", but the skill's folder has no such file`],
    ]);
  });

  it('leaves what is not a file of the skill: URLs, anchors, paths out of it, patterns, link text, folders of prose', () => {
    const body = [
      '[u](https://example.com/references/x.md) [m](mailto:a@b.c) [h](#top) [r](/abs.md) [p](../other/x.md)',
      'scripts/<name>.py references/{topic}.md scripts/*.sh subscripts/x.py a/references/x.md',
      '[references/old.md](references/forms.md) scripts/deploy references/ ../references/shared.md',
    ].join('\n');
    expect(cited(body)).toEqual([]);
  });

  it('takes a citation a shared reference answers, and names a file held in another case', () => {
    expect(cited('references/style.md', (path) => path === 'references/style.md')).toEqual([]);
    expect(cited('references/Forms.md')).toEqual([
      [4, `The text cites "references/Forms.md", but the skill's folder has only "references/forms.md", in another case`],
    ]);
  });
});

describe('misnamedLocale', () => {
  it.each([
    ['SKILL.fr_CA.md', 'warning', 'name it SKILL.fr-CA.md'],
    ['SKILL.FR.md', 'warning', 'name it SKILL.fr.md'],
    ['SKILL.PT_br.md', 'warning', 'name it SKILL.pt-br.md'],
    ['SKILL.en-US-x-private.md', 'warning', 'a lower-case language of 2-3 letters'],
    ['SKILL.draft.md', 'note', 'Served as a plain file'],
  ])('reports %s', (file, severity, words) => {
    expect(localeOf(file)).toBeUndefined();
    expect(misnamedLocale(file, `s/${file}`)).toMatchObject({ severity, path: `s/${file}`, message: expect.stringContaining(words) });
  });

  it('says nothing of a variant, of SKILL.md, or of a file in a subfolder', () => {
    for (const file of ['SKILL.fr.md', 'SKILL.pt-BR.md', 'SKILL.zh-Hant.md', 'SKILL.md', 'docs/SKILL.fr_CA.md', 'README.md']) {
      expect(misnamedLocale(file, file)).toBeUndefined();
    }
  });
});

describe('placeholderIssues', () => {
  const lines = () => undefined;
  const text = (body: string) => ({ path: 'p.md', text: `---\n---\n${body}`, bodyOffset: 8 });

  it('reports each undeclared name once, keeps the escaped and implicit ones, and lets a steering argument be', () => {
    const args = [{ name: 'topic' }, { name: 'kind' }, { name: 'idle' }];
    const raw = [{ name: 'topic' }, { name: 'kind' }, { name: 'idle' }, { name: 'x', 'depends-on': 'kind' }];
    const found = placeholderIssues([text('{{topic}} {{ who }}\n{{who}} \\{{literal}} {{locale}}')], args, raw, lines, ['locale']);
    expect(found.map((i) => [i.code, i.line, i.message.slice(0, 40)])).toEqual([
      ['undeclared_placeholder', 3, '"{{who}}" names no declared argument, so'],
      ['unused_argument', undefined, 'The argument "idle" is declared but no "'],
    ]);
  });
});
