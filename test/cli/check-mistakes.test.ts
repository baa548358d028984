/**
 * `skillport check` on a folder of the mistakes authors make (issue 27):
 * each mistake is one finding, on the line of what is at fault, with the
 * severity that decides the exit code (errors: the item is not served;
 * warnings: served, but not as written; notes: for information), and the
 * other skills load whatever their neighbours hold.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';
import { type Finding, runCli } from './_run.js';

const MISTAKES = `${ROOT}test/fixtures/skills-mistakes`;

async function findings(...flags: string[]): Promise<{ code: number; issues: Finding[] }> {
  const result = await runCli('check', MISTAKES, '--json', ...flags);
  return { code: result.code, issues: (JSON.parse(result.stdout) as { issues: Finding[] }).issues };
}

describe('skillport check on a folder of mistakes', () => {
  it('gives one finding per mistake, on its line, with its severity', async () => {
    const { code, issues } = await findings();
    expect(code).toBe(1);
    expect(issues.map((i) => [i.path, i.line, i.severity, i.code])).toEqual([
      ['bad-name/SKILL.md', 2, 'warning', 'invalid_name'],
      ['cited/SKILL.md', 7, 'warning', 'missing_file'],
      ['cited/SKILL.md', 9, 'warning', 'missing_file'],
      ['cited/SKILL.md', 11, 'warning', 'missing_file'],
      ['cited/SKILL.md', 11, 'warning', 'missing_file'],
      ['cited/SKILL.md', 11, 'warning', 'missing_file'],
      ['late-frontmatter/SKILL.md', 3, 'error', 'no_frontmatter'],
      ['locales/SKILL.FR.md', 1, 'warning', 'invalid_locale_variant'],
      ['locales/SKILL.draft.md', 1, 'note', 'not_locale_variant'],
      ['locales/SKILL.fr_CA.md', 1, 'warning', 'invalid_locale_variant'],
      ['long-text/SKILL.md', 3, 'warning', 'description_too_long'],
      ['no-frontmatter/SKILL.md', 1, 'error', 'no_frontmatter'],
      ['placeholders/SKILL.fr.md', 6, 'warning', 'undeclared_placeholder'],
      ['placeholders/SKILL.md', 4, 'note', 'extension_key'],
      ['placeholders/SKILL.md', 8, 'warning', 'unused_argument'],
      ['placeholders/SKILL.md', 13, 'warning', 'invalid_depends_on'],
      ['placeholders/SKILL.md', 16, 'warning', 'unknown_argument_key'],
      ['placeholders/SKILL.md', 20, 'warning', 'undeclared_placeholder'],
      ['prompts/brief.md', 5, 'warning', 'unused_argument'],
      ['prompts/brief.md', 7, 'warning', 'undeclared_placeholder'],
      ['typo-extra/SKILL.md', 4, 'warning', 'misspelled_key'],
      ['typo-extra/SKILL.md', 5, 'warning', 'misspelled_key'],
      ['typo-extra/SKILL.md', 6, 'note', 'extension_key'],
      ['typo-key/SKILL.md', 3, 'error', 'missing_description'],
      ['very-bad-name/SKILL.md', 2, 'warning', 'invalid_name'],
    ]);
  });

  it('says what each mistake probably meant, and how to fix it', async () => {
    const { issues } = await findings();
    const said = (path: string, line: number): string[] => issues.filter((i) => i.path === path && i.line === line).map((i) => i.message);
    expect(said('typo-key/SKILL.md', 3)).toEqual(['The frontmatter has no "description": "descripton" is probably it, misspelled']);
    expect(said('typo-extra/SKILL.md', 4)[0]).toContain('probably "license"');
    expect(said('typo-extra/SKILL.md', 5)[0]).toContain('probably "allowed-tools"');
    expect(said('placeholders/SKILL.md', 13)[0]).toContain('"regoin", which is no other argument of this file (probably "region")');
    expect(said('placeholders/SKILL.md', 16)[0]).toContain('"requried" is not a key of an argument, so it is ignored: probably "required"');
    expect(said('placeholders/SKILL.md', 20)[0]).toContain('"{{audience}}" names no declared argument, so it renders as nothing');
    expect(said('placeholders/SKILL.md', 20)[0]).toContain('write "\\{{audience}}" to keep it as text');
    expect(said('locales/SKILL.fr_CA.md', 1)[0]).toContain('name it SKILL.fr-CA.md');
    expect(said('locales/SKILL.FR.md', 1)[0]).toContain('name it SKILL.fr.md');
    expect(said('no-frontmatter/SKILL.md', 1)).toEqual([
      'The file has no frontmatter: it must start with a "---" line, then "name:" and "description:" lines, then "---"',
    ]);
    expect(said('cited/SKILL.md', 11)).toEqual([
      `The text cites "references/forms.md", but the skill's folder has no such file`,
      `The text cites "references/Notes.md", but the skill's folder has only "references/notes.md", in another case`,
      `The text cites "guide.md", but the skill's folder has no such file`,
    ]);
    // The name's finding holds what the Skills extension makes of it: no second finding says so.
    expect(said('bad-name/SKILL.md', 2)[0]).toMatch(/lowercase.*the folder's name, "bad-name", would do.*left out of the Skills extension/);
  });

  it('fails on errors only; --strict fails on warnings too', async () => {
    const text = await runCli('check', MISTAKES);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/\nFAILED: .*; 3 errors, 19 warnings, 3 notes\n$/);
    expect((await findings()).issues.filter((i) => i.severity === 'error').map((i) => i.path)).toEqual([
      'late-frontmatter/SKILL.md',
      'no-frontmatter/SKILL.md',
      'typo-key/SKILL.md',
    ]);
    // A skill folder whose mistakes are all warnings passes, unless --strict.
    const cited = `${MISTAKES}/cited`;
    expect((await runCli('check', cited)).code).toBe(0);
    expect((await runCli('check', cited, '--strict')).code).toBe(1);
  });

  it('serves every skill whose mistakes are warnings, next to those that fail', async () => {
    const listed = await runCli('list', MISTAKES);
    expect(listed.code).toBe(0);
    const names = listed.stdout.split('\n').map((line) => line.split(/\s+/)[0]);
    expect(names).toEqual(expect.arrayContaining(['Bad_Name', 'cited', 'fine', 'locales', 'long-text', 'placeholders', 'typo-extra', 'brief']));
    expect(names).not.toContain('typo-key');
    expect(names).not.toContain('no-frontmatter');
  });
});
