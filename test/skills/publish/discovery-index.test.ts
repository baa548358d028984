/**
 * `skillport serve --http` publishing the Agent Skills Discovery v0.2.0
 * index, over real processes and HTTP on 127.0.0.1: the index valid against
 * the schema of its field tables, each digest the SHA-256 of the bytes at
 * its url, archives that unpack (system tar) to the skill folder byte for
 * byte, two replicas byte-identical, ETag and 304, HEAD, 404 for unknown
 * names and for every way out of the folder, the bearer token, reloads, and
 * `--no-index`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../_http-client.js';
import { runCli } from '../../cli/_run.js';
import { FILES, fetchBytes, filesUnder, INDEX_PATH, indexValidator, type Running, rawGet, startServe, writeSkills } from './_publish.js';

interface Entry {
  name: string;
  type: 'skill-md' | 'archive';
  description: string;
  url: string;
  digest: string;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let folder: { dir: string; remove(): void };
let first: Running;
let second: Running;
const scratch = mkdtempSync(join(tmpdir(), 'skillport-publish-out-'));

beforeAll(async () => {
  folder = writeSkills();
  [first, second] = await Promise.all([startServe([folder.dir, '--http', '127.0.0.1:0']), startServe([folder.dir, '--http', '127.0.0.1:0'])]);
});
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  folder?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

async function indexOf(origin: string): Promise<{ bytes: Buffer; entries: Entry[]; headers: Headers }> {
  const { status, bytes, headers } = await fetchBytes(origin, INDEX_PATH);
  expect(status).toBe(200);
  return { bytes, headers, entries: (JSON.parse(bytes.toString('utf8')) as { skills: Entry[] }).skills };
}

/** Unpacks a .tar.gz with the system's tar into a fresh folder. */
function unpack(bytes: Uint8Array, name: string): string {
  const at = join(scratch, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(`${at}.tar.gz`, bytes);
  execFileSync('tar', ['-xzf', `${at}.tar.gz`, '-C', at]);
  return at;
}

describe('the index', () => {
  it('is a v0.2.0 index valid against the schema of the RFC’s field tables, as application/json', async () => {
    const { bytes, headers } = await indexOf(first.origin);
    expect(headers.get('content-type')).toBe('application/json');
    const validate = indexValidator();
    const index = JSON.parse(bytes.toString('utf8'));
    expect(validate(index), JSON.stringify(validate.errors)).toBe(true);
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
  });

  it('lists a lone SKILL.md as skill-md and a skill with more files as an archive, relative to the index', async () => {
    const { entries } = await indexOf(first.origin);
    expect(entries.map(({ name, type, url }) => ({ name, type, url }))).toEqual([
      { name: 'field-kit', type: 'archive', url: 'field-kit.tar.gz' },
      { name: 'long-winded', type: 'skill-md', url: 'long-winded/SKILL.md' },
      { name: 'plain-notes', type: 'skill-md', url: 'plain-notes/SKILL.md' },
    ]);
  });

  it('leaves out a name the Agent Skills rule refuses and cuts a description past 1,024 characters, saying both', async () => {
    const { entries } = await indexOf(first.origin);
    expect(entries.some((entry) => entry.name.toLowerCase().includes('bad'))).toBe(false);
    const cut = entries.find((entry) => entry.name === 'long-winded') as Entry;
    expect(cut.description.length).toBeLessThanOrEqual(1024);
    expect(cut.description.endsWith('…')).toBe(true);
    expect(cut.description.slice(0, 200)).toBe('Explains at length. '.repeat(10));
    await eventually(() => first.stderr().includes('index_invalid_name') && first.stderr().includes('index_description_cut'));
  });
});

describe('the artifacts', () => {
  it('each digest is the SHA-256 of the bytes at its url, served with its media type', async () => {
    const indexUrl = new URL(INDEX_PATH, first.origin);
    for (const entry of (await indexOf(first.origin)).entries) {
      const { status, headers, bytes } = await fetchBytes(first.origin, new URL(entry.url, indexUrl).pathname);
      expect(status, entry.name).toBe(200);
      expect(sha256(bytes), entry.name).toBe(entry.digest);
      expect(headers.get('content-type')).toBe(entry.type === 'archive' ? 'application/gzip' : 'text/markdown; charset=utf-8');
      if (entry.type === 'skill-md') expect(bytes.equals(Buffer.from(FILES[`${entry.name}/SKILL.md`] as string))).toBe(true);
    }
  });

  it('an archive unpacks with the system tar to the skill folder, byte for byte, files at its root, the script executable', async () => {
    const { bytes } = await fetchBytes(first.origin, '/.well-known/agent-skills/field-kit.tar.gz');
    const at = unpack(bytes, 'field-kit');
    const served = filesUnder(join(folder.dir, 'field-kit'));
    const unpacked = filesUnder(at);
    expect([...unpacked.keys()].sort()).toEqual([...served.keys()].sort());
    for (const [path, content] of served) expect(unpacked.get(path)?.equals(content), path).toBe(true);
    expect(statSync(join(at, 'scripts/pack.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(at, 'references/lists/kit.md')).mode & 0o777).toBe(0o644);
    // Each entry at the root, mtime 0, owner 0/0 (tar's verbose listing).
    const listing = execFileSync('tar', ['-tvzf', `${at}.tar.gz`], { encoding: 'utf8' });
    expect(listing.trim().split('\n')).toHaveLength(served.size);
    for (const line of listing.trim().split('\n')) expect(line).toMatch(/^-rw[-x]r-[-x]r-[-x] 0\/0 .* 1970-01-01 00:00 (SKILL\.md|references|scripts|assets)/);
  });

  it('two replicas over one folder serve byte-identical indexes and archives', async () => {
    const [a, b] = await Promise.all([indexOf(first.origin), indexOf(second.origin)]);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    for (const entry of a.entries) {
      const path = new URL(entry.url, new URL(INDEX_PATH, first.origin)).pathname;
      const [one, other] = await Promise.all([fetchBytes(first.origin, path), fetchBytes(second.origin, path)]);
      expect(one.bytes.equals(other.bytes), entry.name).toBe(true);
      expect(one.headers.get('etag')).toBe(other.headers.get('etag'));
    }
  });
});

describe('HTTP', () => {
  const paths = [INDEX_PATH, '/.well-known/agent-skills/plain-notes/SKILL.md', '/.well-known/agent-skills/field-kit.tar.gz'];

  it('gives a strong ETag and answers If-None-Match with 304 and no body, on the index and every artifact', async () => {
    for (const path of paths) {
      const got = await fetchBytes(first.origin, path);
      const etag = got.headers.get('etag') as string;
      expect(etag, path).toMatch(/^"[0-9a-f]{64}"$/);
      expect(got.headers.get('cache-control')).toBe('no-cache');
      const again = await fetchBytes(first.origin, path, { headers: { 'If-None-Match': `"other", ${etag}` } });
      expect(again.status, path).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
      expect((await fetchBytes(first.origin, path, { headers: { 'If-None-Match': `W/${etag}` } })).status).toBe(304);
      expect((await fetchBytes(first.origin, path, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    }
  });

  it('answers HEAD as GET without the body', async () => {
    for (const path of paths) {
      const get = await fetchBytes(first.origin, path);
      const head = await fetchBytes(first.origin, path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      expect(head.headers.get('content-length')).toBe(String(get.bytes.length));
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    }
  });

  it('is 404 for unknown names, for urls the index does not give, and for every way out of the folder', async () => {
    const refused = [
      '/.well-known/agent-skills/no-such-skill/SKILL.md',
      '/.well-known/agent-skills/no-such-skill.tar.gz',
      '/.well-known/agent-skills/Bad_Name/SKILL.md',
      '/.well-known/agent-skills/field-kit/SKILL.md',
      '/.well-known/agent-skills/field-kit/references/lists/kit.md',
      '/.well-known/agent-skills/plain-notes.tar.gz',
      '/.well-known/agent-skills/',
      '/.well-known/agent-skills/../../../etc/passwd',
      '/.well-known/agent-skills/%2e%2e/%2e%2e/etc/passwd',
      '/.well-known/agent-skills/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/.well-known/agent-skills/plain-notes%2fSKILL.md',
      '/.well-known/agent-skills/plain-notes%2FSKILL.md',
      '/.well-known/agent-skills/plain-notes/..%2f..%2fSKILL.md',
      '/.well-known/agent-skills/plain-notes/SKILL.md%00',
      '/.well-known/agent-skills//plain-notes/SKILL.md',
      '/.well-known/agent-skills/field-kit/../../../field-kit/SKILL.md',
      '/.well-known/agent-skills/%2e%2e/%2e%2e/%2e%2e/plain-notes/SKILL.md',
      `/.well-known/agent-skills/${'..%2f'.repeat(8)}etc/passwd`,
    ];
    for (const path of refused) {
      const answer = await rawGet(first.origin, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('Date every entry');
    }
  });

  it('answers other methods 405 with Allow', async () => {
    const answer = await fetchBytes(first.origin, INDEX_PATH, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('serve --http and the index', () => {
  it('sits behind --auth-token as /mcp does', async () => {
    const served = await startServe([folder.dir, '--http', '127.0.0.1:0', '--auth-token', 'index-token']);
    try {
      const refused = await fetchBytes(served.origin, INDEX_PATH);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('Bearer');
      expect((await fetchBytes(served.origin, '/.well-known/agent-skills/field-kit.tar.gz')).status).toBe(401);
      const admitted = await fetchBytes(served.origin, INDEX_PATH, { headers: { Authorization: 'Bearer index-token' } });
      expect(admitted.status).toBe(200);
      expect(admitted.bytes.equals((await indexOf(first.origin)).bytes)).toBe(true);
    } finally {
      await served.stop();
    }
  });

  it('follows reloads: a skill added or changed under --watch is in the next index, with its new digest', async () => {
    const live = writeSkills();
    const served = await startServe([live.dir, '--http', '127.0.0.1:0', '--watch']);
    try {
      const before = await indexOf(served.origin);
      const notes = before.entries.find((entry) => entry.name === 'plain-notes') as Entry;
      mkdirSync(join(live.dir, 'late-comer'));
      writeFileSync(join(live.dir, 'late-comer/SKILL.md'), '---\nname: late-comer\ndescription: Arrives after the server started.\n---\nHello.\n');
      writeFileSync(join(live.dir, 'plain-notes/SKILL.md'), `${FILES['plain-notes/SKILL.md'] as string}Sign every entry too.\n`);
      await eventually(async () => {
        const names = (await indexOf(served.origin)).entries.map((entry) => entry.name);
        return names.includes('late-comer');
      }, 10_000);
      const digestNow = async () => ((await indexOf(served.origin)).entries.find((entry) => entry.name === 'plain-notes') as Entry).digest;
      await eventually(async () => (await digestNow()) !== notes.digest, 10_000);
      const now = await fetchBytes(served.origin, '/.well-known/agent-skills/plain-notes/SKILL.md');
      expect(now.bytes.toString('utf8')).toContain('Sign every entry too.');
      expect(sha256(now.bytes)).toBe(await digestNow());
    } finally {
      await served.stop();
      live.remove();
    }
  });

  it('--no-index serves none of it; --help says so', async () => {
    const served = await startServe([folder.dir, '--http', '127.0.0.1:0', '--no-index']);
    try {
      expect((await fetchBytes(served.origin, INDEX_PATH)).status).toBe(404);
      expect((await fetchBytes(served.origin, '/.well-known/agent-skills/plain-notes/SKILL.md')).status).toBe(404);
    } finally {
      await served.stop();
    }
    expect((await runCli('serve', '--help')).stdout).toContain('--no-index');
    const stdio = await runCli('serve', folder.dir, '--no-index');
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('--no-index applies only with --http');
  });
});
