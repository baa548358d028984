/**
 * What load_skill lists and how its query ranks: the listing's order and its
 * bound in bytes at 1,000 skills, and a search by name and by description words
 * (search.test.ts has the ranking's properties).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '../../../src/core/model.js';
import { loadSkillsFolder, type SkillsFolder } from '../../../src/skills/provider.js';
import { LISTING_MAX_BYTES } from '../../../src/skills/tools/skill-listing.js';
import { tree } from '../../_tree.js';

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const folders: SkillsFolder[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) folder.close();
});

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nThe ${name} skill.\n`;

async function open(files: Record<string, string>): Promise<SkillsFolder> {
  const folder = await loadSkillsFolder([tree(files)]);
  folders.push(folder);
  return folder;
}

async function description(folder: SkillsFolder): Promise<string> {
  return (await folder.tools?.list())?.[0]?.description ?? '';
}

/** The names a query answers with, in order. */
async function search(folder: SkillsFolder, query: string): Promise<string[]> {
  const result = (await folder.tools?.call('load_skill', { query }, ctx)) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return [...text.matchAll(/^- ([^:\n]+)/gm)].map((m) => m[1] as string);
}

/** A thousand skills, each with a description of a typical length, one of them about invoices. */
function thousand(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    const about = i === 737 ? 'Reconciles supplier invoices against purchase orders' : `Handles task number ${i} of the generated set`;
    files[`${name}/SKILL.md`] = skillMd(name, `${about}, with checks and a summary at the end. Use it when the task asks for it.`);
  }
  return files;
}

describe('the skill listing', () => {
  it('stays within its bound at 1,000 skills, and says how many it shows and how to find the rest', async () => {
    const folder = await open(thousand());
    const text = await description(folder);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LISTING_MAX_BYTES);
    const shown = text.match(/^- /gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(10);
    expect(text).toContain(`Skills (${shown} of 1000; to find the others, call load_skill with query`);
    // Whole lines only, in the folder's order.
    expect(text.split('\n').at(-1)).toMatch(/^- skill-\d{4}: Handles task number \d+ of the generated set, with checks and a summary at the end\.$/);
    expect(text).toContain('- skill-0000: Handles task number 0 of the generated set, with checks and a summary at the end.\n');
  });

  it('finds a skill by its name and by a word of its description, among 1,000', async () => {
    const folder = await open(thousand());
    expect((await search(folder, 'skill-0737'))[0]).toBe('skill-0737');
    expect((await search(folder, 'invoices'))[0]).toBe('skill-0737');
    expect((await search(folder, 'supplier invoice reconciliation'))[0]).toBe('skill-0737');
    // The answer is bounded too: the best 20 of the many that hold "task".
    const many = (await folder.tools?.call('load_skill', { query: 'task' }, ctx)) as CallToolResult;
    const text = many.content[0]?.type === 'text' ? many.content[0].text : '';
    expect(text.startsWith('The best 20 of 1000 skills matching "task"')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LISTING_MAX_BYTES);
  });

  it('lists skills inside no other first: a nested skill is reached through the one that holds it', async () => {
    const folder = await open({
      'a-outer/SKILL.md': skillMd('a-outer', 'The outer skill.'),
      'a-outer/parts/inner/SKILL.md': skillMd('inner', 'A part of the outer skill.'),
      'b-plain/SKILL.md': skillMd('b-plain', 'A plain skill.'),
    });
    expect((await description(folder)).split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- a-outer: The outer skill.',
      '- b-plain: A plain skill.',
      '- inner: A part of the outer skill.',
    ]);
    // Its files are read by its own name and paths, under the URI inside the outer skill.
    const read = (await folder.tools?.call('read_skill_file', { skill: 'inner', path: 'SKILL.md' }, ctx)) as CallToolResult;
    expect(read.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('The inner skill.') });
  });
});

describe('a search', () => {
  it('ranks the name that is the query, then names starting with it, then names and descriptions holding its words', async () => {
    const folder = await open({
      'docs-style/SKILL.md': skillMd('docs-style', 'Checks the style of documentation.'),
      'docs/SKILL.md': skillMd('docs', 'Writes documentation.'),
      'api-docs/SKILL.md': skillMd('api-docs', 'Writes API references.'),
      'readme/SKILL.md': skillMd('readme', 'Writes a README that docs the project.'),
      'dxoxcxs/SKILL.md': skillMd('dxoxcxs', 'Nothing to do with it.'),
    });
    expect(await search(folder, 'docs')).toEqual(['docs', 'docs-style', 'api-docs', 'readme']);
    // Spaces stand for the hyphens of a name.
    expect((await search(folder, 'api docs'))[0]).toBe('api-docs');
  });

  it('matches words where a word starts, and weighs rare words over common ones', async () => {
    const folder = await open({
      'one/SKILL.md': skillMd('one', 'Builds the platform for the team.'),
      'two/SKILL.md': skillMd('two', 'Fills in the forms for the team.'),
      'three/SKILL.md': skillMd('three', 'Reviews the team budget.'),
    });
    expect(await search(folder, 'form')).toEqual(['two']);
    // "the" and "team" are in every description; "budget" decides.
    expect((await search(folder, 'the team budget'))[0]).toBe('three');
    expect(await search(folder, 'zzz')).toEqual([]);
    const none = (await folder.tools?.call('load_skill', { query: 'zzz' }, ctx)) as CallToolResult;
    expect(none.content).toEqual([{ type: 'text', text: 'No skill matches "zzz" (3 skills are served). Try other words from the task.' }]);
  });
});
