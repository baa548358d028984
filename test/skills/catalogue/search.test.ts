/**
 * The ranking behind load_skill's query, over skills written here in the shapes of the
 * public collections (a file-format skill per format, task skills named by what they do):
 * a task sentence finds its skill through stems and synonyms, names win, one-letter and
 * stop-word queries find nothing, weak matches are cut off, words are cut at hyphens,
 * underscores, case and digits, a word being typed is completed, ties keep listing order,
 * and a large directory ranks alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '../../../src/core/model.js';
import { CUTOFF, headingsOf, SearchIndex } from '../../../src/skills/catalogue/search.js';
import { loadSkillsFolder, type SkillsFolder } from '../../../src/skills/provider.js';
import { tree } from '../../_tree.js';

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const folders: SkillsFolder[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) folder.close();
});

const skillMd = (name: string, description: string, body = `The ${name} skill.`) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${body}\n`;

/** Seven skills in the shape of a vendor's collection: one per file format, a few per task. */
const COLLECTION: Record<string, string> = {
  'tabular/SKILL.md': skillMd(
    'tabular',
    'Opens, edits and builds workbooks in .xlsx and .csv files: formulas, number formats, pivot tables and charts.',
    '# Workbooks\n\n## Recalculating formulas\n\n```\n# not a heading\n```\n',
  ),
  'pdf-tools/SKILL.md': skillMd('pdf-tools', 'Reads text out of PDF files, merges and splits them, and fills in their forms.'),
  'word-docs/SKILL.md': skillMd('word-docs', 'Creates and revises .docx documents with tracked changes, comments and tables of contents.'),
  'slide-maker/SKILL.md': skillMd('slide-maker', 'Builds presentation decks with speaker notes and a consistent layout.'),
  'gif-maker/SKILL.md': skillMd('gif-maker', 'Renders small animated GIFs sized for chat apps, with frame timing and colour limits.'),
  'release-notes/SKILL.md': skillMd('release-notes', 'Drafts release notes from the pull requests merged since the last tag.'),
  'loader-api/SKILL.md': skillMd('loader-api', 'Documents the loadSkill call and the XMLParser it uses, for version 2 of the React18 bindings.'),
};

async function open(files: Record<string, string>): Promise<SkillsFolder> {
  const folder = await loadSkillsFolder([tree(files)]);
  folders.push(folder);
  return folder;
}

/** The names a query answers with, in order. */
async function search(folder: SkillsFolder, query: string): Promise<string[]> {
  const result = (await folder.tools?.call('load_skill', { query }, ctx)) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return [...text.matchAll(/^- ([^:\n]+)/gm)].map((m) => m[1] as string);
}

