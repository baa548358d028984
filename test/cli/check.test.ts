/**
 * `skillport check`: every finding with file and line, sorted by path and
 * line, in text and JSON; with several folders, paths that say which folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BROKEN, type Finding, runCli } from './_run.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder of skills from `{ 'dir/SKILL.md': text }`. */
function folder(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'skillport-check-'));
  temps.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

describe('skillport check', () => {
  it('prints every finding with its line, sorted by path and line', async () => {
    const result = await runCli('check', BROKEN);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'Mismatched_Folder/SKILL.md:2: warning: The name "mismatched-name" differs from its folder "Mismatched_Folder" (name_mismatch)',
        'Mismatched_Folder/SKILL.md:4: note: "custom-key" is not an Agent Skills key (extension_key)',
        'bad-yaml/SKILL.md:3: error: Invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (invalid_yaml)',
        'dup-a/SKILL.md:2: warning: The name "dup" differs from its folder "dup-a" (name_mismatch)',
        'dup-b/SKILL.md:2: warning: The name "dup" differs from its folder "dup-b" (name_mismatch)',
        'dup-b/SKILL.md:2: warning: The skill "dup" is already served from dup-a; this one is not served (duplicate_name)',
        // What is about the file rather than a key is on line 1.
        'no-description/SKILL.md:1: error: The frontmatter has no "description" (missing_description)',
        'no-name/SKILL.md:1: error: The frontmatter has no "name" (missing_name)',
        'FAILED: 3 skills, 3 prompts, 3 files; 3 errors, 4 warnings, 1 note',
        '',
      ].join('\n'),
    );
  });

  it('gives the same findings in the same order as JSON, each with a line', async () => {
    const text = (await runCli('check', BROKEN)).stdout.trim().split('\n').slice(0, -1);
    const result = await runCli('check', BROKEN, '--json');
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { ok: boolean; errors: number; issues: Finding[] };
    expect(json).toMatchObject({ ok: false, errors: 3 });
    expect(json.issues.map((i) => `${i.path}:${i.line}: ${i.severity}: ${i.message} (${i.code})`)).toEqual(text);
    expect(json.issues.every((i) => Number.isInteger(i.line) && i.line >= 1 && !('folder' in i))).toBe(true);
  });

  it('puts a finding about an argument on its line, and one about an unreadable file on line 1', async () => {
    const dir = folder({
      'greet/SKILL.md': ['---', 'name: greet', 'description: Greets.', 'arguments:', '  - name: who', '  - name: who', '---', 'Hi {{who}}'].join('\n'),
      'binary/SKILL.md': new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
    });
    const result = await runCli('check', dir);
    expect(result.stdout).toContain('binary/SKILL.md:1: error: The file is not valid UTF-8 (not_utf8)\n');
    expect(result.stdout).toContain('greet/SKILL.md:6: error: The argument "who" is declared twice (invalid_arguments)\n');
  });

  it('with several folders, prefixes each path with its folder and names both folders of a duplicate', async () => {
    const root = folder({
      'a/dup/SKILL.md': '---\nname: dup\ndescription: A.\n---\n',
      'b/dup/SKILL.md': '---\ndescription: B.\nname: dup\n---\n',
      'b/odd/SKILL.md': '---\nname: odd\ndescription: x\nextra: 1\n---\n',
    });
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    // b comes first on the command line, so a's dup is the one left out.
    const result = await runCli('check', b, '--dir', a);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `${a}/dup/SKILL.md:2: warning: The skill "dup" is already served from ${b}/dup; the one in ${a} is not served (duplicate_name)`,
        `${b}/odd/SKILL.md:4: note: "extra" is not an Agent Skills key (extension_key)`,
        'OK: 2 skills, 2 prompts, 2 files; 0 errors, 1 warning, 1 note',
        '',
      ].join('\n'),
    );
    const swapped = await runCli('check', a, b, '--json');
    expect((JSON.parse(swapped.stdout) as { issues: Finding[] }).issues).toEqual([
      {
        severity: 'warning',
        code: 'duplicate_name',
        path: `${b}/dup/SKILL.md`,
        line: 3,
        message: `The skill "dup" is already served from ${a}/dup; the one in ${b} is not served`,
        folder: b,
      },
      { severity: 'note', code: 'extension_key', path: `${b}/odd/SKILL.md`, line: 4, message: '"extra" is not an Agent Skills key', folder: b },
    ]);
  });
});
