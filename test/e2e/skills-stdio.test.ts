/**
 * `skillport serve DIR` over a real stdio pipe with the official SDK clients:
 * skills as prompts and resources, the Skills extension, and live reload.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { schemaErrors } from '../_schema.js';
import { BIN, RawStdioClient, ROOT } from '../_stdio-client.js';
import { modern } from '../_wire.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-e2e-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(`${ROOT}test/fixtures/skills/valid`, join(dir, 'skills'), { recursive: true });
  return join(dir, 'skills');
}

async function eventually(check: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('skills over stdio with the SDK v1 client', () => {
  it('lists first sentences, gets SKILL.md byte for byte, substitutes arguments and completes ranked', async () => {
    const dir = fixtureCopy();
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new StdioV1({ command: process.execPath, args: [BIN, 'serve', dir], stderr: 'ignore' }));
    closers.push(() => client.close());
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'pdf-tools')?.description).toBe('Fill, merge and inspect PDF files, e.g. tax forms v1.2 or contracts.');
    const unicode = await client.getPrompt({ name: 'unicode-skill' });
    expect(unicode.messages).toEqual([{ role: 'user', content: { type: 'text', text: readFileSync(join(dir, 'unicode-skill/SKILL.md'), 'utf8') } }]);
    const pdf = await client.getPrompt({ name: 'pdf-tools' });
    expect(pdf.messages[0]?.content).toMatchObject({
      text: expect.stringContaining('Read pdf-tools-references-forms (skill://pdf-tools/references/forms.md) before filling'),
    });
    const greeting = await client.getPrompt({ name: 'greeting', arguments: { who: 'Grace', language: 'english', variant: 'en-GB' } });
    expect(greeting.messages[0]?.content).toMatchObject({ text: expect.stringContaining('Say hello to Grace in english (en-GB).') });
    await expect(client.getPrompt({ name: 'greeting' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('who') });
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'language', value: 'en' } });
    expect(completion.completion.values).toEqual(['english', 'french', 'german']);
    const variant = await client.complete({
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'variant', value: '' },
      context: { arguments: { language: 'english' } },
    });
    expect(variant.completion.values).toEqual(['en-GB', 'en-US']);
    const skillNames = await client.complete({ ref: { type: 'ref/resource', uri: 'skill://{skill}/{+path}' }, argument: { name: 'skill', value: 'pd' } });
    expect(skillNames.completion.values).toEqual(['pdf-tools']);
    const paths = await client.complete({
      ref: { type: 'ref/resource', uri: 'skill://{skill}/{+path}' },
      argument: { name: 'path', value: 'ref' },
      context: { arguments: { skill: 'pdf-tools' } },
    });
    expect(paths.completion.values).toEqual(['references/forms.md']);
    const read = await client.readResource({ uri: 'skill://pdf-tools/assets/logo.png' });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')).toEqual(readFileSync(join(dir, 'pdf-tools/assets/logo.png')));
  });

  it('notifies of a file edited while serving, and the next get returns the new text', async () => {
    const dir = fixtureCopy();
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new StdioV1({ command: process.execPath, args: [BIN, 'serve', dir, '--watch'], stderr: 'ignore' }));
    closers.push(() => client.close());
    let changes = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changes++);
    await client.listPrompts();
    const path = join(dir, 'localized/SKILL.md');
    writeFileSync(path, readFileSync(path, 'utf8').replace('A skill with a French variant.', 'Edited description.'));
    await eventually(() => changes > 0);
    expect((await client.listPrompts()).prompts.find((p) => p.name === 'localized')?.description).toBe('Edited description.');
    expect((await client.getPrompt({ name: 'localized' })).messages[0]?.content).toMatchObject({ text: readFileSync(path, 'utf8') });
  });
});

describe('skills over stdio with the SDK v2 client on 2026-07-28', () => {
  it('serves skills/list and skills/get whose manifests the SDK SkillsClient verifies file by file', async () => {
    const dir = fixtureCopy();
    class InPlace extends StdioV2 {}
    const client = new ClientV2({ name: 'v2', version: '2' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new InPlace({ command: process.execPath, args: [BIN, 'serve', dir], stderr: 'ignore' }));
    closers.push(() => client.close());
    expect(client.getDiscoverResult()?.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const skills = new SkillsClient(client, { parseFrontmatter: (text) => parseYaml(text) as Record<string, unknown> });
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri).sort()).toEqual([
      'skill://greeting/SKILL.md',
      'skill://localized/SKILL.md',
      'skill://pdf-tools/SKILL.md',
      'skill://unicode-skill/SKILL.md',
    ]);
    let verified = 0;
    for (const skill of listing.skills) {
      const name = skill.frontmatter.name as string;
      for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
        const bytes = readFileSync(join(dir, name, file.uri.slice(`skill://${name}/`.length)));
        expect(file).toEqual({ uri: file.uri, size: bytes.length, digest: sha256(bytes) });
        // The SDK checks size, digest and (for SKILL.md) the frontmatter, as a host does.
        const read = await skills.read(skill, file.uri);
        expect(read.verified).toBe(true);
        expect(Buffer.from(read.bytes)).toEqual(bytes);
        verified++;
      }
    }
    expect(verified).toBe(9);
    const got = await skills.get('skill://pdf-tools/SKILL.md');
    expect(got.skill).toEqual(listing.skills.find((s) => s.uri === 'skill://pdf-tools/SKILL.md'));
    const folder = await skills.readDirectory('skill://pdf-tools/references');
    expect(folder.resources.map((r) => r.uri)).toEqual(['skill://pdf-tools/references/forms.md']);
  });

  it('sends schema-valid 2026 results for the extension methods and -32602 for unknown skills and non-directories', { tags: ['schema'] }, async () => {
    const dir = fixtureCopy();
    const raw = RawStdioClient.spawn(BIN, ['serve', dir]);
    closers.push(() => raw.close());
    const list = await raw.request('skills/list', modern());
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'public' });
    expect(schemaErrors('2026-07-28', 'JSONRPCResultResponse', list)).toEqual([]);
    const directory = await raw.request('resources/directory/read', modern({ uri: 'skill://pdf-tools' }));
    expect(directory.result.resources.map((r: { name: string }) => r.name)).toEqual(['assets', 'references', 'scripts', 'templates', 'SKILL.md']);
    for (const resource of directory.result.resources) expect(schemaErrors('2026-07-28', 'Resource', resource)).toEqual([]);
    expect((await raw.request('skills/get', modern({ uri: 'skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md' }))).error.code).toBe(-32602);
    expect((await raw.request('resources/directory/read', modern({ uri: 'skill://pdf-tools/SKILL.md' }))).error.code).toBe(-32602);
    expect((await raw.request('resources/read', modern({ uri: 'skill://pdf-tools/../../etc/passwd' }))).error.code).toBe(-32602);
  });
});
