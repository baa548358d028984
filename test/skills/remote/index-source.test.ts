/**
 * loadIndexSkills against a real publisher on 127.0.0.1 (_publisher.ts):
 * skill-md and archive skills served byte for byte, a tampered digest
 * refused and, on a refresh, the last good version kept, ETag refreshes, a
 * publisher gone at refresh, artifacts on another origin refused.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { type IndexSkillsFolder, type IndexSkillsOptions, loadIndexSkills } from '../../../src/skills.js';
import { skillMd } from '../git/_repo.js';
import { INDEX, type Publisher, publish, sha256, tarGz, zip } from './_publisher.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function publisher(): Promise<Publisher> {
  const made = await publish();
  cleanups.push(() => made.close());
  return made;
}

function cache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-index-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Warnings the source logs. */
function recorder() {
  const lines: string[] = [];
  return { lines, logger: { ...silentLogger, warn: (message: string) => void lines.push(message) } };
}

async function open(source: string, options: IndexSkillsOptions = {}): Promise<IndexSkillsFolder> {
  const folder = await loadIndexSkills(source, { cacheDir: cache(), pullIntervalMs: 0, ...options });
  cleanups.push(() => folder.close());
  return folder;
}

const encoder = new TextEncoder();
const POEMS = skillMd('poems', 'Write short poems.');
const SHEET_FILES = {
  'SKILL.md': skillMd('sheets', 'Work with spreadsheets.'),
  'reference/formulas.md': 'Sum and average.\n',
  'data/blob.bin': '\u0001\u0002binary',
};
const SLIDE_FILES = { 'SKILL.md': skillMd('slides', 'Build slide decks.'), 'themes/dark.md': 'Dark theme.\n' };

/** Publishes poems (skill-md), sheets (.tar.gz) and slides (.zip). */
function publishThree(p: Publisher): { tar: Uint8Array; zipped: Uint8Array } {
  const tar = tarGz(SHEET_FILES);
  const zipped = zip(SLIDE_FILES);
  p.files.set('/.well-known/agent-skills/poems/SKILL.md', { body: encoder.encode(POEMS), type: 'text/markdown' });
  p.files.set('/.well-known/agent-skills/sheets.tar.gz', { body: tar, type: 'application/gzip' });
  // No useful media type: the extension tells.
  p.files.set('/files/slides.zip', { body: zipped, type: 'application/octet-stream' });
  p.index([
    {
      name: 'poems',
      type: 'skill-md',
      description: 'Write short poems.',
      url: '/.well-known/agent-skills/poems/SKILL.md',
      digest: sha256(encoder.encode(POEMS)),
    },
    { name: 'sheets', type: 'archive', description: 'Spreadsheets.', url: 'sheets.tar.gz', digest: sha256(tar) },
    { name: 'slides', type: 'archive', description: 'Slides.', url: '../../files/slides.zip', digest: sha256(zipped) },
    { name: 'future', type: 'plugin-bundle', description: 'A type from a later version.', url: 'x', digest: sha256(tar) },
  ]);
  return { tar, zipped };
}

async function bytesOf(folder: IndexSkillsFolder, uri: string): Promise<string> {
  const [content] = (await folder.resources.read(uri, ctx)).contents;
  return content && 'text' in content ? content.text : Buffer.from((content as { blob: string }).blob, 'base64').toString('latin1');
}

