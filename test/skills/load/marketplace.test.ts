/**
 * A Claude Code plugin marketplace served as a folder and as a git repository:
 * a fixture written here in the layout of Anthropic's skills repository (two
 * plugins sharing `source: "./"`, each listing `./skills/<x>` folders), plus a
 * skill of one name in two plugins, a folder listed twice, a path outside the
 * root and a remote plugin source.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { loadGitSkills, loadSkillsFolder, type SkillsFolder } from '../../../src/skills.js';
import { tree } from '../../_tree.js';
import { createRepo, GIT, skillMd } from '../git/_repo.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MARKETPLACE = JSON.stringify({
  name: 'fixture-market',
  owner: { name: 'Tester' },
  plugins: [
    { name: 'office-kit', description: 'Documents.', source: './', strict: false, skills: ['./skills/sheets', './skills/slides'] },
    { name: 'sample-kit', description: 'Examples.', source: './', strict: false, skills: ['./skills/poems', './skills/sheets', './extra/poems', '../escape'] },
    { name: 'far-away', source: { source: 'github', repo: 'someone/elsewhere' } },
    { name: 'own-folder', source: './plugins/own-folder' },
    { name: 'outsider', source: '../', skills: ['./skills/poems'] },
  ],
});

/** The files of the fixture: Anthropic's layout, text of our own. */
const FILES: Record<string, string> = {
  '.claude-plugin/marketplace.json': MARKETPLACE,
  'skills/sheets/SKILL.md': skillMd('sheets', 'Work with spreadsheet files.'),
  'skills/sheets/reference.md': 'Column formulas.\n',
  'skills/slides/SKILL.md': skillMd('slides', 'Build slide decks.'),
  'skills/poems/SKILL.md': skillMd('poems', 'Write short poems.'),
  'extra/poems/SKILL.md': skillMd('poems', 'Write long poems.', 'The other poems skill.'),
  'plugins/own-folder/skills/tidy/SKILL.md': skillMd('tidy', 'Tidy a folder.'),
  'template/SKILL.md': skillMd('template', 'Not in any plugin.'),
};

const promptNames = (folder: SkillsFolder) => folder.catalogue.prompts.map((p) => p.name).sort();

function checkServed(folder: SkillsFolder): void {
  expect(promptNames(folder)).toEqual(['office-kit:sheets', 'office-kit:slides', 'own-folder:tidy', 'sample-kit:poems']);
  const uris = folder.catalogue.resources.map((r) => r.uri).sort();
  expect(uris).toContain('skill://office-kit/sheets/SKILL.md');
  expect(uris).toContain('skill://office-kit/sheets/reference.md');
  expect(uris).toContain('skill://sample-kit/poems/SKILL.md');
  expect(uris).not.toContain('skill://template/SKILL.md');
  const codes = folder.catalogue.issues.map((i) => `${i.code}: ${i.message}`);
  expect(codes).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^duplicate_plugin_skill: the plugin "sample-kit" lists "\.\/skills\/sheets", which the plugin "office-kit"/),
      expect.stringMatching(/^outside_marketplace: the plugin "sample-kit": the skill folder "\.\.\/escape"/),
      expect.stringMatching(/^remote_plugin_source: the plugin "far-away"/),
      expect.stringMatching(/^outside_marketplace: the plugin "outsider": its source "\.\.\/" lies outside the marketplace folder/),
    ]),
  );
}

describe('a plugin marketplace', () => {
  it('serves each plugin skill as <plugin>:<name>, skill://<plugin>/<name>/, same names apart, with findings', async () => {
    const dir = tree(FILES);
    const folder = await loadSkillsFolder([dir]);
    cleanups.push(() => folder.close());
    // Two plugins' skills named "poems" in two folders: one under sample-kit, the other a duplicate path.
    expect(folder.catalogue.issues.map((i) => i.code)).toContain('duplicate_name');
    checkServed(folder);
    const sheets = await folder.prompts.get('office-kit:sheets', {}, ctx);
    expect(JSON.stringify(sheets)).toContain('Work with spreadsheet files.');
    const read = await folder.resources.read('skill://office-kit/sheets/reference.md', ctx);
    expect(read.contents[0]).toMatchObject({ text: 'Column formulas.\n' });
    const listed = await folder.skills.listSkills();
    expect(listed.map((s) => s.uri).sort()).toEqual([
      'skill://office-kit/sheets/SKILL.md',
      'skill://office-kit/slides/SKILL.md',
      'skill://own-folder/tidy/SKILL.md',
      'skill://sample-kit/poems/SKILL.md',
    ]);
    const tool = await folder.tools?.call('load_skill', { name: 'office-kit:slides' }, ctx);
    expect(JSON.stringify(tool)).toContain('Build slide decks.');
  });

  it('serves one name in two plugins under both', async () => {
    const files = {
      ...FILES,
      '.claude-plugin/marketplace.json': JSON.stringify({
        plugins: [
          { name: 'first', source: './', skills: ['./skills/poems'] },
          { name: 'second', source: './', skills: ['./extra/poems'] },
        ],
      }),
    };
    const folder = await loadSkillsFolder([tree(files)]);
    cleanups.push(() => folder.close());
    expect(promptNames(folder)).toEqual(['first:poems', 'second:poems']);
    expect(JSON.stringify(await folder.prompts.get('second:poems', {}, ctx))).toContain('The other poems skill.');
    expect(folder.catalogue.issues).toEqual([]);
  });

  it('refuses a listed folder that is a link out of the marketplace', async () => {
    const outside = tree({ 'SKILL.md': skillMd('secret', 'Outside.') });
    const market = JSON.stringify({ plugins: [{ name: 'p', source: './', skills: ['./skills-link'] }] });
    const again = tree({ '.claude-plugin/marketplace.json': market });
    symlinkSync(outside, join(again, 'skills-link'));
    const folder = await loadSkillsFolder([again]);
    cleanups.push(() => folder.close());
    expect(folder.catalogue.prompts).toEqual([]);
    expect(folder.catalogue.issues[0]).toMatchObject({ code: 'plugin_skill_missing', message: expect.stringContaining('outside the marketplace folder') });
  });

  it('reloads a watched folder when its marketplace changes', async () => {
    const dir = tree(FILES);
    const folder = await loadSkillsFolder([dir], { watch: true, debounceMs: 10 });
    cleanups.push(() => folder.close());
    const changed = new Promise<void>((resolve) => folder.prompts.watch?.(() => resolve()));
    writeFileSync(join(dir, '.claude-plugin/marketplace.json'), JSON.stringify({ plugins: [{ name: 'solo', source: './', skills: ['./skills/slides'] }] }));
    await changed;
    expect(promptNames(folder)).toEqual(['solo:slides']);
  });

  it('serves the marketplace of a git repository', async () => {
    const repo = createRepo(FILES);
    cleanups.push(() => repo.remove());
    const folder = await loadGitSkills(`git+${repo.url}#main`, { cacheDir: repo.cache, git: GIT, env: repo.env, pullIntervalMs: 0 });
    cleanups.push(() => folder.close());
    checkServed(folder);
  });
});
