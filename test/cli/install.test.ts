/**
 * `skillport install SOURCE [NAME...] --to DIR`: skills written as
 * DIR/<name>/ byte for byte (modes of scripts kept), an existing skill kept
 * unless --force, each file checked against the digest the catalogue
 * recorded, from a folder and from a git repository.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_FOLDERS, targetFolder } from '../../src/cli/commands/install.js';
import { run } from '../../src/cli/main.js';
import { checkFilePath, checkSkillFolderName } from '../../src/skills/install/write-skill.js';
import { buildCatalogue, chooseSkills, installSkills } from '../../src/skills.js';
import { ROOT } from '../_stdio-client.js';
import { createRepo, skillMd } from '../skills/git/_repo.js';
import { runCli } from './_run.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-install-'));
  temps.push(dir);
  return dir;
}

/** A skills folder from `{ path: content }`; `scripts/*.sh` are made executable. */
function folder(files: Record<string, string | Uint8Array>): string {
  const root = temp();
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), content);
    if (rel.endsWith('.sh')) chmodSync(join(root, rel), 0o755);
  }
  return root;
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

const BINARY = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x00]);
const SOURCE = {
  'pdf-forms/SKILL.md': '\uFEFF---\r\nname: pdf-forms\r\ndescription: Fill in PDF forms.\r\n---\r\n\r\n# Forms\r\n',
  'pdf-forms/scripts/fill.sh': '#!/bin/sh\necho fill\n',
  'pdf-forms/references/fields.md': '# Fields\n',
  'pdf-forms/assets/logo.png': BINARY,
  'notes/SKILL.md': skillMd('notes', 'Take notes.'),
};

