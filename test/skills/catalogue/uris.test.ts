/**
 * One URI rule for every skill, nested or not: `skill://<name>/<path>` for a
 * skill inside no other (folders that only organise skills are not part of
 * it), `skill://<outer path>/<folders>/<name>/<path>` for one inside another
 * skill's folder, and the file template `skill://{skill}/{+path}` and its
 * completions agreeing with it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkillsFolder, SKILL_FILE_TEMPLATE, type SkillsFolder } from '../../../src/skills/provider.js';
import { parseUriTemplate } from '../../../src/util/uri-template.js';
import { tree } from '../../_tree.js';

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const folders: SkillsFolder[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) folder.close();
});

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`;

async function open(dir: string): Promise<SkillsFolder> {
  const folder = await loadSkillsFolder([dir]);
  folders.push(folder);
  return folder;
}

const complete = (folder: SkillsFolder, name: string, value: string, args: Record<string, string> = {}) =>
  folder.resources.complete?.(SKILL_FILE_TEMPLATE, { name, value }, { arguments: args }, ctx);

describe('skill URIs', () => {
  it('leaves folders that only organise skills out of the URI', async () => {
    const folder = await open(
      tree({
        'README.md': '# A collection\n',
        'skills/napkin/SKILL.md': skillMd('napkin'),
        'skills/napkin/notes/idea.md': 'An idea.\n',
        'plugins/kit/skills/aspnet-minimal-api-openapi/SKILL.md': skillMd('aspnet-minimal-api-openapi'),
      }),
    );
    expect(folder.catalogue.skills.map((s) => s.uri).sort()).toEqual(['skill://aspnet-minimal-api-openapi/SKILL.md', 'skill://napkin/SKILL.md']);
    const read = await folder.resources.read('skill://napkin/notes/idea.md', ctx);
    expect(read.contents[0]).toMatchObject({ text: 'An idea.\n' });
    expect(folder.catalogue.resources.find((r) => r.uri === 'skill://napkin/notes/idea.md')?.name).toBe('napkin/notes/idea.md');
  });

  it('places a skill inside another under the enclosing skill, where its manifest lists the same file', async () => {
    const folder = await open(
      tree({
        'skills/outer/SKILL.md': skillMd('outer'),
        'skills/outer/parts/inner/SKILL.md': skillMd('inner'),
        'skills/outer/parts/inner/data.txt': 'data\n',
      }),
    );
    const inner = folder.catalogue.skillsByUri.get('skill://outer/parts/inner/SKILL.md');
    expect(inner?.frontmatter.name).toBe('inner');
    const outer = folder.catalogue.skillsByUri.get('skill://outer/SKILL.md');
    const innerFiles = inner?.resources === 'dynamic' ? [] : (inner?.resources ?? []);
    const outerFiles = outer?.resources === 'dynamic' ? [] : (outer?.resources ?? []);
    // The enclosing skill's manifest also lists the nested skill's files, under the same URIs (SEP-2640).
    for (const file of innerFiles) expect(outerFiles).toContainEqual(file);
    expect(innerFiles.map((f) => f.uri)).toEqual(['skill://outer/parts/inner/SKILL.md', 'skill://outer/parts/inner/data.txt']);
  });

  it('serves the first of two skills with one name and reports the other', async () => {
    const folder = await open(tree({ 'a/tool/SKILL.md': skillMd('tool'), 'b/tool/SKILL.md': skillMd('tool') }));
    expect(folder.catalogue.skills.map((s) => s.dir)).toEqual(['a/tool']);
    expect(folder.catalogue.issues.find((i) => i.code === 'duplicate_name')).toMatchObject({ path: 'b/tool/SKILL.md' });
  });

  it('completes {skill} with names only, ranked, and {+path} only inside the chosen skill', async () => {
    const folder = await open(
      tree({
        'skills/aspnet-minimal-api-openapi/SKILL.md': skillMd('aspnet-minimal-api-openapi'),
        'skills/napkin/SKILL.md': skillMd('napkin'),
        'skills/napkin/assets/sketch.svg': '<svg/>',
        'skills/outer/SKILL.md': skillMd('outer'),
        'skills/outer/inner/SKILL.md': skillMd('inner'),
      }),
    );
    // A prefix match first; "openapi" holds "nap" too, so it follows.
    expect((await complete(folder, 'skill', 'nap'))?.values).toEqual(['napkin', 'aspnet-minimal-api-openapi']);
    // Every value is one segment: a nested skill is reached through the skill that holds it.
    expect((await complete(folder, 'skill', ''))?.values).toEqual(['aspnet-minimal-api-openapi', 'napkin', 'outer']);
    expect((await complete(folder, 'path', '', { skill: 'napkin' }))?.values).toEqual(['SKILL.md', 'assets/sketch.svg']);
    expect((await complete(folder, 'path', 'in', { skill: 'outer' }))?.values).toEqual(['inner/SKILL.md']);
    expect((await complete(folder, 'path', '', { skill: 'nobody' }))?.values).toEqual([]);
    expect((await complete(folder, 'path', ''))?.values).toEqual([]);
  });

  it('reads every file at the URI the template expands to from its completions', async () => {
    const folder = await open(
      tree({
        'skills/odd/SKILL.md': skillMd('odd'),
        'skills/odd/a+b@c.md': 'reserved\n',
        'skills/odd/with space.md': 'space\n',
        'skills/odd/ünï.md': 'unicode\n',
      }),
    );
    const template = parseUriTemplate(SKILL_FILE_TEMPLATE);
    const paths = (await complete(folder, 'path', '', { skill: 'odd' }))?.values ?? [];
    expect(paths).toHaveLength(4);
    for (const path of paths) {
      const uri = template.expand({ skill: 'odd', path });
      const listed = [...folder.catalogue.files].find(([, file]) => file.record.inSkill === path)?.[0];
      const fromTemplate = await folder.resources.read(uri, ctx);
      const fromListing = await folder.resources.read(listed as string, ctx);
      expect(fromTemplate.contents[0]).toMatchObject({ ...fromListing.contents[0], uri });
    }
  });

  it('keeps a name that is not one valid segment from reaching into another skill’s URIs', async () => {
    const folder = await open(
      tree({
        'victim/SKILL.md': skillMd('victim'),
        'victim/references/notes.md': 'the real notes\n',
        'aaa/SKILL.md': '---\nname: victim/references\ndescription: Squats.\n---\nBody.\n',
        'aaa/notes.md': 'squatted\n',
        'dots/SKILL.md': '---\nname: ..\ndescription: Dots.\n---\nBody.\n',
      }),
    );
    const real = await folder.resources.read('skill://victim/references/notes.md', ctx);
    expect(real.contents[0]).toMatchObject({ text: 'the real notes\n' });
    const victim = folder.catalogue.skillsByUri.get('skill://victim/SKILL.md');
    const listed = victim?.resources === 'dynamic' ? [] : (victim?.resources ?? []);
    expect(listed.find((f) => f.uri === 'skill://victim/references/notes.md')?.size).toBe('the real notes\n'.length);
    // The odd name is one percent-encoded segment of its own.
    const odd = await folder.resources.read('skill://victim%2Freferences/notes.md', ctx);
    expect(odd.contents[0]).toMatchObject({ text: 'squatted\n' });
    expect(folder.catalogue.skills.map((s) => s.uri)).not.toContain('skill://../SKILL.md');
    expect(folder.catalogue.issues.find((i) => i.path === 'dots/SKILL.md')).toMatchObject({ severity: 'error', code: 'invalid_name' });
  });

  it('serves a file whose name has a backslash under its own URI, where backslashes are no separators', async () => {
    const folder = await open(tree({ 'odd/SKILL.md': skillMd('odd'), 'odd/a\\b.md': 'backslash\n' }));
    const uri = 'skill://odd/a%5Cb.md';
    expect(folder.catalogue.files.has(uri)).toBe(true);
    expect((await folder.resources.read(uri, ctx)).contents[0]).toMatchObject({ text: 'backslash\n' });
  });

  it('leaves out a file whose name is not UTF-8, instead of listing its U+FFFD twin twice', async () => {
    const dir = tree({ 'odd/SKILL.md': skillMd('odd'), 'odd/caf\uFFFD.md': 'the twin\n' });
    // "caf" and a Latin-1 é: not UTF-8.
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'odd/caf')), Buffer.from([0xe9]), Buffer.from('.md')]), 'latin-1 name\n');
    const folder = await open(dir);
    const uris = [...folder.catalogue.files.keys()].filter((uri) => uri.startsWith('skill://odd/caf'));
    expect(uris).toEqual([`skill://odd/${encodeURIComponent('caf\uFFFD.md')}`]);
    expect((await folder.resources.read(uris[0] as string, ctx)).contents[0]).toMatchObject({ text: 'the twin\n' });
    expect(folder.catalogue.issues.find((i) => i.code === 'invalid_file_name')).toMatchObject({ severity: 'warning', path: 'odd/caf\uFFFD.md' });
  });
});
