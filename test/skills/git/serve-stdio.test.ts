/**
 * The built CLI (bin/skillport.js) serving a git source over stdio to the
 * official SDK v1 client, which is told of a pushed commit by
 * notifications/prompts/list_changed and reads the new skill's file.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../../_stdio-client.js';
import { createRepo, skillMd } from './_repo.js';
import { revertAndRead, VERSION_A } from './_revert.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('skillport serve git+file:// over stdio', () => {
  it('serves the head commit and a pushed one, with list_changed, to the SDK v1 client', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'The first skill.') });
    closers.push(() => r.remove());
    const transport = new StdioV1({
      command: process.execPath,
      args: [BIN, 'serve', `git+${r.url}#main`, '--pull-interval', '1', '--cache-dir', r.cache, '--log-level', 'silent'],
      env: r.env,
      stderr: 'ignore',
    });
    const client = new ClientV1({ name: 'git-stdio', version: '1' });
    await client.connect(transport);
    closers.push(() => client.close());
    const seen: string[] = [];
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push('prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push('resources'));
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['alpha']);

    r.push({ 'beta/SKILL.md': skillMd('beta', 'The second skill.'), 'beta/notes.md': 'notes of beta\n' });
    for (let i = 0; i < 300 && !(seen.includes('prompts') && seen.includes('resources')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toContain('prompts');
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['alpha', 'beta']);
    expect((await client.readResource({ uri: 'skill://beta/notes.md' })).contents[0]).toMatchObject({ text: 'notes of beta\n' });
  });

  it('serves a commit seen before again after a force-push revert, and logs no error', async () => {
    const r = createRepo(VERSION_A);
    closers.push(() => r.remove());
    const transport = new StdioV1({
      command: process.execPath,
      args: [BIN, 'serve', `git+${r.url}#main`, '--pull-interval', '1', '--cache-dir', r.cache],
      env: r.env,
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (log += chunk.toString()));
    const client = new ClientV1({ name: 'git-stdio-revert', version: '1' });
    await client.connect(transport);
    closers.push(() => client.close());
    await revertAndRead(r, () => log, client);
  });
});