describe('a search by relevance', () => {
  it('finds the skill for a task sentence whose words its description has only in another form', async () => {
    const folder = await open(COLLECTION);
    // "spreadsheet" is a name of what "workbook" and "xlsx" name; "charting" stems to "chart".
    expect((await search(folder, 'make a spreadsheet with some charting'))[0]).toBe('tabular');
    expect((await search(folder, 'merging several PDFs'))[0]).toBe('pdf-tools');
    expect((await search(folder, 'filling in a form'))[0]).toBe('pdf-tools');
    expect((await search(folder, 'a powerpoint'))[0]).toBe('slide-maker');
    // A heading of the body counts; a line in a code block is no heading.
    expect((await search(folder, 'recalculating'))[0]).toBe('tabular');
  });

  it('ranks the skill named by the query first, then names starting with it, then the rest by relevance', async () => {
    const folder = await open({
      ...COLLECTION,
      'forms/SKILL.md': skillMd('forms', 'Checks input fields.'),
      'forms-audit/SKILL.md': skillMd('forms-audit', 'Audits input fields for accessibility.'),
    });
    // pdf-tools says "forms" too; the name decides.
    expect(await search(folder, 'forms')).toEqual(['forms', 'forms-audit', 'pdf-tools']);
    expect((await search(folder, 'gif maker'))[0]).toBe('gif-maker');
    expect((await search(folder, 'PDF_Tools'))[0]).toBe('pdf-tools');
  });

  it('answers nothing for one-letter, stop-word and punctuation queries, and every skill for an empty one', async () => {
    const folder = await open(COLLECTION);
    for (const query of ['a', 'x', 'I', 'the', 'of the and', 'use it when you need to', 'a b c', ' ?! ']) {
      expect(await search(folder, query), query).toEqual([]);
    }
    expect(await search(folder, ' ')).toHaveLength(Object.keys(COLLECTION).length);
  });

  it('leaves out skills that match only weakly', async () => {
    const folder = await open({
      ...COLLECTION,
      'changelog/SKILL.md': skillMd(
        'changelog',
        'Keeps a changelog file in order: sections per version, links to each tag, dates, the unreleased block, and short notes on breaking changes.',
      ),
    });
    // Alone, "notes" is in both; with "release" and "drafts", the changelog is far under the best.
    expect(await search(folder, 'notes')).toEqual(['release-notes', 'slide-maker', 'changelog']);
    expect(await search(folder, 'drafts release notes')).toEqual(['release-notes']);
  });

  it('cuts words at hyphens, underscores, case changes and digits', async () => {
    const folder = await open(COLLECTION);
    expect((await search(folder, 'load skill'))[0]).toBe('loader-api');
    expect((await search(folder, 'xml parser'))[0]).toBe('loader-api');
    expect((await search(folder, 'react 18'))[0]).toBe('loader-api');
    expect((await search(folder, 'pdfForms'))[0]).toBe('pdf-tools');
    expect((await search(folder, 'slide_maker'))[0]).toBe('slide-maker');
  });

  it('keeps listing order between skills that score the same, and answers the same twice', async () => {
    const same = 'Formats dates in reports.';
    const folder = await open({
      'c-dates/SKILL.md': skillMd('c-dates', same),
      'a-dates/SKILL.md': skillMd('a-dates', same),
      'b-dates/SKILL.md': skillMd('b-dates', same),
    });
    const listed = ((await folder.tools?.list())?.[0]?.description ?? '').split('\n').flatMap((l) => (l.startsWith('- ') ? [l.slice(2, l.indexOf(':'))] : []));
    expect(await search(folder, 'formatting reports')).toEqual(listed);
    expect(await search(folder, 'formatting reports')).toEqual(listed);
  });

  it('takes a last word that is no word of the skills as one being typed', async () => {
    const folder = await open(COLLECTION);
    expect(await search(folder, 'presentat')).toEqual(['slide-maker']);
    expect((await search(folder, 'pivot workbo'))[0]).toBe('tabular');
    // Fewer than three letters complete nothing.
    expect(await search(folder, 'wo')).toEqual([]);
  });

  it('answers a long, odd query like any other', async () => {
    const folder = await open(COLLECTION);
    const odd = `${'x'.repeat(100_000)} ${'PDF '.repeat(10_000)}\u0000\ud800 ${'ÿ'.repeat(50_000)}`;
    expect((await search(folder, odd))[0]).toBe('pdf-tools');
    expect(await search(folder, '\ud83d\ude00'.repeat(1000))).toHaveLength(0);
  });

  it('falls back to names holding the letters in order when no word matches', async () => {
    const folder = await open(COLLECTION);
    expect(await search(folder, 'gifmakr')).toEqual(['gif-maker']);
    expect(await search(folder, 'zzz')).toEqual([]);
  });

  it('ranks alike among 2,000 skills', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) {
      const name = `task-${String(i).padStart(4, '0')}`;
      files[`${name}/SKILL.md`] = skillMd(name, `Runs step ${i} of the nightly batch and writes its report to the shared folder.`);
    }
    const folder = await open({ ...files, ...COLLECTION });
    expect((await search(folder, 'make a spreadsheet'))[0]).toBe('tabular');
    expect((await search(folder, 'task-1999'))[0]).toBe('task-1999');
    expect(await search(folder, 'a')).toEqual([]);
    // Every task skill matches "nightly batch" as well as the others: the answer is bounded, in listing order.
    const batch = await search(folder, 'nightly batch');
    expect(batch).toHaveLength(20);
    expect(batch.slice(0, 2)).toEqual(['task-0000', 'task-0001']);
  });
});

describe('the index', () => {
  it('ranks by BM25F: a rarer term and the name weigh more, and the cutoff is a share of the best', () => {
    const index = new SearchIndex([
      { name: 'alpha', description: 'Common words and one rare term, zebra.', body: '' },
      { name: 'zebra', description: 'Common words.', body: '' },
      { name: 'gamma', description: 'Common words.', body: '' },
    ]);
    const hits = index.rank(SearchIndex.termsOf('zebra'));
    expect(hits.map((h) => h.at)).toEqual([1, 0]);
    expect((hits[1]?.score as number) / (hits[0]?.score as number)).toBeGreaterThanOrEqual(CUTOFF);
    expect(index.rank(SearchIndex.termsOf('common words')).map((h) => h.at)).toEqual([1, 2, 0]);
    expect(index.rank([])).toEqual([]);
  });

  it('reads the headings of a body outside its code fences', () => {
    expect(headingsOf('# One\ntext\n   ## Two ##\n```\n# three\n```\n~~~\n# four\n~~~\n####### seven\n#nospace\n### Five')).toBe(' One\n Two ##\n Five');
  });
});
