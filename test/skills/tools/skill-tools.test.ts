/**
 * The skill tools of a folder, in process: `load_skill` renders what
 * `prompts/get` renders and names the skill's files, `read_skill_file` gives
 * what `resources/read` gives, failures are the model's to act on, and the
 * listing follows the catalogue.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isToolArgumentsError } from '../../../src/core/errors.js';
import type { CallToolResult, ContentBlock } from '../../../src/core/model.js';
import { loadSkillsFolder, type SkillsFolder } from '../../../src/skills/provider.js';
import { LISTING_MAX_BYTES } from '../../../src/skills/tools/skill-listing.js';
import { ROOT } from '../../_stdio-client.js';
import { tree } from '../../_tree.js';

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const folders: SkillsFolder[] = [];
const temps: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) folder.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function validCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-tools-'));
  temps.push(dir);
  cpSync(`${ROOT}test/fixtures/skills/valid`, join(dir, 'skills'), { recursive: true });
  return join(dir, 'skills');
}

async function open(dir: string, options: { tools?: boolean } = {}): Promise<SkillsFolder> {
  const folder = await loadSkillsFolder([dir], options);
  folders.push(folder);
  return folder;
}

function tools(folder: SkillsFolder) {
  const provider = folder.tools;
  if (!provider) throw new Error('no tools');
  return provider;
}

const call = (folder: SkillsFolder, name: string, args: Record<string, unknown>) => tools(folder).call(name, args, ctx) as Promise<CallToolResult>;
const texts = (result: CallToolResult) => result.content.map((block: ContentBlock) => (block.type === 'text' ? block.text : block.type));

async function refusal(promise: Promise<unknown>): Promise<{ message: string; issues: readonly string[] }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isToolArgumentsError(error), String(error)).toBe(true);
  return error as { message: string; issues: readonly string[] };
}

describe('load_skill', () => {
  it('returns the text prompts/get renders, then the paths and URIs of the other files', async () => {
    const folder = await open(validCopy());
    const result = await call(folder, 'load_skill', { name: 'pdf-tools' });
    const prompt = await folder.prompts.get('pdf-tools', {}, ctx);
    expect(result.isError).toBeUndefined();
    expect(result.content[0]).toEqual(prompt.messages[0]?.content);
    const files = texts(result)[1] as string;
    expect(files).toContain('read_skill_file');
    for (const path of ['references/forms.md', 'assets/logo.png', 'scripts/fill.py', 'templates/letter.txt']) {
      expect(files).toContain(`- ${path} (skill://pdf-tools/${path}, `);
    }
    expect(files).not.toContain('SKILL.md');
    // A skill that is a lone SKILL.md has nothing more to name.
    expect((await call(folder, 'load_skill', { name: 'unicode-skill' })).content).toHaveLength(1);
  });

  it('substitutes arguments as prompts/get does, and picks the locale by BCP 47 lookup', async () => {
    const folder = await open(validCopy());
    const args = { who: 'Ada', language: 'french', variant: 'fr-CA' };
    const greeting = await call(folder, 'load_skill', { name: 'greeting', arguments: args });
    expect(greeting.content[0]).toEqual((await folder.prompts.get('greeting', args, ctx)).messages[0]?.content);
    expect(texts(greeting)[0]).toContain('Say hello to Ada in french (fr-CA). Keep {{who}} literal.');
    expect(texts(await call(folder, 'load_skill', { name: 'localized', locale: 'fr-CA' }))[0]).toContain('Bonjour en français.');
    expect(texts(await call(folder, 'load_skill', { name: 'localized', locale: 'en' }))[0]).toContain('Hello in English.');
    expect(texts(await call(folder, 'load_skill', { name: 'localized', arguments: { locale: 'fr' } }))[0]).toContain('Bonjour');
    // A skill without variants has one text, whatever the locale.
    expect(texts(await call(folder, 'load_skill', { name: 'unicode-skill', locale: 'fr' }))[0]).toEqual(
      texts(await call(folder, 'load_skill', { name: 'unicode-skill' }))[0],
    );
  });

  it('loads a skill without a required argument the host cannot ask for, with a note of what it takes', async () => {
    const folder = await open(validCopy());
    const missing = await call(folder, 'load_skill', { name: 'greeting', arguments: { language: 'french' } });
    expect(missing.isError).toBeUndefined();
    const [note, text] = texts(missing);
    expect(note).toBe(
      [
        'The skill "greeting" was loaded without who, which it requires. Take the values from the conversation (ask the user only if it does not say), ' +
          'and read {{who}} in the skill as those values; or call load_skill again with them in arguments. Its arguments:',
        '- who (required, not given): Whom to greet',
        '- language (optional, given: "french")',
        // What the argument completes to given the others, as a client's form would offer it.
        '- variant (optional, not given): Regional variant; suggested values: fr-FR, fr-CA',
      ].join('\n'),
    );
    // The unfilled placeholder stays where its value goes; the given one is filled, the optional one empty as prompts/get leaves it.
    expect(text).toContain('Say hello to {{who}} in french (). Keep {{who}} literal.');
    // An empty value is a missing one, as prompts/get says.
    expect(texts(await call(folder, 'load_skill', { name: 'greeting', arguments: { who: '' } }))[0]).toContain('without who');
    // Given every required argument: the skill alone, as before.
    expect(texts(await call(folder, 'load_skill', { name: 'greeting', arguments: { who: 'Ada' } }))[0]).toContain('Say hello to Ada');
  });

  it('asks the user where the host can ask, and names what the skill needs when the user does not give it', async () => {
    const folder = await open(validCopy());
    const asked: unknown[] = [];
    let answer: Record<string, unknown> = { action: 'accept', content: { who: 'Ada' } };
    const asking = {
      ...ctx,
      client: { capabilities: { elicitation: {} } },
      can: { progress: false, log: () => false, input: (method: string) => method === 'elicitation/create' },
      input: async (key: string, request: unknown) => {
        asked.push([key, request]);
        return answer;
      },
    } as unknown as typeof ctx;
    const loaded = (await tools(folder).call('load_skill', { name: 'greeting' }, asking)) as CallToolResult;
    expect(texts(loaded)).toHaveLength(1);
    expect(texts(loaded)[0]).toContain('Say hello to Ada');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject(['prompt_arguments', { method: 'elicitation/create', params: { requestedSchema: { required: ['who'] } } }]);
    answer = { action: 'decline' };
    const declined = await refusal(Promise.resolve(tools(folder).call('load_skill', { name: 'greeting' }, asking)));
    expect(declined.issues).toEqual(['/arguments/who: required by the skill "greeting" (Whom to greet)']);
    // A client that declared elicitation on a request that cannot carry the question is not asked.
    const unable = { ...asking, can: { progress: false, log: () => false, input: () => false } } as typeof ctx;
    expect(texts((await tools(folder).call('load_skill', { name: 'greeting' }, unable)) as CallToolResult)[0]).toContain('without who');
    expect(asked).toHaveLength(2);
  });

  it('answers bad arguments as invalid arguments, naming what the skill takes', async () => {
    const folder = await open(validCopy());
    const unknown = await refusal(call(folder, 'load_skill', { name: 'greeting', arguments: { who: 'Ada', mood: 'glad' } }));
    expect(unknown.issues).toEqual(['/arguments/mood: the skill "greeting" has no argument "mood"; it takes who, language, variant']);
    expect((await refusal(call(folder, 'load_skill', { name: 'pdf-tools', arguments: { x: '1' } }))).issues[0]).toContain('it takes none');
    // Not a BCP 47 tag at all (RFC 5646): refused, as prompts/get refuses it.
    expect((await refusal(call(folder, 'load_skill', { name: 'localized', locale: 'fr_CA' }))).message).toContain('not a BCP 47 language tag');
    // The schema: neither name nor query, a value that is not a string, an unknown input.
    expect((await refusal(call(folder, 'load_skill', {}))).issues).toEqual(['/: give the name of a skill to load, or a query to search the skills']);
    await refusal(call(folder, 'load_skill', { name: 'greeting', arguments: { who: 3 } }));
    await refusal(call(folder, 'load_skill', { name: 'greeting', skill: 'x' }));
  });

  it('answers an unknown skill, a reference prompt or a prompt file with a failure naming the closest skills', async () => {
    const folder = await open(validCopy());
    const unknown = await call(folder, 'load_skill', { name: 'pdf-tool' });
    expect(unknown).toEqual({ isError: true, content: [{ type: 'text', text: 'No skill is named "pdf-tool". Closest: pdf-tools.' }] });
    // Prompts that are not skills are not loaded as skills.
    for (const name of ['summarize', 'pdf-tools-references-forms']) {
      expect((await call(folder, 'load_skill', { name })).isError, name).toBe(true);
    }
    expect(texts(await call(folder, 'load_skill', { name: 'zzzzqqq' }))[0]).toBe(
      'No skill is named "zzzzqqq". Call load_skill with query to search the skills.',
    );
  });

  it('leaves out a skill whose name another skill took first', async () => {
    const folder = await open(
      tree({
        'a/twin/SKILL.md': '---\nname: twin\ndescription: The first twin.\n---\nFirst.\n',
        'b/twin/SKILL.md': '---\nname: twin\ndescription: The second twin.\n---\nSecond.\n',
      }),
    );
    expect(texts(await call(folder, 'load_skill', { name: 'twin' }))[0]).toContain('First.');
    expect((await tools(folder).list())[0]?.description).not.toContain('second twin');
  });
});

describe('read_skill_file', () => {
  it('returns the bytes resources/read returns: text as text, an image as an image, other binary embedded', async () => {
    const dir = validCopy();
    writeFileSync(join(dir, 'pdf-tools', 'assets', 'data.bin'), Buffer.from([0, 1, 2, 0xff, 0xfe]));
    writeFileSync(join(dir, 'pdf-tools', 'assets', 'bom.md'), '\uFEFFwith a byte-order mark\r\n');
    const folder = await open(dir);
    for (const [path, kind] of [
      ['references/forms.md', 'text'],
      ['SKILL.md', 'text'],
      ['assets/bom.md', 'text'],
      ['assets/logo.png', 'image'],
      ['assets/data.bin', 'resource'],
    ] as const) {
      const uri = `skill://pdf-tools/${path}`;
      const [contents] = (await folder.resources.read(uri, ctx)).contents;
      const result = await call(folder, 'read_skill_file', { skill: 'pdf-tools', path });
      expect(result.isError, path).toBeUndefined();
      const [block] = result.content;
      expect(block?.type, path).toBe(kind);
      if (block?.type === 'text') expect(block.text).toBe((contents as { text: string }).text);
      if (block?.type === 'image') expect(block).toEqual({ type: 'image', data: (contents as { blob: string }).blob, mimeType: 'image/png' });
      if (block?.type === 'resource') expect(block.resource).toEqual(contents);
    }
  });

  it('answers a path that names no file with the closest paths, and an unknown skill with the closest skills', async () => {
    const folder = await open(validCopy());
    const folderPath = await call(folder, 'read_skill_file', { skill: 'pdf-tools', path: 'references/' });
    expect(folderPath.isError).toBe(true);
    expect(texts(folderPath)[0]).toBe('The skill "pdf-tools" has no file "references/". Its closest paths:\n- references/forms.md');
    expect(texts(await call(folder, 'read_skill_file', { skill: 'pdf', path: 'SKILL.md' }))[0]).toBe('No skill is named "pdf". Closest: pdf-tools.');
    await refusal(call(folder, 'read_skill_file', { skill: 'pdf-tools' }));
  });

  it('names at most 4 KB of a large skill’s files, and a folder path answers with the files under it', async () => {
    const files: Record<string, string> = { 'big/SKILL.md': '---\nname: big\ndescription: Many files.\n---\nSee references/.\n' };
    for (let i = 0; i < 300; i++) files[`big/${i % 2 ? 'references' : 'assets'}/file-${String(i).padStart(3, '0')}.md`] = `${i}\n`;
    const folder = await open(tree(files));
    const listed = texts(await call(folder, 'load_skill', { name: 'big' }))[1] as string;
    expect(Buffer.byteLength(listed)).toBeLessThanOrEqual(LISTING_MAX_BYTES);
    const shown = listed.match(/^- /gm)?.length ?? 0;
    expect(listed.startsWith(`${shown} of the 300 files of the skill "big"`)).toBe(true);
    expect(listed).toContain('A path that names no file is answered with the paths that start with it.');
    const under = texts(await call(folder, 'read_skill_file', { skill: 'big', path: 'references/' }))[0] as string;
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(LISTING_MAX_BYTES);
    const paths = [...under.matchAll(/^- (.+)$/gm)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.every((p) => p?.startsWith('references/file-'))).toBe(true);
  });

  it('answers a file over the server’s read limit with a failure, not a read', async () => {
    const folder = await open(validCopy());
    const limited = { ...ctx, limits: { maxPromptBytes: 1 << 20, maxResourceBytes: 16 } };
    const result = (await tools(folder).call('read_skill_file', { skill: 'pdf-tools', path: 'references/forms.md' }, limited)) as CallToolResult;
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'references/forms.md is larger than this server sends' }] });
  });
});

describe('the skill tools of a folder', () => {
  it('are on by default and off with tools: false, and the instructions say how to use them', async () => {
    const dir = validCopy();
    const on = await open(dir);
    expect((await tools(on).list()).map((t) => t.name)).toEqual(['load_skill', 'read_skill_file']);
    expect(on.instructions).toContain('load_skill');
    const off = await open(dir, { tools: false });
    expect(off.tools).toBeUndefined();
    expect('tools' in off).toBe(false);
    expect(off.instructions).not.toContain('load_skill');
  });

  it('list every skill with its first sentence, and tell watchers only when the listing changed', async () => {
    const dir = validCopy();
    const folder = await open(dir);
    const provider = tools(folder);
    const [load, read] = await provider.list();
    expect(load?.description).toContain('\n\nSkills:\n- greeting: Greets someone in a chosen language.\n');
    expect(load?.description).toContain('- pdf-tools: Fill, merge and inspect PDF files, e.g. tax forms v1.2 or contracts.\n');
    expect(load?.description).not.toContain('summarize');
    expect(load?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(read?.inputSchema).toMatchObject({ required: ['skill', 'path'] });
    let told = 0;
    provider.watch?.(() => told++);
    // A change inside a skill leaves the listing as it was.
    writeFileSync(join(dir, 'pdf-tools', 'references', 'forms.md'), 'Changed.\n');
    await folder.reload();
    expect(told).toBe(0);
    writeFileSync(join(dir, 'greeting', 'SKILL.md'), '---\nname: greeting\ndescription: Says hello.\n---\nHello.\n');
    await folder.reload();
    expect(told).toBe(1);
    expect((await provider.list())[0]?.description).toContain('- greeting: Says hello.\n');
  });
});
