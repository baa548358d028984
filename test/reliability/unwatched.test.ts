/**
 * A folder served without --watch still changes when a request finds a file
 * changed or gone (the catalogue is reloaded so text and arguments come from
 * one version). Issue: a deleted skill then answered "Unknown prompt" on get
 * but stayed in prompts/list and skills/list forever, because the server kept
 * its cached lists. Now the lists follow, and sessions are told.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { BIN, VALID_SKILLS } from './_harness.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-unwatched-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('serve without --watch', () => {
  it('drops a deleted skill from every list once a request finds it gone, and tells the session', async () => {
    const dir = join(root, 'skills');
    cpSync(VALID_SKILLS, dir, { recursive: true });
    const server = RawStdioClient.spawn(BIN, ['serve', dir]);
    try {
      const init = await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, 1);
      expect(init.result.capabilities.prompts).toEqual({ listChanged: true });
      server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const names = async (id: number) => ((await server.request('prompts/list', {}, id)).result.prompts as Array<{ name: string }>).map((p) => p.name);
      expect(await names(2)).toContain('greeting');
      rmSync(join(dir, 'greeting'), { recursive: true });
      const get = await server.request('prompts/get', { name: 'greeting', arguments: { who: 'x' } }, 3);
      expect(get.error).toMatchObject({ code: -32602, message: 'Unknown prompt: "greeting"' });
      await server.waitFor((m) => m.method === 'notifications/prompts/list_changed');
      expect(await names(4)).not.toContain('greeting');
      const skills = await server.request('skills/list', modern(), 5);
      expect(skills.result.skills.map((s: { uri: string }) => s.uri)).not.toContain('skill://greeting/SKILL.md');
      const resources = await server.request('resources/list', modern(), 6);
      expect(resources.result.resources.map((r: { uri: string }) => r.uri)).not.toContain('skill://greeting/SKILL.md');
    } finally {
      await server.close();
    }
  });
});
