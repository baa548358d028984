/**
 * Confinement: nothing outside the served folder is ever read. A unique
 * marker is planted in files outside the folder, reachable through `..`,
 * encoded and absolute paths, backslashes, NUL, symbolic links (to a file,
 * to a folder, to a whole skill) and links swapped in after loading; FIFOs
 * and devices sit inside it. Every prompt, resource, skill, directory and
 * skill tool is then requested over stdio on both eras (and over HTTP), the
 * hostile URIs also as `read_skill_file` skills and paths, and the marker must
 * never appear in any byte the server writes.
 *
 * Hard links: a hard link is a regular file of the folder (the same inode
 * has no "outside"), so skillport serves it like any other file; the test
 * pins that, with its own marker, and RELIABILITY.md explains the choice.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { BIN, HTTP_FIXTURE, HttpChild, httpBuilt, type Message, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const MARKER = `OUTSIDE-${randomUUID()}`;
const HARD_MARKER = `HARDLINK-${randomUUID()}`;
const figures = new Figures();
let root: string;
let served: string;
let outside: string;
const special: string[] = [];

/** URIs that try to leave the folder. */
function hostileUris(): string[] {
  const abs = join(outside, 'secret.md');
  return [
    'skill://good/../../outside/secret.md',
    'skill://good/../../../outside/secret.md',
    'skill://../outside/secret.md',
    'skill://good/%2e%2e/%2e%2e/outside/secret.md',
    'skill://good/%2E%2E%2F%2E%2E%2Foutside%2Fsecret.md',
    'skill://good/..%2f..%2foutside%2fsecret.md',
    `skill://good/${abs}`,
    `skill://good//${abs}`,
    `skill://${abs}`,
    `file://${abs}`,
    'skill://good/..\\..\\outside\\secret.md',
    'skill://good/SKILL.md\u0000../../outside/secret.md',
    'skill://good/link-file.md',
    'skill://good/link-dir/secret.md',
    'skill://linked-skill/SKILL.md',
    'skill://good/fifo',
    'skill://good/device',
    'skill://good/swapped.md',
    'skill://good/swapped-dir/inner.md',
  ];
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-confine-'));
  served = join(root, 'served');
  outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), `---\nname: secret\ndescription: Outside ${MARKER}.\n---\n${MARKER}\n`);
  mkdirSync(join(outside, 'outside-skill'));
  writeFileSync(join(outside, 'outside-skill', 'SKILL.md'), `---\nname: outside-skill\ndescription: ${MARKER}\n---\n${MARKER}\n`);
  writeFileSync(join(outside, 'hard-source.md'), `hard link text ${HARD_MARKER}\n`);
  cpSync(VALID_SKILLS, served, { recursive: true });
  mkdirSync(join(served, 'good'));
  writeFileSync(join(served, 'good', 'SKILL.md'), '---\nname: good\ndescription: A good skill.\n---\nGood. See references/notes.md.\n');
  writeFileSync(join(served, 'good', 'swapped.md'), 'inside text\n');
  mkdirSync(join(served, 'good', 'swapped-dir'));
  writeFileSync(join(served, 'good', 'swapped-dir', 'inner.md'), 'inner text\n');
  symlinkSync(join(outside, 'secret.md'), join(served, 'good', 'link-file.md'));
  symlinkSync(outside, join(served, 'good', 'link-dir'));
  symlinkSync(join(outside, 'outside-skill'), join(served, 'linked-skill'));
  symlinkSync('../../outside/secret.md', join(served, 'good', 'relative-link.md'));
  symlinkSync('SKILL.md', join(served, 'good', 'inside-link.md'));
  mkdirSync(join(served, 'prompts'), { recursive: true });
  symlinkSync(join(outside, 'secret.md'), join(served, 'prompts', 'leak.md'));
  linkSync(join(outside, 'hard-source.md'), join(served, 'good', 'hard.md'));
  if (spawnSync('mkfifo', [join(served, 'good', 'fifo')]).status === 0) special.push('FIFO');
  // Creating a device node needs privileges a container may not grant.
  if (spawnSync('mknod', [join(served, 'good', 'device'), 'c', '1', '3']).status === 0) special.push('character device (mknod c 1 3)');
  else {
    symlinkSync('/dev/zero', join(served, 'good', 'device'));
    special.push('symbolic link to /dev/zero (mknod not permitted)');
  }
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  writeSection(
    'confinement',
    `### Confinement\n\nA unique marker planted outside the served folder; ${hostileUris().length} hostile resource URIs (and ${hostileFiles().length} read_skill_file calls made of them), symbolic links to a file, a folder and a whole skill (absolute and relative), a link in \`prompts/\`, links swapped in after loading, and ${special.join(', ')} inside it.\n\n${figures.table()}`,
  );
});

