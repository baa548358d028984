/**
 * Completion lists of a catalogue are indexed once, not per request (issue:
 * completing `path` of `skill://{skill}/{+path}` in a 100,000-file skill cost
 * 130-200 ms per request, a `depends-on` list of 100,000 values about 100 ms).
 * The index builder is counted: repeated requests must not build again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const built = vi.hoisted(() => ({ sizes: [] as number[] }));
vi.mock('../../../src/core/rank.js', async (original) => {
  const rank = await original<typeof import('../../../src/core/rank.js')>();
  return {
    ...rank,
    createCompletionIndex: (values: readonly string[]) => {
      built.sizes.push(values.length);
      return rank.createCompletionIndex(values);
    },
  };
});

const { loadSkillsFolder, SKILL_FILE_TEMPLATE } = await import('../../../src/skills/provider.js');

const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillport-index-'));
  const cities = Array.from({ length: 5000 }, (_, i) => `city-${i}`);
  mkdirSync(join(dir, 'travel', 'data'), { recursive: true });
  writeFileSync(
    join(dir, 'travel', 'SKILL.md'),
    `---\nname: travel\ndescription: Plans a trip.\narguments:\n  - name: country\n    values: [france, spain]\n  - name: city\n    depends-on: country\n    values:\n      france: [${cities.join(', ')}]\n      spain: [madrid, sevilla]\n---\nGo to {{city}}.\n`,
  );
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, 'travel', 'data', `f${i}.txt`), `${i}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('completion indexes', () => {
  it('are built once per list and catalogue, however many requests complete from them', async () => {
    const folder = await loadSkillsFolder([dir]);
    try {
      const before = built.sizes.length;
      for (let i = 0; i < 20; i++) {
        const france = await folder.prompts.complete?.('travel', { name: 'city', value: `city-${i}` }, { arguments: { country: 'france' } }, ctx);
        expect(france?.values[0]).toBe(`city-${i}`);
        await folder.prompts.complete?.('travel', { name: 'city', value: 'm' }, { arguments: { country: 'spain' } }, ctx);
        await folder.prompts.complete?.('travel', { name: 'city', value: 's' }, { arguments: {} }, ctx);
        const paths = await folder.resources.complete?.(SKILL_FILE_TEMPLATE, { name: 'path', value: `data/f${i}` }, { arguments: { skill: 'travel' } }, ctx);
        expect(paths?.values[0]).toBe(`data/f${i}.txt`);
        await folder.resources.complete?.(SKILL_FILE_TEMPLATE, { name: 'skill', value: 't' }, { arguments: {} }, ctx);
      }
      // France's list, Spain's, both together, the skill's 301 paths, the skill names: once each.
      expect(built.sizes.slice(before).sort((a, b) => a - b)).toEqual([1, 2, 301, 5000, 5002]);
    } finally {
      folder.close();
    }
  });
});
