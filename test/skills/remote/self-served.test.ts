/**
 * One skillport reading what another publishes: `skillport serve --http`
 * (the built bin) publishes its folder's discovery index, and
 * loadIndexSkills and the CLI read it back, every file byte for byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/index.js';
import { loadIndexSkills } from '../../../src/skills.js';
import { runCli } from '../../cli/_run.js';
import { filesUnder, startServe, writeSkills } from '../publish/_publish.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('an index published by skillport serve --http', () => {
  it('is read back whole: each skill the index lists, every file byte for byte', async () => {
    const skills = writeSkills();
    cleanups.push(() => skills.remove());
    const running = await startServe([skills.dir, '--http', '127.0.0.1:0']);
    cleanups.push(() => running.stop());
    const cacheDir = mkdtempSync(join(tmpdir(), 'skillport-self-'));
    cleanups.push(() => rmSync(cacheDir, { recursive: true, force: true }));
    const folder = await loadIndexSkills(running.origin, { cacheDir, pullIntervalMs: 0 });
    cleanups.push(() => folder.close());

    const names = folder.catalogue.skills.map((s) => s.name).sort();
    // Bad_Name is not in the index; the others are, skill-md and archive alike.
    expect(names).toEqual(['field-kit', 'long-winded', 'plain-notes']);
    for (const name of ['field-kit', 'plain-notes']) {
      const original = filesUnder(join(skills.dir, name));
      const served = new Map<string, Buffer>();
      for (const [rel] of original) {
        const [content] = (await folder.resources.read(`skill://${name}/${rel}`, ctx)).contents;
        served.set(rel, content && 'text' in content ? Buffer.from(content.text) : Buffer.from((content as { blob: string }).blob, 'base64'));
      }
      expect(served).toEqual(original);
    }
    // Nothing changed: a refresh is a 304.
    expect(await folder.sync()).toEqual({ changed: false });

    const listed = await runCli('list', running.origin, '--cache-dir', cacheDir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^field-kit {2}/m);
  });
});