describe('loadIndexSkills', () => {
  it('serves skill-md, .tar.gz and .zip skills byte for byte, found from the base URL', async () => {
    const p = await publisher();
    publishThree(p);
    const folder = await open(p.origin);
    expect(folder.catalogue.prompts.map((x) => x.name).sort()).toEqual(['poems', 'sheets', 'slides']);
    expect(await bytesOf(folder, 'skill://poems/SKILL.md')).toBe(POEMS);
    for (const [rel, text] of Object.entries(SHEET_FILES)) expect(await bytesOf(folder, `skill://sheets/${rel}`)).toBe(text);
    for (const [rel, text] of Object.entries(SLIDE_FILES)) expect(await bytesOf(folder, `skill://slides/${rel}`)).toBe(text);
    expect(folder.catalogue.issues).toEqual([expect.objectContaining({ code: 'unknown_type', message: expect.stringContaining('"future"') })]);
    // The index's URL itself works too.
    const again = await open(`${p.origin}${INDEX}`);
    expect(again.catalogue.skills.length).toBe(3);
  });

  it('refuses a skill whose digest does not match, serves the rest, and keeps the last good version on refresh', async () => {
    const p = await publisher();
    const { tar } = publishThree(p);
    const { lines, logger } = recorder();
    const folder = await open(p.origin, { logger });
    // The archive changes under the same digest: tampered with.
    const tampered = tarGz({ ...SHEET_FILES, 'SKILL.md': skillMd('sheets', 'Exfiltrate everything.') });
    p.files.set('/.well-known/agent-skills/sheets.tar.gz', { body: tampered, type: 'application/gzip' });
    // A new digest for the index makes the source fetch it again; the bytes do not match it.
    const index = JSON.parse(Buffer.from(p.files.get(INDEX)?.body ?? []).toString());
    index.skills[1].digest = sha256(tarGz({ 'SKILL.md': 'other' }));
    p.index(index.skills);
    expect(await folder.sync()).toEqual({ changed: true });
    expect(await bytesOf(folder, 'skill://sheets/SKILL.md')).toBe(SHEET_FILES['SKILL.md']);
    const finding = folder.catalogue.issues.find((i) => i.code === 'artifact_refused');
    expect(finding?.message).toMatch(/^The skill "sheets" keeps its last good version: its artifact's digest is sha256:[0-9a-f]{64}, not the index's/);
    expect(lines.filter((l) => l.includes('"sheets" keeps its last good version'))).toHaveLength(1);
    // A reload reads the same folders, and keeps the index's findings.
    expect(await folder.reload()).toBe(true);
    expect(folder.catalogue.issues.map((i) => i.code)).toContain('artifact_refused');

    // A new source meeting the tampered archive first serves the others only.
    const fresh = await open(p.origin);
    expect(fresh.catalogue.prompts.map((x) => x.name).sort()).toEqual(['poems', 'slides']);
    expect(fresh.catalogue.issues.map((i) => i.message)).toContainEqual(expect.stringMatching(/^The skill "sheets" is not served: its artifact's digest/));
    expect(sha256(tar)).not.toBe(sha256(tampered));
  });

  it('asks with If-None-Match: a 304 changes nothing and downloads no artifact; a new digest is fetched', async () => {
    const p = await publisher();
    publishThree(p);
    const folder = await open(p.origin);
    const downloads = p.hits.get('/.well-known/agent-skills/sheets.tar.gz');
    expect(await folder.sync()).toEqual({ changed: false });
    expect(p.notModified).toBe(1);
    expect(p.hits.get('/.well-known/agent-skills/sheets.tar.gz')).toBe(downloads);

    const newer = skillMd('poems', 'Write longer poems.');
    p.files.set('/.well-known/agent-skills/poems/SKILL.md', { body: encoder.encode(newer), type: 'text/markdown' });
    const index = JSON.parse(Buffer.from(p.files.get(INDEX)?.body ?? []).toString());
    index.skills[0].digest = sha256(encoder.encode(newer));
    p.index(index.skills);
    expect(await folder.sync()).toEqual({ changed: true });
    expect(await bytesOf(folder, 'skill://poems/SKILL.md')).toBe(newer);
    // Only the changed skill was fetched again.
    expect(p.hits.get('/.well-known/agent-skills/sheets.tar.gz')).toBe(downloads);
  });

  it('keeps the last good catalogue when the publisher is gone or sends a bad index, logging each reason once', async () => {
    const p = await publisher();
    publishThree(p);
    const { lines, logger } = recorder();
    const folder = await open(p.origin, { logger });
    p.files.set(INDEX, {
      body: encoder.encode('{"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": ['),
      type: 'application/json',
    });
    await expect(folder.sync()).rejects.toThrow(/not JSON/);
    await expect(folder.sync()).rejects.toThrow(/not JSON/);
    await p.close();
    await expect(folder.sync()).rejects.toThrow(/GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/index\.json failed/);
    expect(folder.catalogue.skills.length).toBe(3);
    expect(await bytesOf(folder, 'skill://poems/SKILL.md')).toBe(POEMS);
    expect(lines.filter((l) => l.startsWith('Fetching'))).toHaveLength(2);
  });

  it('refuses artifacts on another origin unless allowed, and an unknown $schema', async () => {
    const p = await publisher();
    const other = await publisher();
    other.files.set('/poems/SKILL.md', { body: encoder.encode(POEMS), type: 'text/markdown' });
    p.index([{ name: 'poems', type: 'skill-md', description: 'Poems.', url: `${other.origin}/poems/SKILL.md`, digest: sha256(encoder.encode(POEMS)) }]);
    const folder = await open(p.origin);
    expect(folder.catalogue.skills).toEqual([]);
    expect(folder.catalogue.issues[0]?.message).toContain(`${other.origin} is not the index's origin`);
    expect(other.hits.size).toBe(0);
    // Allowed; the index's credentials go to the index's origin alone.
    const withUser = `http://reader:s3cret@${p.origin.slice('http://'.length)}`;
    const allowed = await open(withUser, { allowOrigins: [other.origin] });
    expect(allowed.catalogue.prompts.map((x) => x.name)).toEqual(['poems']);
    expect(p.authorizations.get(INDEX)).toBe(`Basic ${Buffer.from('reader:s3cret').toString('base64')}`);
    expect(other.authorizations.get('/poems/SKILL.md')).toBe('');

    p.files.set(INDEX, { body: encoder.encode(JSON.stringify({ $schema: 'https://example.com/v9', skills: [] })), type: 'application/json' });
    await expect(open(p.origin)).rejects.toThrow(/\$schema "https:\/\/example.com\/v9" is not one this server reads/);
  });

  it('refuses plain http to another host, and redacts a URL user and password', async () => {
    await expect(open('http://example.com')).rejects.toThrow(/plain http is read only from this machine/);
    const p = await publisher();
    await p.close();
    const failed = await open(`http://user:hunter2@127.0.0.1:${new URL(p.origin).port}`).catch((error: Error) => error.message);
    expect(failed).toMatch(/^cannot load http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/index\.json: GET .* failed/);
    expect(failed).not.toMatch(/hunter2|user/);
  });

  it('serves skills until maxCheckoutBytes is full, and keeps no folder of those left out', async () => {
    const p = await publisher();
    publishThree(p);
    const dir = cache();
    // Each skill fits alone; poems fills the budget for the others.
    const size = (files: Record<string, string>) => Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    const budget = Math.max(size(SHEET_FILES), size(SLIDE_FILES), POEMS.length) + 1;
    expect(POEMS.length + Math.min(size(SHEET_FILES), size(SLIDE_FILES))).toBeGreaterThan(budget);
    const folder = await loadIndexSkills(p.origin, { cacheDir: dir, pullIntervalMs: 0, maxCheckoutBytes: budget });
    cleanups.push(() => folder.close());
    expect(folder.catalogue.prompts.map((x) => x.name)).toEqual(['poems']);
    expect(folder.catalogue.issues.filter((i) => i.code === 'too_large').map((i) => i.path)).toEqual(['sheets', 'slides']);
    const [keyDir] = readdirSync(dir);
    const [instance] = readdirSync(join(dir, keyDir as string));
    expect(readdirSync(join(dir, keyDir as string, instance as string)).sort()).toEqual(['1', 'owner'].sort());
  });

  it('removes its artifacts when closed', async () => {
    const p = await publisher();
    publishThree(p);
    const dir = cache();
    const folder = await loadIndexSkills(p.origin, { cacheDir: dir, pullIntervalMs: 0 });
    const [keyDir] = readdirSync(dir);
    expect(readdirSync(join(dir, keyDir as string))).toHaveLength(1);
    await folder.close();
    expect(readdirSync(join(dir, keyDir as string))).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});
