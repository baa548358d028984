/**
 * `discoveryRoutes(folder)` as a library user mounts it on serveHttp: the
 * findings told through `onIssue` once each, a file changed after the
 * catalogue read it (no watching) never served under the old digest (the
 * folder reloads and the request is answered from the new catalogue), the
 * archive cache bounded without changing a byte, and bad options refused.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../src/http.js';
import { createServer } from '../../../src/index.js';
import { type DiscoveryOptions, discoveryRoutes, type Issue, loadSkillsFolder } from '../../../src/skills.js';
import { FILES, fetchBytes, INDEX_PATH, writeSkills } from './_publish.js';

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function start(options: DiscoveryOptions = {}) {
  const folder = writeSkills();
  const skills = await loadSkillsFolder([folder.dir]);
  const server = createServer({ name: 'publish-library', version: '1.0.0', prompts: skills.prompts, resources: skills.resources, skills: skills.skills });
  const http = await serveHttp(server, { port: 0, routes: discoveryRoutes(skills, options) });
  closers.push(
    folder.remove,
    () => skills.close(),
    () => server.close(),
    () => http.close(),
  );
  return { dir: folder.dir, origin: http.url.origin };
}

async function entries(origin: string): Promise<Array<{ name: string; url: string; digest: string }>> {
  return JSON.parse((await fetchBytes(origin, INDEX_PATH)).bytes.toString('utf8')).skills;
}

describe('discoveryRoutes', () => {
  it('tells each finding once through onIssue, however often the index is asked for', async () => {
    const issues: Issue[] = [];
    const { origin } = await start({ onIssue: (issue) => issues.push(issue) });
    for (let i = 0; i < 3; i++) expect((await fetchBytes(origin, INDEX_PATH)).status).toBe(200);
    expect(issues.map((issue) => [issue.code, issue.path]).sort()).toEqual([
      ['index_description_cut', 'long-winded/SKILL.md'],
      ['index_invalid_name', 'Bad_Name/SKILL.md'],
    ]);
  });

  it('never serves a changed file under its old digest: the folder reloads and the new bytes go with the new index', async () => {
    const { dir, origin } = await start();
    const before = (await entries(origin)).find((entry) => entry.name === 'plain-notes');
    // The same size, so only the digest tells (a size that differs is refused before that).
    const changed = (FILES['plain-notes/SKILL.md'] as string).replace('Date every entry.', 'Date EVERY entry.');
    expect(changed).not.toBe(FILES['plain-notes/SKILL.md']);
    writeFileSync(join(dir, 'plain-notes/SKILL.md'), changed);
    const got = await fetchBytes(origin, '/.well-known/agent-skills/plain-notes/SKILL.md');
    expect(got.status).toBe(200);
    expect(got.bytes.toString('utf8')).toBe(changed);
    const after = (await entries(origin)).find((entry) => entry.name === 'plain-notes');
    expect(after?.digest).toBe(sha256(got.bytes));
    expect(after?.digest).not.toBe(before?.digest);
  });

  it('an archive made again after a file in it changed is never served under the old digest either', async () => {
    // No cache: the archive is made again for the request, from the file as it is now.
    const { dir, origin } = await start({ maxCachedBytes: 0 });
    const kit = (await entries(origin)).find((entry) => entry.name === 'field-kit');
    writeFileSync(join(dir, 'field-kit/references/lists/kit.md'), '# Kit\n\n- rope\n');
    const archive = await fetchBytes(origin, '/.well-known/agent-skills/field-kit.tar.gz');
    expect(archive.status).toBe(200);
    const kitNow = (await entries(origin)).find((entry) => entry.name === 'field-kit');
    expect(sha256(archive.bytes)).toBe(kitNow?.digest);
    expect(kitNow?.digest).not.toBe(kit?.digest);
  });

  it('makes an archive again, byte for byte, when the cache has no room for it', async () => {
    const { origin } = await start({ maxCachedBytes: 0 });
    const kit = (await entries(origin)).find((entry) => entry.name === 'field-kit');
    for (let i = 0; i < 2; i++) expect(sha256((await fetchBytes(origin, '/.well-known/agent-skills/field-kit.tar.gz')).bytes)).toBe(kit?.digest);
  });

  it('leaves out a skill whose files pass maxArchiveBytes, and says so', async () => {
    const issues: Issue[] = [];
    const { origin } = await start({ maxArchiveBytes: 100, onIssue: (issue) => issues.push(issue) });
    expect((await entries(origin)).map((entry) => entry.name)).toEqual(['long-winded', 'plain-notes']);
    expect(issues.map((issue) => issue.code)).toContain('index_archive_too_large');
    expect((await fetchBytes(origin, '/.well-known/agent-skills/field-kit.tar.gz')).status).toBe(404);
  });

  it('refuses limits that are not non-negative integers', () => {
    const folder = { catalogue: undefined as never };
    expect(() => discoveryRoutes(folder, { maxArchiveBytes: -1 })).toThrow(TypeError);
    expect(() => discoveryRoutes(folder, { maxCachedBytes: 1.5 })).toThrow(TypeError);
  });
});
