/**
 * `skillport serve` as a tool-only host meets it: the official SDK v1 client
 * (@modelcontextprotocol/sdk) over a real stdio pipe lists the skill tools,
 * loads a skill, reads every file of every bundled skill with read_skill_file
 * and gets the bytes resources/read gives for the same file, and hears of a
 * reload that changes the listing.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';

const BUNDLED = `${ROOT}skills`;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function connect(...args: string[]): Promise<ClientV1> {
  const client = new ClientV1({ name: 'tool-only-host', version: '1' });
  await client.connect(new StdioV1({ command: process.execPath, args: [BIN, 'serve', ...args], stderr: 'ignore' }));
  closers.push(() => client.close());
  return client;
}

async function eventually(check: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const call = async (client: ClientV1, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult, at = 0): string => {
  const block = result.content[at];
  return block?.type === 'text' ? block.text : '';
};

describe('the skill tools over stdio with the SDK v1 client', () => {
  it('lists the two tools, the skills in load_skill’s description, and instructions that say how to load one', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(client.getInstructions()).toContain('call load_skill with its name');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['load_skill', 'read_skill_file']);
    const description = tools[0]?.description ?? '';
    for (const name of ['code-review', 'commit-message', 'incident-postmortem', 'release-notes', 'sql-review', 'write-tests']) {
      expect(description).toMatch(new RegExp(`^- ${name}: `, 'm'));
    }
    // Prompt files are prompts, not skills.
    expect(description).not.toContain('explain-error');
  });

  it('loads a skill as prompts/get renders it, and reads each file it names as resources/read does, byte for byte', async () => {
    const client = await connect();
    const loaded = await call(client, 'load_skill', { name: 'code-review', arguments: { language: 'go' }, locale: 'fr-CA' });
    expect(loaded.isError).toBeFalsy();
    const prompt = await client.getPrompt({ name: 'code-review', arguments: { language: 'go', locale: 'fr-CA' } });
    expect(loaded.content[0]).toEqual(prompt.messages[0]?.content);
    expect(textOf(loaded)).toContain('name: code-review');
    expect(textOf(loaded)).not.toContain('{{language}}');
    const named = [...textOf(loaded, 1).matchAll(/^- (\S+) \((skill:\/\/\S+), /gm)].map((m) => [m[1], m[2]]);
    expect(named).toEqual([
      ['SKILL.fr.md', 'skill://code-review/SKILL.fr.md'],
      ['references/checklist.md', 'skill://code-review/references/checklist.md'],
      ['scripts/review-scope.sh', 'skill://code-review/scripts/review-scope.sh'],
    ]);

    // Every file of every bundled skill: the tool's text is the resource's text, and both are the file's bytes.
    const { resources } = await client.listResources();
    let compared = 0;
    for (const resource of resources) {
      const [, skill, path] = /^skill:\/\/([^/]+)\/(.+)$/.exec(resource.uri) ?? [];
      const result = await call(client, 'read_skill_file', { skill, path });
      const [contents] = (await client.readResource({ uri: resource.uri })).contents;
      expect(result.isError, resource.uri).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: (contents as { text: string }).text }]);
      expect(Buffer.from(textOf(result))).toEqual(readFileSync(join(BUNDLED, skill as string, path as string)));
      compared++;
    }
    expect(compared).toBe(17);
  });

  it('answers failures as tool results the model can act on', async () => {
    const client = await connect();
    const unknown = await call(client, 'load_skill', { name: 'code-reviews' });
    expect(unknown).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('Closest: code-review') }] });
    // 2025-11-25, which the v1 client speaks: invalid arguments are a tool result too.
    const wrong = await call(client, 'load_skill', { name: 'code-review', arguments: { lang: 'go' } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('/arguments/lang: the skill "code-review" has no argument "lang"; it takes language, focus, locale');
    const found = await call(client, 'load_skill', { query: 'database migration locks' });
    expect(textOf(found)).toMatch(/^- sql-review: /m);
    const outside = await call(client, 'read_skill_file', { skill: 'code-review', path: '../../package.json' });
    expect(outside.isError).toBe(true);
  });

  it('sends tools/list_changed when a reload adds a skill, and not when a change leaves the listing as it was', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'skillport-tools-e2e-')), 'skills');
    closers.push(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
    cpSync(BUNDLED, dir, { recursive: true });
    const client = await connect(dir, '--watch');
    let changes = 0;
    let resourceChanges = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void resourceChanges++);
    await client.listTools();
    // A file of a skill, not its description: the reload tells of the resources (a size changed), not of the tools.
    const checklist = join(dir, 'code-review', 'references', 'checklist.md');
    writeFileSync(checklist, `${readFileSync(checklist, 'utf8')}\nOne more item.\n`);
    await eventually(() => resourceChanges > 0);
    // A round trip: whatever the server wrote before this answer has been handled.
    expect(textOf(await call(client, 'read_skill_file', { skill: 'code-review', path: 'references/checklist.md' }))).toContain('One more item.');
    expect(changes).toBe(0);
    mkdirSync(join(dir, 'haiku'));
    writeFileSync(join(dir, 'haiku', 'SKILL.md'), '---\nname: haiku\ndescription: Writes a haiku about the change.\n---\nFive, seven, five.\n');
    await eventually(() => changes > 0);
    const { tools } = await client.listTools();
    expect(tools[0]?.description).toContain('- haiku: Writes a haiku about the change.');
    expect(changes).toBe(1);
    expect(textOf(await call(client, 'load_skill', { name: 'haiku' }))).toContain('Five, seven, five.');
  });
});
