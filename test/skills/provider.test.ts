/**
 * loadSkillsFolder: reading files through the confined view, live reload and
 * its change events, and what stays outside the served folder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncoded } from '../../src/jsonrpc/encoded.js';
import { loadSkillsFolder, type SkillsFolder } from '../../src/skills/provider.js';
import { ROOT } from '../_stdio-client.js';

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const temps: string[] = [];
const folders: SkillsFolder[] = [];

function tempCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-'));
  temps.push(dir);
  const target = join(dir, 'skills');
  cpSync(`${ROOT}test/fixtures/skills/valid`, target, { recursive: true });
  return target;
}

function skill(dir: string, name: string, description: string, body = 'body'): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

async function open(dir: string, watch = false): Promise<SkillsFolder> {
  const folder = await loadSkillsFolder([dir], { watch, debounceMs: 20 });
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) folder.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Resolves when `check` holds; bounded so a missing event fails instead of hanging. */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('loadSkillsFolder', () => {
  it('reads text files as text and binary files as base64 blobs, byte for byte', async () => {
    const dir = tempCopy();
    const folder = await open(dir);
    const text = await folder.resources.read('skill://pdf-tools/SKILL.md', ctx);
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('# PDF tools') });
    const blob = await folder.resources.read('skill://pdf-tools/assets/logo.png', ctx);
    expect(blob.contents[0]).toMatchObject({ mimeType: 'image/png', blob: execFileSync('base64', ['-w0', join(dir, 'pdf-tools/assets/logo.png')]).toString() });
    await expect(async () => folder.resources.read('skill://pdf-tools/nope.md', ctx)).rejects.toMatchObject({ name: 'ResourceNotFoundError' });
  });

  it('refuses a file over ctx.limits.maxResourceBytes, by its catalogued size or by the size of the file opened, without a reload', async () => {
    const dir = tempCopy();
    const folder = await open(dir);
    const limited = { ...ctx, limits: { maxPromptBytes: 1024, maxResourceBytes: 64 } };
    // letter.txt is catalogued under the cap; fill.py over it.
    writeFileSync(join(dir, 'pdf-tools', 'templates', 'letter.txt'), 'short\n');
    await folder.reload();
    const catalogue = folder.catalogue;
    await expect(async () => folder.resources.read('skill://pdf-tools/SKILL.md', limited)).rejects.toMatchObject({ name: 'OutputLimitError' });
    expect((await folder.resources.read('skill://pdf-tools/templates/letter.txt', limited)).contents[0]).toMatchObject({ text: 'short\n' });
    // Grown past the cap since it was catalogued: refused on the opened file's size, not read whole for a digest check.
    writeFileSync(join(dir, 'pdf-tools', 'templates', 'letter.txt'), 'long\n'.repeat(100));
    await expect(async () => folder.resources.read('skill://pdf-tools/templates/letter.txt', limited)).rejects.toMatchObject({ name: 'OutputLimitError' });
    expect(folder.catalogue).toBe(catalogue);
  });

  it('stops rendering a prompt once its text passes ctx.limits.maxPromptBytes', async () => {
    const dir = tempCopy();
    writeFileSync(join(dir, 'prompts', 'many.md'), `---\ndescription: Many.\narguments:\n  - name: text\n---\n${'{{text}}\n'.repeat(1000)}`);
    const folder = await open(dir);
    const limited = { ...ctx, limits: { maxPromptBytes: 10_000, maxResourceBytes: 64 } };
    await expect(async () => folder.prompts.get('many', { text: 'x'.repeat(1000) }, limited)).rejects.toMatchObject({ name: 'OutputLimitError' });
    const fits = await folder.prompts.get('many', { text: 'x' }, limited);
    expect(fits.messages[0]?.content).toMatchObject({ text: 'x\n'.repeat(1000) });
  });

  it('refuses traversal in URIs and never serves bytes from outside the folder', async () => {
    const dir = tempCopy();
    const outside = join(dir, '..', 'secret.txt');
    writeFileSync(outside, 'TOP SECRET');
    symlinkSync(outside, join(dir, 'pdf-tools', 'leak.txt'));
    symlinkSync(join(dir, '..'), join(dir, 'pdf-tools', 'up'));
    mkdirSync(join(dir, 'outside-skill-target'));
    execFileSync('mkfifo', [join(dir, 'pdf-tools', 'pipe')]);
    const folder = await open(dir);
    const uris = folder.catalogue.resources.map((r) => r.uri);
    expect(uris.some((u) => u.includes('leak') || u.includes('/up') || u.includes('pipe'))).toBe(false);
    for (const uri of [
      'skill://pdf-tools/leak.txt',
      'skill://pdf-tools/../../secret.txt',
      'skill://pdf-tools/%2e%2e/%2e%2e/secret.txt',
      'skill://pdf-tools/up/secret.txt',
      'skill://pdf-tools/pipe',
      'skill://pdf-tools/..\\..\\secret.txt',
      'skill://pdf-tools/SKILL.md\u0000',
      `file://${outside}`,
    ]) {
      await expect(async () => folder.resources.read(uri, ctx), uri).rejects.toMatchObject({ name: 'ResourceNotFoundError' });
    }
    const codes = folder.catalogue.issues.map((i) => `${i.code} ${i.path}`);
    expect(codes).toContain('outside_folder pdf-tools/leak.txt');
    expect(codes).toContain('outside_folder pdf-tools/up');
    expect(codes).toContain('not_regular pdf-tools/pipe');
  });

  it('follows symbolic links that stay inside the folder', async () => {
    const dir = tempCopy();
    symlinkSync(join(dir, 'pdf-tools', 'references', 'forms.md'), join(dir, 'pdf-tools', 'forms-link.md'));
    const folder = await open(dir);
    const read = await folder.resources.read('skill://pdf-tools/forms-link.md', ctx);
    expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('Filling PDF forms') });
  });

  it('reloads on change, swaps the catalogue whole and reports list changes and updates', async () => {
    const dir = tempCopy();
    const folder = await open(dir, true);
    const events: string[] = [];
    folder.prompts.watch?.(() => events.push('prompts'));
    folder.resources.watch?.((e) => events.push(e.type === 'updated' ? `updated ${e.uri}` : 'resources'));
    skill(dir, 'fresh', 'Added while serving.');
    await eventually(() => events.includes('prompts'));
    expect((await folder.prompts.list()).map((p) => p.name)).toContain('fresh');
    writeFileSync(join(dir, 'pdf-tools', 'references', 'forms.md'), '# Changed\n');
    await eventually(() => events.includes('updated skill://pdf-tools/references/forms.md'));
    expect((await folder.resources.read('skill://pdf-tools/references/forms.md', ctx)).contents[0]).toMatchObject({ text: '# Changed\n' });
  });

  it('keeps the last good catalogue when a reload fails', async () => {
    const dir = tempCopy();
    const folder = await open(dir);
    const before = folder.catalogue;
    renameSync(dir, `${dir}-moved`);
    temps.push(`${dir}-moved`);
    expect(await folder.reload()).toBe(false);
    expect(folder.catalogue).toBe(before);
    expect((await folder.prompts.list()).length).toBe(before.prompts.length);
  });

  it('never serves bytes under a stale digest: a changed file is reloaded before it is read', async () => {
    const dir = tempCopy();
    const folder = await open(dir);
    const before = folder.catalogue.skillsByUri.get('skill://pdf-tools/SKILL.md');
    writeFileSync(join(dir, 'pdf-tools', 'scripts', 'fill.py'), 'print("changed")\n');
    const read = await folder.resources.read('skill://pdf-tools/scripts/fill.py', ctx);
    expect(read.contents[0]).toMatchObject({ text: 'print("changed")\n' });
    const after = folder.catalogue.skillsByUri.get('skill://pdf-tools/SKILL.md');
    const digest = (entry: typeof before) => (entry?.resources === 'dynamic' ? undefined : entry?.resources.find((f) => f.uri.endsWith('fill.py'))?.digest);
    expect(digest(after)).not.toBe(digest(before));
  });

  it('renders a prompt from SKILL.md as it is now: a changed file is reloaded first, a removed one is no longer served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillport-changed-'));
    temps.push(dir);
    skill(dir, 'tidy', 'Tidies things.', 'Old body.');
    skill(dir, 'gone', 'Goes away.', 'Soon gone.');
    const folder = await open(dir);
    const text = async (name: string) => (await folder.prompts.get(name, {}, ctx)).messages[0]?.content;
    expect(await text('tidy')).toMatchObject({ text: expect.stringContaining('Old body.') });
    skill(dir, 'tidy', 'Tidies things, now with a new description.', 'New body.');
    expect(await text('tidy')).toMatchObject({ text: expect.stringContaining('New body.') });
    expect((await folder.prompts.list()).find((p) => p.name === 'tidy')?.description).toBe('Tidies things, now with a new description.');
    rmSync(join(dir, 'gone'), { recursive: true });
    await expect(async () => text('gone')).rejects.toMatchObject({ name: 'InvalidParamsError' });
  });

  it('serves an argument-less skill as one shared result while SKILL.md is unchanged, and follows a same-size rewrite with the old times put back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillport-fixed-'));
    temps.push(dir);
    skill(dir, 'tidy', 'Tidies things.', 'Body AAAA.');
    const folder = await open(dir);
    const first = await folder.prompts.get('tidy', {}, ctx);
    expect(first.messages[0]?.content).toMatchObject({ text: expect.stringContaining('Body AAAA.') });
    expect(await folder.prompts.get('tidy', {}, ctx)).toBe(first);
    expect(isEncoded(first)).toBe(true);
    // Touched, same bytes: the same result, after one verified read.
    const file = join(dir, 'tidy', 'SKILL.md');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    expect(await folder.prompts.get('tidy', {}, ctx)).toBe(first);
    // Rewritten in place with as many bytes, and the old times put back: the change time still moves.
    const { atime, mtime } = statSync(file);
    skill(dir, 'tidy', 'Tidies things.', 'Body BBBB.');
    utimesSync(file, atime, mtime);
    const rewritten = await folder.prompts.get('tidy', {}, ctx);
    expect(rewritten.messages[0]?.content).toMatchObject({ text: expect.stringContaining('Body BBBB.') });
  });

  it('serves a locale by RFC 4647 §3.4 lookup, the default text as the shared result, and refuses a malformed tag with -32602', async () => {
    const folder = await open(`${ROOT}test/fixtures/skills/valid`);
    const text = async (locale: string) => (await folder.prompts.get('localized', { locale }, ctx)).messages[0]?.content;
    expect(await text('fr-CA')).toMatchObject({ text: expect.stringContaining('Bonjour') });
    const english = await folder.prompts.get('localized', {}, ctx);
    expect(await folder.prompts.get('localized', { locale: 'en-GB' }, ctx)).toBe(english);
    await expect(async () => text('fr_CA')).rejects.toMatchObject({
      name: 'InvalidParamsError',
      code: -32602,
      message: 'Skill "localized": "fr_CA" is not a BCP 47 language tag (RFC 5646)',
    });
  });

  it('serves a skill with a non-ASCII folder and name under a percent-encoded URI, with a warning, outside the Skills extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillport-unicode-'));
    temps.push(dir);
    skill(dir, 'café-ünïcode', 'Ein Skill mit Umlauten. Zweiter Satz.', 'Grüße 🎉');
    const folder = await open(dir);
    expect(folder.catalogue.issues.map((i) => i.code)).toContain('invalid_name');
    expect((await folder.prompts.list()).map((p) => p.name)).toEqual(['café-ünïcode']);
    const uri = `skill://${encodeURIComponent('café-ünïcode')}/SKILL.md`;
    // The extension's names are lowercase ASCII: a host would refuse the entry.
    expect(folder.catalogue.skillsByUri.has(uri)).toBe(false);
    // One finding for the name, which says what it costs.
    expect(folder.catalogue.issues.filter((i) => i.path === 'café-ünïcode/SKILL.md').map((i) => i.code)).toEqual(['invalid_name']);
    expect(folder.catalogue.issues.find((i) => i.code === 'invalid_name')?.message).toContain('left out of the Skills extension');
    expect((await folder.resources.read(uri, ctx)).contents[0]).toMatchObject({ text: expect.stringContaining('Grüße 🎉') });
    expect((await folder.prompts.get('café-ünïcode', {}, ctx)).messages[0]?.content).toMatchObject({ text: expect.stringContaining('Grüße 🎉') });
  });

  it('loads 1,000 generated skills and one hard-linked file like any other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillport-many-'));
    temps.push(dir);
    for (let i = 0; i < 1000; i++) skill(dir, `skill-${String(i).padStart(4, '0')}`, `Generated skill number ${i}. More text.`, `Body ${i}`);
    linkSync(join(dir, 'skill-0000', 'SKILL.md'), join(dir, 'skill-0001', 'copy.md'));
    const folder = await open(dir);
    expect(folder.catalogue.skills).toHaveLength(1000);
    expect((await folder.prompts.list())[999]).toEqual({ name: 'skill-0999', description: 'Generated skill number 999.' });
  });

  it('leaves a file over the size cap out of the catalogue, so what is listed can be read', async () => {
    const dir = tempCopy();
    writeFileSync(join(dir, 'pdf-tools', 'assets', 'big.bin'), Buffer.alloc(5000, 1));
    writeFileSync(join(dir, 'prompts', 'huge.md'), `---\ndescription: Huge.\n---\n${'x'.repeat(5000)}\n`);
    const folder = await loadSkillsFolder([dir], { limits: { maxDepth: 12, maxEntries: 1000, maxFileBytes: 4096 } });
    folders.push(folder);
    const uri = 'skill://pdf-tools/assets/big.bin';
    expect(folder.catalogue.files.has(uri)).toBe(false);
    const entry = folder.catalogue.skillsByUri.get('skill://pdf-tools/SKILL.md');
    expect(entry?.resources === 'dynamic' ? [] : entry?.resources.map((r) => r.uri)).not.toContain(uri);
    expect(folder.catalogue.resources.map((r) => r.uri)).not.toContain(uri);
    expect(folder.catalogue.issues).toContainEqual(expect.objectContaining({ code: 'too_large', path: 'pdf-tools/assets/big.bin', severity: 'warning' }));
    expect(folder.catalogue.prompts.map((p) => p.name)).not.toContain('huge');
    // Everything else is still there.
    expect(folder.catalogue.files.has('skill://pdf-tools/assets/logo.png')).toBe(true);
  });
});
