/**
 * One file with a huge number of findings (issue: about 125,000 crashed the
 * loader with "Maximum call stack size exceeded", so serve, check and list
 * exited 1 without naming the file, and every later --watch reload failed).
 * The file is reported with a capped number of findings and the rest is served.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/skills/catalogue/catalogue.js';
import { MAX_ISSUES, MAX_ISSUES_PER_FILE, MAX_ISSUES_PER_FOLDER } from '../../src/skills/load/issues.js';
import { BIN } from './_harness.js';

const COUNT = 130_000;
let root: string;

function skill(name: string, frontmatter: string): void {
  mkdirSync(join(root, 'served', name), { recursive: true });
  writeFileSync(join(root, 'served', name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n${frontmatter}---\nBody.\n`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-findings-'));
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.md'), 'secret\n');
  skill('fine', '');
  skill('many-keys', Array.from({ length: COUNT }, (_, i) => `k${i}: v\n`).join(''));
  skill('many-arguments', `arguments: [${Array.from({ length: COUNT }, (_, i) => i).join(', ')}]\n`);
  skill('many-links', '');
  for (let i = 0; i < COUNT; i++) symlinkSync(join(root, 'outside', 'secret.md'), join(root, 'served', 'many-links', `l${i}.md`));
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a file with a huge number of findings', () => {
  it('is reported with a capped number of findings, and every skill is still served', async () => {
    const catalogue = await buildCatalogue([join(root, 'served')]);
    expect(catalogue.skills.map((s) => s.name).sort()).toEqual(['fine', 'many-arguments', 'many-keys', 'many-links']);
    expect(catalogue.issues.length).toBeLessThanOrEqual(MAX_ISSUES + 1);
    for (const path of ['many-keys/SKILL.md', 'many-arguments/SKILL.md']) {
      const mine = catalogue.issues.filter((i) => i.path === path);
      expect(mine.length).toBe(MAX_ISSUES_PER_FILE + 1);
      expect(mine.find((i) => i.code === 'too_many_findings')?.message).toMatch(/^\d+ more findings in this file are not shown$/);
    }
    const links = catalogue.issues.filter((i) => i.path === 'many-links' || i.path.startsWith('many-links/'));
    expect(links.filter((i) => i.code === 'outside_folder')).toHaveLength(MAX_ISSUES_PER_FOLDER);
    expect(links.find((i) => i.code === 'too_many_findings')).toMatchObject({
      severity: 'warning',
      path: 'many-links',
      message: `${COUNT - MAX_ISSUES_PER_FOLDER} more findings in this folder are not shown`,
    });
  }, 120_000);

  it('check names the file and exits by severity, not with a crash', () => {
    const result = spawnSync(process.execPath, [BIN, 'check', join(root, 'served')], { encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).not.toContain('Maximum call stack');
    expect(result.stdout).toContain('many-arguments/SKILL.md');
    expect(result.stdout).toMatch(/4 skills/);
  }, 120_000);
});
