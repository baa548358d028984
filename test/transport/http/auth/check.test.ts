/**
 * `skillport check` reports a malformed `metadata.audience` (an error: the
 * skill or prompt file is then shown to no authenticated caller), and
 * accepts the well-formed ones.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/_run.js';
import { writeFolder } from './_folder.js';

const folders: Array<{ remove(): void }> = [];
afterAll(() => {
  for (const folder of folders) folder.remove();
});

describe('check and metadata.audience', () => {
  it('accepts space- and comma-separated audiences', async () => {
    const folder = writeFolder();
    folders.push(folder);
    const result = await runCli('check', folder.dir);
    expect(result.stdout).not.toContain('invalid_audience');
    expect(result.code).toBe(0);
  });

  it('reports a list, an empty string or a number as an error, with its line', async () => {
    const folder = writeFolder();
    folders.push(folder);
    const write = (path: string, text: string) => {
      mkdirSync(join(folder.dir, path, '..'), { recursive: true });
      writeFileSync(join(folder.dir, path), text);
    };
    write('listed/SKILL.md', '---\nname: listed\ndescription: A list.\nmetadata:\n  audience: [a, b]\n---\nx\n');
    write('blank/SKILL.md', '---\nname: blank\ndescription: Blank.\nmetadata:\n  audience: " , "\n---\nx\n');
    write('prompts/numbered.md', '---\ndescription: A number.\nmetadata:\n  audience: 7\n---\nx\n');
    const result = await runCli('check', folder.dir);
    const lines = result.stdout.split('\n').filter((line) => line.includes('(invalid_audience)'));
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.startsWith('listed/SKILL.md:4: error:'))).toBeDefined();
    expect(lines.find((line) => line.startsWith('blank/SKILL.md:4: error:'))).toBeDefined();
    expect(lines.find((line) => line.startsWith('prompts/numbered.md:3: error:'))).toBeDefined();
    expect(lines[0]).toContain('"metadata.audience" must be a string of audience names separated by spaces or commas');
    expect(result.code).toBe(1);
  });
});
