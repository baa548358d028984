/**
 * The CLI with a discovery index URL as its source (list, get, complete,
 * check) and with a plugin marketplace folder, in-process through `run`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tree } from '../../_tree.js';
import { runCli } from '../../cli/_run.js';
import { skillMd } from '../git/_repo.js';
import { publish, sha256, tarGz } from './_publisher.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const encoder = new TextEncoder();
const POEMS = `---\nname: poems\ndescription: Write short poems.\narguments:\n  - name: form\n    values: [haiku, sonnet]\n---\n\nWrite a {{form}}.\n`;

async function published() {
  const p = await publish();
  cleanups.push(() => p.close());
  const archive = tarGz({ 'SKILL.md': skillMd('sheets', 'Work with spreadsheets.'), 'notes.md': 'n' });
  p.files.set('/poems.md', { body: encoder.encode(POEMS), type: 'text/markdown' });
  p.files.set('/sheets.tar.gz', { body: archive, type: 'application/gzip' });
  p.index([
    { name: 'poems', type: 'skill-md', description: 'Poems.', url: '/poems.md', digest: sha256(encoder.encode(POEMS)) },
    { name: 'sheets', type: 'archive', description: 'Sheets.', url: '/sheets.tar.gz', digest: sha256(archive) },
  ]);
  const cache = mkdtempSync(join(tmpdir(), 'skillport-cli-index-'));
  cleanups.push(() => rmSync(cache, { recursive: true, force: true }));
  return { p, cache };
}

describe('the CLI with an index URL', () => {
  it('lists, gets, completes and checks the skills of an index', async () => {
    const { p, cache } = await published();
    const listed = await runCli('list', p.origin, '--json', '--cache-dir', cache);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { prompts: Array<{ name: string }> }).prompts.map((x) => x.name)).toEqual(['poems', 'sheets']);
    const got = await runCli('get', 'poems', '--dir', p.origin, '--arg', 'form=haiku', '--cache-dir', cache);
    expect(got.stdout).toContain('Write a haiku.');
    const completed = await runCli('complete', 'poems', 'form', 'h', '--dir', p.origin, '--cache-dir', cache);
    expect(completed.stdout.trim()).toBe('haiku');
    expect((await runCli('check', p.origin, '--cache-dir', cache)).code).toBe(0);

    // A skill whose artifact no longer matches its digest: check names it and fails.
    p.files.set('/sheets.tar.gz', { body: tarGz({ 'SKILL.md': skillMd('sheets', 'Changed.') }), type: 'application/gzip' });
    const checked = await runCli('check', p.origin, '--cache-dir', cache);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/^sheets:\d+: error: The skill "sheets" is not served: its artifact's digest is sha256:[0-9a-f]{64}, not the index.s/m);
  });

  it('installs the skills of an index to disk, each file as published', async () => {
    const { p, cache } = await published();
    const to = mkdtempSync(join(tmpdir(), 'skillport-cli-install-'));
    cleanups.push(() => rmSync(to, { recursive: true, force: true }));
    const installed = await runCli('install', p.origin, 'poems', 'sheets', '--to', to, '--cache-dir', cache);
    expect(installed.code).toBe(0);
    expect(readFileSync(join(to, 'poems', 'SKILL.md'), 'utf8')).toBe(POEMS);
    expect(readFileSync(join(to, 'sheets', 'notes.md'), 'utf8')).toBe('n');
  });

  it('refuses index flags without an index, plain http to another host, and an index beside a folder', async () => {
    const flag = await runCli('list', './skills', '--index-origin', 'https://cdn.example.com');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--index-origin applies only to an index source');
    const http = await runCli('list', 'http://example.com');
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('plain http is read only from this machine');
    expect((await runCli('list', 'https://example.com', './skills')).stderr).toContain('a git repository or index URL must be the only source');
    const market = await runCli('list', 'https://example.com/team/.claude-plugin/marketplace.json');
    expect(market.code).toBe(1);
    expect(market.stderr).toContain('a plugin marketplace is served from its folder or git repository');
  });
});

describe('the CLI with a plugin marketplace folder', () => {
  it('lists each plugin skill as <plugin>:<name>', async () => {
    const dir = tree({
      '.claude-plugin/marketplace.json': JSON.stringify({
        plugins: [
          { name: 'first', source: './', skills: ['./skills/poems'] },
          { name: 'second', source: './', skills: ['./other/poems'] },
        ],
      }),
      'skills/poems/SKILL.md': skillMd('poems', 'Short poems.'),
      'other/poems/SKILL.md': skillMd('poems', 'Long poems.', 'The long one.'),
    });
    const listed = await runCli('list', dir, '--json');
    expect((JSON.parse(listed.stdout) as { prompts: Array<{ name: string }> }).prompts.map((x) => x.name)).toEqual(['first:poems', 'second:poems']);
    expect((await runCli('get', 'second:poems', '--dir', dir)).stdout).toContain('The long one.');
  });
});
