/**
 * The real `skills` command-line tool (devDependency, 1.7.4) installing
 * from a running `skillport serve --http` into an empty project: one skill
 * published as a lone SKILL.md, one as an archive (nested folders, a binary
 * file, a script), each installed file compared byte for byte with the
 * served folder. The tool verifies each digest before it writes anything.
 *
 * It declares Node >= 22.20 and on Node 20 fails only at loading, since it
 * imports `glob` from `fs/promises`: there it runs through the test-only
 * module hook of _skills-cli-shim.mjs, which gives it that module with a
 * `glob` that throws (an install from an index never calls it).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../_stdio-client.js';
import { filesUnder, type Running, startServe, writeSkills } from './_publish.js';

const CLI = join(ROOT, 'node_modules/skills/bin/cli.mjs');
const SHIM = join(ROOT, 'test/skills/publish/_skills-cli-shim.mjs');

/** Whether this Node runs the tool as it is (it declares >= 22.20). */
function nativeNode(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 20);
}

let folder: { dir: string; remove(): void };
let served: Running;
const scratch = mkdtempSync(join(tmpdir(), 'skillport-skills-cli-'));

beforeAll(async () => {
  folder = writeSkills();
  served = await startServe([folder.dir, '--http', '127.0.0.1:0']);
});
afterAll(async () => {
  await served?.stop();
  folder?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** `skills add <server> -s <name> -a claude-code -y --copy` in a new empty project, with a home of its own; returns the project. */
function install(name: string): Promise<{ project: string; output: string }> {
  const project = mkdtempSync(join(scratch, `${name}-project-`));
  const home = mkdtempSync(join(scratch, `${name}-home-`));
  const args = [...(nativeNode() ? [] : ['--import', SHIM]), CLI, 'add', served.origin, '-s', name, '-a', 'claude-code', '-y', '--copy'];
  // DO_NOT_TRACK: the tool reports installs otherwise.
  const env = { ...process.env, HOME: home, DO_NOT_TRACK: '1', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: project, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`skills add failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve({ project, output: stdout + stderr });
    });
  });
}

describe('the skills CLI installs from the discovery index', () => {
  it.each([
    ['plain-notes', 'a lone SKILL.md'],
    ['field-kit', 'an archive with nested folders, a binary file and a script'],
  ])('%s (%s): every installed file equals the served one, byte for byte', async (name) => {
    const { project, output } = await install(name);
    const installed = filesUnder(join(project, '.claude/skills', name));
    const source = filesUnder(join(folder.dir, name));
    expect([...installed.keys()].sort(), output).toEqual([...source.keys()].sort());
    for (const [path, bytes] of source) expect(installed.get(path)?.equals(bytes), path).toBe(true);
  });
});