/**
 * The hostile URIs as `read_skill_file` arguments (the first segment as the
 * skill, the rest as the path, also percent-decoded), and paths that only a
 * tool takes: absolute, `..` alone, a skill name that is a path.
 */
function hostileFiles(): Array<{ skill: string; path: string }> {
  const abs = join(outside, 'secret.md');
  const pairs = [
    { skill: 'good', path: abs },
    { skill: 'good', path: `/${abs}` },
    { skill: 'good', path: '..' },
    { skill: 'good', path: '../outside/secret.md' },
    { skill: 'good', path: './../../outside/secret.md' },
    { skill: 'good', path: 'SKILL.md/../../../outside/secret.md' },
    { skill: 'good', path: `file://${abs}` },
    { skill: 'good', path: 'relative-link.md' },
    { skill: '..', path: 'outside/secret.md' },
    { skill: '../outside', path: 'secret.md' },
    { skill: 'outside-skill', path: 'SKILL.md' },
    { skill: 'secret', path: 'SKILL.md' },
    { skill: abs, path: 'SKILL.md' },
  ];
  for (const uri of hostileUris()) {
    if (!uri.startsWith('skill://')) continue;
    const rest = uri.slice('skill://'.length);
    const at = rest.indexOf('/');
    const [skill, path] = at < 0 ? [rest, ''] : [rest.slice(0, at), rest.slice(at + 1)];
    pairs.push({ skill, path });
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {}
    if (decoded !== path) pairs.push({ skill, path: decoded });
  }
  return pairs;
}

/** Every request a client can make against the folder, with the hostile URIs. */
async function everything(
  call: (method: string, params: Message) => Promise<Message>,
): Promise<{ replies: Message[]; refused: Message[]; refusedTools: Message[] }> {
  const replies: Message[] = [];
  const list = async (method: string, key: string, params: Message = {}): Promise<Message[]> => {
    const items: Message[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const reply = await call(method, { ...params, ...(cursor ? { cursor } : {}) });
      replies.push(reply);
      items.push(...((reply.result?.[key] as Message[] | undefined) ?? []));
      cursor = reply.result?.nextCursor;
      if (!cursor) break;
    }
    return items;
  };
  for (const prompt of await list('prompts/list', 'prompts')) {
    const args = Object.fromEntries(((prompt.arguments as Message[] | undefined) ?? []).map((a) => [a.name, 'x']));
    replies.push(await call('prompts/get', { name: prompt.name, arguments: args }));
  }
  for (const resource of await list('resources/list', 'resources')) {
    replies.push(await call('resources/read', { uri: resource.uri }));
    // The same file through the tool: its skill and path as load_skill names them.
    const [, skill, path] = /^skill:\/\/([^/]+)\/(.+)$/.exec(String(resource.uri)) ?? [];
    if (skill !== undefined && path !== undefined) {
      replies.push(await call('tools/call', { name: 'read_skill_file', arguments: { skill: decodeURIComponent(skill), path: decodeURIComponent(path) } }));
    }
  }
  const tools = await list('tools/list', 'tools');
  for (const prompt of await list('prompts/list', 'prompts')) {
    const args = Object.fromEntries(((prompt.arguments as Message[] | undefined) ?? []).map((a) => [a.name, 'x']));
    replies.push(await call('tools/call', { name: 'load_skill', arguments: { name: prompt.name, arguments: args } }));
  }
  for (const query of ['secret', 'outside', 'good', '..']) replies.push(await call('tools/call', { name: 'load_skill', arguments: { query } }));
  for (const skill of await list('skills/list', 'skills')) {
    replies.push(await call('skills/get', { uri: skill.uri }));
    replies.push(await call('resources/directory/read', { uri: String(skill.uri).replace(/SKILL\.md$/, '') }));
  }
  for (const value of ['', 'good/', 'link', '../', 'linked']) {
    replies.push(
      await call('completion/complete', {
        ref: { type: 'ref/resource', uri: 'skill://{skill}/{+path}' },
        argument: { name: 'path', value },
        context: { arguments: { skill: 'good' } },
      }),
    );
    replies.push(await call('completion/complete', { ref: { type: 'ref/resource', uri: 'skill://{skill}/{+path}' }, argument: { name: 'skill', value } }));
  }
  const refused: Message[] = [];
  for (const uri of hostileUris()) {
    const reply = await call('resources/read', { uri });
    replies.push(reply);
    refused.push(reply);
    replies.push(await call('resources/directory/read', { uri }));
    replies.push(await call('skills/get', { uri }));
  }
  const refusedTools: Message[] = [];
  for (const file of hostileFiles()) {
    const reply = await call('tools/call', { name: 'read_skill_file', arguments: file });
    replies.push(reply);
    refusedTools.push(reply);
  }
  expect(tools.map((t) => t.name)).toEqual(['load_skill', 'read_skill_file']);
  return { replies, refused, refusedTools };
}

