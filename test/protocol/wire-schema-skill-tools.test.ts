/**
 * The skill tools on the wire, in every revision: tools/list, load_skill and
 * read_skill_file results (text, image and embedded-resource content), their
 * failures and invalid arguments, and tools/list_changed after a reload;
 * each message captured from `skillport serve` over a real stdio pipe and
 * validated against that revision's official schema.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RevisionName, schemaErrors } from '../_schema.js';
import { BIN, initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';

const REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;

function expectSchema(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A copy of the valid fixture folder with a binary file that is not an image. */
function folder(): string {
  const root = mkdtempSync(join(tmpdir(), 'skillport-wire-tools-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'skills');
  cpSync(`${ROOT}test/fixtures/skills/valid`, dir, { recursive: true });
  writeFileSync(join(dir, 'pdf-tools', 'assets', 'data.bin'), Buffer.from([0, 1, 2, 0xff]));
  return dir;
}

describe.each(REVISIONS)('the skill tools at %s', (revision) => {
  const isModern = revision === '2026-07-28';
  const params = (p: Message = {}): Message => (isModern ? modern(p) : p);

  async function open(dir: string): Promise<RawStdioClient> {
    const client = RawStdioClient.spawn(BIN, ['serve', dir, '--watch', '--log-level', 'silent']);
    cleanups.push(() => client.close());
    if (!isModern) {
      const init = await initialize(client, revision);
      expect(init.result.capabilities.tools).toEqual({ listChanged: true });
      expectSchema(revision, 'InitializeResult', init.result);
    }
    return client;
  }

  function result(name: string, response: Message): Message {
    expect(response.error, JSON.stringify(response.error)).toBeUndefined();
    expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse', response);
    expectSchema(revision, name, response.result);
    return response.result as Message;
  }

  const callTool = (c: RawStdioClient, name: string, args: Message) => c.request('tools/call', params({ name, arguments: args }));

  it('lists the tools and answers with text, image and embedded-resource content', { tags: ['schema'] }, async () => {
    const c = await open(folder());
    const listed = result('ListToolsResult', await c.request('tools/list', params()));
    expect(listed.tools.map((t: Message) => t.name)).toEqual(['load_skill', 'read_skill_file']);
    for (const tool of listed.tools) expectSchema(revision, 'Tool', tool);

    const loaded = result('CallToolResult', await callTool(c, 'load_skill', { name: 'pdf-tools' }));
    expect(loaded.content.map((b: Message) => b.type)).toEqual(['text', 'text']);
    const found = result('CallToolResult', await callTool(c, 'load_skill', { query: 'pdf' }));
    expect(found.content[0].text).toMatch(/^- pdf-tools: /m);

    const kinds: Array<[string, string]> = [
      ['references/forms.md', 'text'],
      ['assets/logo.png', 'image'],
      ['assets/data.bin', 'resource'],
    ];
    for (const [path, kind] of kinds) {
      const read = result('CallToolResult', await callTool(c, 'read_skill_file', { skill: 'pdf-tools', path }));
      expect(read.content[0].type, path).toBe(kind);
      const resource = result('ReadResourceResult', await c.request('resources/read', params({ uri: `skill://pdf-tools/${path}` })));
      const [contents] = resource.contents;
      const bytes = 'text' in contents ? contents.text : contents.blob;
      const block = read.content[0];
      expect(kind === 'text' ? block.text : kind === 'image' ? block.data : block.resource.blob).toBe(bytes);
    }
  });

  it('answers an unknown skill with a failed result and bad arguments as the revision says', { tags: ['schema'] }, async () => {
    const c = await open(folder());
    const unknown = result('CallToolResult', await callTool(c, 'read_skill_file', { skill: 'pdf-tools', path: '../../etc/passwd' }));
    expect(unknown.isError).toBe(true);
    const wrong = await callTool(c, 'load_skill', { name: 'greeting', arguments: { who: 'Ada', mood: 'glad' } });
    if (revision === '2025-06-18') {
      // 2025-06-18 server/tools §Error Handling: invalid arguments are a protocol error.
      expect(wrong.error).toMatchObject({ code: -32602, data: { name: 'load_skill', issues: [expect.stringContaining('/arguments/mood')] } });
      expectSchema(revision, 'JSONRPCError', wrong);
    } else {
      const answer = result('CallToolResult', wrong);
      expect(answer.isError).toBe(true);
      expect(answer.content[0].text).toContain('/arguments/mood: the skill "greeting" has no argument "mood"');
    }
  });

  it('loads a skill without a required argument the client cannot be asked for, and prompts/get still refuses it', { tags: ['schema'] }, async () => {
    const c = await open(folder());
    const loaded = result('CallToolResult', await callTool(c, 'load_skill', { name: 'greeting' }));
    expect(loaded.isError).toBeUndefined();
    expect(loaded.content.map((b: Message) => b.type)).toEqual(['text', 'text']);
    expect(loaded.content[0].text).toContain('- who (required, not given): Whom to greet');
    expect(loaded.content[1].text).toContain('Say hello to {{who}}');
    // server/prompts §Error Handling: a missing required argument is -32602 for the prompt.
    const prompt = await c.request('prompts/get', params({ name: 'greeting' }));
    expect(prompt.error).toMatchObject({ code: -32602, message: expect.stringContaining('"who"') });
    expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', prompt);
  });

  it('tells of a reload that adds a skill', { tags: ['schema'] }, async () => {
    const dir = folder();
    const c = await open(dir);
    if (isModern) {
      c.send({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: modern({ notifications: { toolsListChanged: true } }) });
      await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    } else {
      result('ListToolsResult', await c.request('tools/list', params()));
    }
    mkdirSync(join(dir, 'haiku'));
    writeFileSync(join(dir, 'haiku', 'SKILL.md'), '---\nname: haiku\ndescription: Writes a haiku.\n---\nFive, seven, five.\n');
    const changed = await c.waitFor((m) => m.method === 'notifications/tools/list_changed', 8000);
    expectSchema(revision, 'ToolListChangedNotification', changed);
    const listed = result('ListToolsResult', await c.request('tools/list', params()));
    expect(listed.tools[0].description).toContain('- haiku: Writes a haiku.');
  });
});
