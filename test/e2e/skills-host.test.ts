/**
 * What a Skills-extension host sees of a folder shaped like the public skill
 * collections (a repository with skills under `skills/`, BOMs, CRLF, Latin-1
 * text, binaries, an over-long description, non-string metadata): the SDK v2
 * `SkillsClient` lists it and verifies every file, size and digest, as a host does.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { BIN, RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let root: string;
/** Every file written, by its path in the folder. */
const written = new Map<string, Buffer>();

function put(rel: string, content: string | Buffer): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), bytes);
  written.set(rel, bytes);
}

const skillMd = (name: string, description: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nBody of ${name}.\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-host-'));
  // A repository root: a README, docs, and skills one level down, as the public collections are laid out.
  put('README.md', '# A collection\n');
  put(
    'skills/xml-schemas/SKILL.md',
    Buffer.concat([BOM, Buffer.from(skillMd('xml-schemas', 'Validates documents against XML schemas.').replaceAll('\n', '\r\n'))]),
  );
  put(
    'skills/xml-schemas/schemas/base.xsd',
    Buffer.concat([BOM, Buffer.from('<?xml version="1.0"?>\r\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>\r\n')]),
  );
  put('skills/xml-schemas/reference/rfc.txt', Buffer.concat([BOM, Buffer.from('Network Working Group\r\nRequest for Comments\r\n')]));
  put('skills/xml-schemas/reference/latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1: not UTF-8
  put('skills/xml-schemas/assets/pixel.bin', Buffer.from([0x00, 0x01, 0x02, 0xff]));
  put('skills/napkin/SKILL.md', skillMd('napkin', 'Sketches ideas on a napkin.'));
  put('skills/too-wordy/SKILL.md', skillMd('too-wordy', `Explains at length. ${'More words here. '.repeat(62)}`));
  put('skills/odd-metadata/SKILL.md', skillMd('odd-metadata', 'Has metadata that is not all strings.', 'metadata:\n  version: 2\n  author: someone\n'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function connect(): Promise<{ client: ClientV2; skills: SkillsClient }> {
  // A subclass, so the v2 client speaks 2026-07-28 in place instead of probing with a second process.
  class InPlace extends StdioV2 {}
  const client = new ClientV2({ name: 'host', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new InPlace({ command: process.execPath, args: [BIN, 'serve', root], stderr: 'ignore' }));
  return { client, skills: new SkillsClient(client, { parseFrontmatter: (text) => parseYaml(text) as Record<string, unknown> }) };
}

describe('a collection as a Skills-extension host sees it', () => {
  it('lists every skill the extension can carry and verifies every file byte for byte', async () => {
    const { client, skills } = await connect();
    try {
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.uri).sort()).toEqual(['skill://napkin/SKILL.md', 'skill://xml-schemas/SKILL.md']);
      let verified = 0;
      for (const skill of listing.skills) {
        const name = skill.frontmatter.name as string;
        for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
          const bytes = written.get(`skills/${name}/${file.uri.slice(`skill://${name}/`.length)}`) as Buffer;
          expect(file).toEqual({ uri: file.uri, size: bytes.length, digest: sha256(bytes) });
          const read = await skills.read(skill, file.uri);
          expect(read.verified, file.uri).toBe(true);
          expect(Buffer.from(read.bytes)).toEqual(bytes);
          verified++;
        }
      }
      expect(verified).toBe(6);
    } finally {
      await client.close();
    }
  });

  it('still serves the skills it leaves out of the extension as prompts and resources', async () => {
    const { client, skills } = await connect();
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(['napkin', 'odd-metadata', 'too-wordy', 'xml-schemas']);
      const read = await client.readResource({ uri: 'skill://too-wordy/SKILL.md' });
      expect((read.contents[0] as { text: string }).text).toBe(readFileSync(join(root, 'skills/too-wordy/SKILL.md'), 'utf8'));
      await expect(skills.get('skill://too-wordy/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('says once at start which skills are left out of the extension and why, and check names them', async () => {
    const raw = RawStdioClient.spawn(BIN, ['serve', root]);
    try {
      await raw.request('skills/list', modern());
      // One line per skill, the finding about the key at fault, which says what it costs.
      const lines = raw.stderr.split('\n').filter((line) => line.includes('left out of the Skills extension'));
      expect(lines).toHaveLength(2);
      expect(lines.find((l) => l.includes('skills/too-wordy/SKILL.md'))).toMatch(
        /:3: .*The description has 1073 characters, more than 1024.*\(description_too_long\)/,
      );
      expect(lines.find((l) => l.includes('skills/odd-metadata/SKILL.md'))).toMatch(/:4: .*"metadata" must map strings to strings.*\(invalid_metadata\)/);
    } finally {
      await raw.close();
    }
    const lenient = spawnSync(process.execPath, [BIN, 'check', root], { encoding: 'utf8' });
    expect(lenient.status).toBe(0);
    expect(lenient.stdout).toMatch(/too-wordy\/SKILL\.md:3: warning: The description has .*left out of the Skills extension/);
    const strict = spawnSync(process.execPath, [BIN, 'check', root, '--strict'], { encoding: 'utf8' });
    expect(strict.status).toBe(1);
  });
});