function swapAfterLoad(): void {
  // Loaded as a file and a folder; now links to the outside take their place.
  unlinkSync(join(served, 'good', 'swapped.md'));
  symlinkSync(join(outside, 'secret.md'), join(served, 'good', 'swapped.md'));
  rmSync(join(served, 'good', 'swapped-dir'), { recursive: true });
  symlinkSync(outside, join(served, 'good', 'swapped-dir'));
}

function restoreSwapped(): void {
  unlinkSync(join(served, 'good', 'swapped.md'));
  writeFileSync(join(served, 'good', 'swapped.md'), 'inside text\n');
  unlinkSync(join(served, 'good', 'swapped-dir'));
  mkdirSync(join(served, 'good', 'swapped-dir'));
  writeFileSync(join(served, 'good', 'swapped-dir', 'inner.md'), 'inner text\n');
}

describe('confinement', () => {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    it(`stdio, ${era}: refuses every way out with the revision's not-found error and never returns a byte from outside`, async () => {
      const client = RawStdioClient.spawn(BIN, ['serve', served, '--log-level', 'warn']);
      let n = 0;
      try {
        if (era === '2025-11-25')
          await client.request('initialize', { protocolVersion: era, capabilities: {}, clientInfo: { name: 'c', version: '1' } }, 'init');
        const call = (method: string, params: Message) => client.request(method, era === '2026-07-28' ? modern(params) : params, `c-${++n}`);
        // Loaded: the hard link, the inside link and the leak attempts are decided now.
        const inventory = await client.request('resources/list', era === '2026-07-28' ? modern() : {}, 'inventory');
        const uris = (inventory.result.resources as Message[]).map((r) => r.uri);
        expect(uris).toContain('skill://good/hard.md');
        expect(uris).toContain('skill://good/inside-link.md');
        expect(uris.filter((u: string) => /link-file|link-dir|relative-link|linked-skill|fifo|device|leak/.test(u))).toEqual([]);
        swapAfterLoad();
        const { replies, refused, refusedTools } = await everything(call);
        const wire = client.received.map((m) => JSON.stringify(m)).join('\n');
        expect(wire.includes(MARKER), 'the outside marker reached the client').toBe(false);
        const notFound = era === '2026-07-28' ? -32602 : -32002;
        for (const reply of refused) {
          expect(reply.result, JSON.stringify(reply)).toBeUndefined();
          expect([notFound, -32602]).toContain(reply.error.code);
        }
        // read_skill_file: a tool's failure (server/tools §Error Handling), for every way out.
        for (const reply of refusedTools) expect(reply.result?.isError, JSON.stringify(reply)).toBe(true);
        expect(wire).toContain(HARD_MARKER);
        expect(client.garbage).toEqual([]);
        figures.add(`stdio ${era}: requests made (every prompt, resource, skill, directory, completion, skill tool, hostile URI)`, replies.length);
        figures.add(`stdio ${era}: hostile URIs refused`, `${refused.length} of ${hostileUris().length}, code ${notFound}`);
        figures.add(`stdio ${era}: hostile read_skill_file calls refused`, `${refusedTools.length} of ${hostileFiles().length}, isError results`);
      } finally {
        restoreSwapped();
        await client.close();
      }
      expect(client.stderr).toMatch(/outside the served folder/);
      expect(client.stderr.includes(MARKER)).toBe(false);
    }, 60_000);
  }

  it.skipIf(!httpBuilt())(
    'HTTP, 2026-07-28: the same requests, the same refusals, no outside byte',
    async () => {
      const server = new HttpChild(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir: served }) });
      try {
        const url = await server.url;
        swapAfterLoad();
        const bodies: string[] = [];
        let n = 0;
        const call = async (method: string, params: Message): Promise<Message> => {
          const body = { jsonrpc: '2.0', id: ++n, method, params: modern(params) };
          const answer = await httpSend(url, { headers: modernHeaders(body, url), body: JSON.stringify(body) });
          bodies.push(answer.body);
          return JSON.parse(answer.body) as Message;
        };
        const { replies, refused, refusedTools } = await everything(call);
        expect(bodies.join('\n').includes(MARKER)).toBe(false);
        for (const reply of refused) expect(reply.error?.code).toBe(-32602);
        for (const reply of refusedTools) expect(reply.result?.isError).toBe(true);
        figures.add('HTTP 2026-07-28: requests made', replies.length);
      } finally {
        restoreSwapped();
        await server.stop();
      }
      expect(server.stderr.includes(MARKER)).toBe(false);
    },
    60_000,
  );
});