describe('skillport install', () => {
  it('writes each skill as DIR/<name>/, byte for byte, scripts kept executable', async () => {
    const source = folder(SOURCE);
    const to = join(temp(), 'skills');
    const result = await runCli('install', source, '--to', to);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`installed pdf-forms in ${to}/pdf-forms (4 files`);
    expect(tree(to)).toEqual([
      'notes/SKILL.md',
      'pdf-forms/SKILL.md',
      'pdf-forms/assets/logo.png',
      'pdf-forms/references/fields.md',
      'pdf-forms/scripts/fill.sh',
    ]);
    for (const rel of tree(to)) expect(readFileSync(join(to, rel)), rel).toEqual(readFileSync(join(source, rel)));
    expect(statSync(join(to, 'pdf-forms/scripts/fill.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(join(to, 'pdf-forms/references/fields.md')).mode & 0o111).toBe(0);
    // Nothing but the skills: no temporary folder left beside them.
    expect(readdirSync(to).sort()).toEqual(['notes', 'pdf-forms']);
  });

  it('installs only the skills named, and names the ones there are for a typo', async () => {
    const source = folder(SOURCE);
    const to = join(temp(), 'skills');
    expect((await runCli('install', source, 'notes', '--to', to)).code).toBe(0);
    expect(readdirSync(to)).toEqual(['notes']);
    const typo = await runCli('install', source, 'pdf-form', '--to', to);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('no skill named "pdf-form" in this source (it has: notes, pdf-forms)');
  });

  it('keeps a skill that is there unless --force, and --force replaces it whole', async () => {
    const source = folder(SOURCE);
    const to = temp();
    mkdirSync(join(to, 'notes'));
    writeFileSync(join(to, 'notes', 'SKILL.md'), 'mine');
    writeFileSync(join(to, 'notes', 'old.md'), 'stale');
    const kept = await runCli('install', source, 'notes', '--to', to);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain(`${to}/notes exists (use --force to replace it)`);
    expect(readFileSync(join(to, 'notes', 'SKILL.md'), 'utf8')).toBe('mine');
    const forced = await runCli('install', source, 'notes', '--to', to, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('replaced notes');
    expect(tree(join(to, 'notes'))).toEqual(['SKILL.md']);
    expect(readFileSync(join(to, 'notes', 'SKILL.md'), 'utf8')).toBe(SOURCE['notes/SKILL.md']);
    expect(readdirSync(to)).toEqual(['notes']);
  });

  it('replaces a link in the way with --force, never writing through it', async () => {
    const source = folder(SOURCE);
    const to = temp();
    const elsewhere = temp();
    writeFileSync(join(elsewhere, 'SKILL.md'), 'elsewhere');
    symlinkSync(elsewhere, join(to, 'notes'));
    expect((await runCli('install', source, 'notes', '--to', to)).code).toBe(1);
    expect((await runCli('install', source, 'notes', '--to', to, '--force')).code).toBe(0);
    expect(lstatSync(join(to, 'notes')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(elsewhere, 'SKILL.md'), 'utf8')).toBe('elsewhere');
  });

  it('writes nothing of a skill whose file no longer matches its digest', async () => {
    const source = folder(SOURCE);
    const to = temp();
    const catalogue = await buildCatalogue([source]);
    writeFileSync(join(source, 'pdf-forms/references/fields.md'), '# Fields, changed\n');
    const outcomes = await installSkills(chooseSkills(catalogue, []), to);
    const pdf = outcomes.find((o) => o.name === 'pdf-forms');
    expect(pdf?.status).toBe('failed');
    expect(pdf?.error).toContain('references/fields.md changed since it was loaded, or its digest does not match');
    expect(outcomes.find((o) => o.name === 'notes')?.status).toBe('created');
    expect(readdirSync(to)).toEqual(['notes']);
  });

  it('keeps one progress line up to date on a terminal, and clears it', async () => {
    const many: Record<string, string> = {};
    for (const name of ['a-one', 'b-two', 'c-three', 'd-four']) many[`${name}/SKILL.md`] = skillMd(name, `Skill ${name}.`);
    const source = folder(many);
    let stderr = '';
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const stdin = new PassThrough();
    stdin.end();
    const io = { stdin, stdout: new PassThrough(), stderr: sink, stderrIsTty: true, onShutdownSignal: () => {} };
    expect(await run(['install', source, '--to', temp()], io)).toBe(0);
    expect(stderr).toContain('\r\x1b[Kinstalling 0/4 skills, 0 KB: a-one');
    expect(stderr).toContain('installing 3/4 skills');
    expect(stderr.endsWith('\r\x1b[K')).toBe(true);
    // Not on a pipe: the lines on stdout are the record there.
    expect((await runCli('install', source, '--to', temp())).stderr).toBe('');
  });

  it('gives each outcome as JSON', async () => {
    const source = folder(SOURCE);
    const to = temp();
    const result = await runCli('install', source, 'notes', '--to', to, '--json');
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      to,
      skills: [{ name: 'notes', dir: `${to}/notes`, status: 'created', files: 1, bytes: Buffer.byteLength(SOURCE['notes/SKILL.md']) }],
    });
  });

  it('installs from a git repository, leaving no checkout behind', async () => {
    const repo = createRepo({ 'skills/notes/SKILL.md': skillMd('notes', 'Take notes.'), 'skills/notes/ref.md': '# Ref\n' });
    temps.push(repo.dir);
    const to = temp();
    const streams = { stdout: new PassThrough(), stderr: new PassThrough() };
    const stdin = new PassThrough();
    stdin.end();
    const code = await run(
      ['install', `git+${repo.url}#main:skills`, '--to', to, '--cache-dir', repo.cache],
      { stdin, ...streams, onShutdownSignal: () => {} },
      repo.env,
    );
    expect(code).toBe(0);
    expect(tree(to)).toEqual(['notes/SKILL.md', 'notes/ref.md']);
    expect(readFileSync(join(to, 'notes/ref.md'), 'utf8')).toBe('# Ref\n');
    // The cache keeps the repository's objects for the next fetch, but no checkout.
    const left = existsSync(repo.cache) ? (readdirSync(repo.cache, { recursive: true }) as string[]) : [];
    expect(left.filter((path) => path.endsWith('SKILL.md'))).toEqual([]);
  });

  it('takes a host name for --to, relative to the folder it runs in', () => {
    const project = temp();
    const source = folder(SOURCE);
    execFileSync(process.execPath, [`${ROOT}bin/skillport.js`, 'install', source, 'notes', '--to', 'claude'], { cwd: project, stdio: 'pipe' });
    expect(tree(project)).toEqual(['.claude/skills/notes/SKILL.md']);
    expect(targetFolder('copilot')).toBe('.github/skills');
    expect(targetFolder('./claude')).toBe('./claude');
    expect(Object.keys(HOST_FOLDERS).sort()).toEqual(['agents', 'claude', 'codex', 'copilot', 'cursor', 'gemini', 'vscode']);
  });

  it('refuses a missing --to or SOURCE as usage errors', async () => {
    expect((await runCli('install', folder(SOURCE))).code).toBe(2);
    expect((await runCli('install', '--to', temp())).code).toBe(2);
  });

  it('refuses paths and names that would leave the target folder', () => {
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a//b', 'a\\b', '']) expect(() => checkFilePath(bad), bad).toThrow();
    expect(() => checkFilePath('scripts/run.sh')).not.toThrow();
    for (const bad of ['..', '.', '.hidden', 'a/b', '']) expect(() => checkSkillFolderName(bad), bad).toThrow();
    expect(() => checkSkillFolderName('pdf-forms')).not.toThrow();
  });
});
