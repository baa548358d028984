/**
 * The discovery index behind OAuth (a real authorization server,
 * oidc-provider): two tokens with different audiences see different
 * indexes, and each sees exactly what a folder without the skills it may
 * not use would publish to anyone, byte for byte: the same index, the same
 * archives (an open skill holding a restricted nested skill is archived
 * without that skill's files). What a caller may not use is 404, the same
 * answer as a name that does not exist.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, serveHttp } from '../../../src/http.js';
import { createServer } from '../../../src/index.js';
import { discoveryRoutes, loadSkillsFolder } from '../../../src/skills.js';
import { HIDDEN_FROM_A, HIDDEN_FROM_B, writeFolder } from '../../transport/http/auth/_folder.js';
import { type Issuer, startIssuer } from '../../transport/http/auth/_issuer.js';
import { fetchBytes, INDEX_PATH } from './_publish.js';

const PREFIX = '/.well-known/agent-skills/';

let issuer: Issuer;
const cleanups: Array<() => unknown> = [];
let full: HttpServer;
let withoutHiddenFromA: HttpServer;
let withoutHiddenFromB: HttpServer;
let tokenA: string;
let tokenB: string;

/** A folder written without `leaveOut`, published through the routes option, behind OAuth when asked. */
async function publish(leaveOut: readonly string[], oauth: boolean): Promise<HttpServer> {
  const folder = writeFolder(leaveOut);
  const skills = await loadSkillsFolder([folder.dir]);
  const server = createServer({ name: 'publish-audience', version: '1.0.0', prompts: skills.prompts, resources: skills.resources, skills: skills.skills });
  const http = await serveHttp(server, {
    port: 0,
    routes: discoveryRoutes(skills),
    ...(oauth ? { oauth: { issuer: issuer.url, scopes: ['skills:read'] } } : {}),
  });
  cleanups.push(
    () => http.close(),
    () => skills.close(),
    () => server.close(),
    () => folder.remove(),
  );
  return http;
}

beforeAll(async () => {
  issuer = await startIssuer();
  full = await publish([], true);
  withoutHiddenFromA = await publish(HIDDEN_FROM_A, false);
  withoutHiddenFromB = await publish(HIDDEN_FROM_B, false);
  tokenA = await issuer.token('team-a', full.url.href, 'skills:read team:a');
  tokenB = await issuer.token('team-b', full.url.href, 'skills:read team:b');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await issuer?.stop();
});

const as = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function names(http: HttpServer, token?: string): Promise<string[]> {
  const { status, bytes } = await fetchBytes(http.url.origin, INDEX_PATH, token === undefined ? {} : as(token));
  expect(status).toBe(200);
  return (JSON.parse(bytes.toString('utf8')) as { skills: Array<{ name: string }> }).skills.map((skill) => skill.name);
}

describe('the discovery index per audience', () => {
  it('asks for a token as /mcp does', async () => {
    const refused = await fetchBytes(full.url.origin, INDEX_PATH);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect((await fetchBytes(full.url.origin, `${PREFIX}public-notes/SKILL.md`)).status).toBe(401);
  });

  it('lists to each token only the skills it may use', async () => {
    expect(await names(full, tokenA)).toEqual(['alpha-playbook', 'outer', 'public-notes', 'shared-style']);
    expect(await names(full, tokenB)).toEqual(['beta-runbook', 'inner', 'outer', 'public-notes', 'shared-style']);
  });

  it('serves each token, byte for byte, what a folder without what it may not use serves anyone', async () => {
    for (const [token, reference] of [
      [tokenA, withoutHiddenFromA],
      [tokenB, withoutHiddenFromB],
    ] as const) {
      const mine = await fetchBytes(full.url.origin, INDEX_PATH, as(token));
      const theirs = await fetchBytes(reference.url.origin, INDEX_PATH);
      expect(mine.bytes.equals(theirs.bytes)).toBe(true);
      // A caller's view is its own: never stored for another.
      expect(mine.headers.get('cache-control')).toBe('private, no-cache');
      expect(mine.headers.get('vary')).toContain('Authorization');
      for (const skill of JSON.parse(mine.bytes.toString('utf8')).skills as Array<{ url: string }>) {
        const [own, reference_] = await Promise.all([
          fetchBytes(full.url.origin, PREFIX + skill.url, as(token)),
          fetchBytes(reference.url.origin, PREFIX + skill.url),
        ]);
        expect(own.status, skill.url).toBe(200);
        expect(own.bytes.equals(reference_.bytes), skill.url).toBe(true);
      }
    }
  });

  it('archives an open skill without the files of a restricted skill nested in it', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'skillport-publish-audience-'));
    try {
      const list = async (token: string): Promise<string[]> => {
        const { bytes } = await fetchBytes(full.url.origin, `${PREFIX}outer.tar.gz`, as(token));
        const file = join(scratch, `outer-${token.length}-${Math.random()}.tar.gz`);
        writeFileSync(file, bytes);
        return execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n').sort();
      };
      expect(await list(tokenA)).toEqual(['SKILL.md', 'parts/notes.md']);
      expect(await list(tokenB)).toEqual(['SKILL.md', 'parts/inner/SKILL.md', 'parts/inner/references/torque.md', 'parts/notes.md']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('answers 404 to what a caller may not use, exactly as to a name that does not exist', async () => {
    const missing = await fetchBytes(full.url.origin, `${PREFIX}no-such-skill/SKILL.md`, as(tokenA));
    expect(missing.status).toBe(404);
    for (const path of ['beta-runbook.tar.gz', 'inner.tar.gz', 'beta-runbook/SKILL.md']) {
      const hidden = await fetchBytes(full.url.origin, PREFIX + path, as(tokenA));
      expect(hidden.status, path).toBe(404);
      expect(hidden.bytes.equals(missing.bytes)).toBe(true);
      expect([...hidden.headers.entries()].filter(([name]) => name !== 'date')).toEqual([...missing.headers.entries()].filter(([name]) => name !== 'date'));
    }
    // And the other way round.
    expect((await fetchBytes(full.url.origin, `${PREFIX}alpha-playbook.tar.gz`, as(tokenB))).status).toBe(404);
    expect((await fetchBytes(full.url.origin, `${PREFIX}inner.tar.gz`, as(tokenB))).status).toBe(200);
  });
});
