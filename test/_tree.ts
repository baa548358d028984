/**
 * Folders of files written for one test and removed after it: `tree({ 'a/SKILL.md': '...' })`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary folder holding `files` (path inside it to text); removed after the test. */
export function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-tree-'));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
