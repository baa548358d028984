/**
 * How well `load_skill`'s query finds the skill over two public collections: the labelled
 * queries of queries.json, each sent to the real tool over a folder loaded by the real
 * loader, scored by whether the expected skill comes first (top-1) or among the first
 * three (top-3). Issue 23 asks for 90% and 95%, over the whole set and over the short
 * queries (one or two words) alike.
 *
 * The collections cannot live in this repository (their text is theirs), and CI has no
 * network: SKILLPORT_SEARCH_CORPORA names the two folders, `<anthropic>:<awesome-copilot>`,
 * each a checkout (its `skills/` and `.github/skills/` are served) or a skills folder.
 * Unset, the local git mirrors are read if present; otherwise the test is skipped and says
 * why. `npm run search:eval` prints the figures and the misses.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '../../src/core/model.js';
import { loadSkillsFolder, type SkillsFolder } from '../../src/skills/provider.js';

interface Labelled {
  collection: 'anthropic' | 'awesome-copilot';
  query: string;
  expected: string;
}

const QUERIES = (JSON.parse(readFileSync(new URL('./queries.json', import.meta.url), 'utf8')) as { queries: Labelled[] }).queries;
const COLLECTIONS = ['anthropic', 'awesome-copilot'] as const;
const MIRRORS = ['/work/.mirror/anthropics+skills/repo', '/work/.mirror/github+awesome-copilot/repo'];
const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
const scratch: string[] = [];

afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A bare mirror's `skills/` and `.github/skills/` at HEAD, written to a scratch folder. */
function extract(mirror: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-search-'));
  scratch.push(dir);
  for (const path of ['skills', '.github/skills']) {
    const archive = spawnSync('git', ['-C', mirror, 'archive', 'HEAD', path], { maxBuffer: 1 << 30 });
    if (archive.status !== 0) continue;
    spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  }
  return existsSync(join(dir, 'skills')) ? dir : undefined;
}

/** The two collections' folders, or why there are none; a variable that names no folders fails the file rather than skip it. */
function corpora(): string[] | string {
  const given = process.env.SKILLPORT_SEARCH_CORPORA;
  if (given) {
    const dirs = given.split(':');
    if (dirs.length !== 2 || !dirs.every((d) => existsSync(d)))
      throw new Error(`SKILLPORT_SEARCH_CORPORA must be two existing folders, <anthropic>:<awesome-copilot>; got ${given}`);
    return dirs;
  }
  if (!MIRRORS.every((m) => existsSync(m)))
    return 'the collections are not here: set SKILLPORT_SEARCH_CORPORA=<anthropic skills checkout>:<awesome-copilot checkout>';
  const dirs = MIRRORS.map(extract);
  return dirs.every((d) => d !== undefined) ? (dirs as string[]) : 'the local mirrors could not be read with git archive';
}

/** What a checkout serves: its skills folders, or the folder itself. */
function foldersOf(dir: string): string[] {
  const inside = [join(dir, 'skills'), join(dir, '.github', 'skills')].filter((d) => existsSync(d));
  return inside.length > 0 ? inside : [dir];
}

async function ranked(folder: SkillsFolder, query: string): Promise<string[]> {
  const result = (await folder.tools?.call('load_skill', { query }, ctx)) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return [...text.matchAll(/^- ([^:\n]+)/gm)].map((m) => m[1] as string);
}

interface Outcome extends Labelled {
  got: string[];
  rank: number;
}

const short = (q: Labelled) => q.query.trim().split(/\s+/).length <= 2;
const share = (outcomes: Outcome[], within: number) => outcomes.filter((o) => o.rank >= 1 && o.rank <= within).length / outcomes.length;
const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

function report(outcomes: Outcome[]): string {
  const lines = [`${outcomes.length} queries (${outcomes.filter(short).length} of one or two words)`];
  const groups: [string, Outcome[]][] = [
    ['all', outcomes],
    ['short', outcomes.filter(short)],
    ...COLLECTIONS.map((c): [string, Outcome[]] => [c, outcomes.filter((o) => o.collection === c)]),
  ];
  for (const [label, group] of groups) lines.push(`${label}: top-1 ${percent(share(group, 1))}, top-3 ${percent(share(group, 3))} (${group.length})`);
  for (const o of outcomes.filter((x) => x.rank !== 1)) {
    lines.push(
      `miss: [${o.collection}] "${o.query}" expected ${o.expected} at ${o.rank > 0 ? o.rank : 'none'}; got ${o.got.slice(0, 3).join(', ') || 'nothing'}`,
    );
  }
  return lines.join('\n');
}

const found = corpora();

describe.skipIf(typeof found === 'string')('search over the public collections', () => {
  it('finds the expected skill first for 90% of the queries and in the first three for 95%, short ones included', async () => {
    const dirs = found as string[];
    const outcomes: Outcome[] = [];
    for (const [i, collection] of COLLECTIONS.entries()) {
      const folder = await loadSkillsFolder(foldersOf(dirs[i] as string));
      try {
        for (const q of QUERIES.filter((x) => x.collection === collection)) {
          const got = await ranked(folder, q.query);
          outcomes.push({ ...q, got, rank: got.indexOf(q.expected) + 1 });
        }
      } finally {
        folder.close();
      }
    }
    if (process.env.SKILLPORT_SEARCH_REPORT) process.stdout.write(`${report(outcomes)}\n`);
    expect(outcomes).toHaveLength(QUERIES.length);
    const shortOnes = outcomes.filter(short);
    expect({ top1: share(outcomes, 1) >= 0.9, top3: share(outcomes, 3) >= 0.95, report: report(outcomes) }).toMatchObject({ top1: true, top3: true });
    expect({ top1: share(shortOnes, 1) >= 0.9, top3: share(shortOnes, 3) >= 0.95, report: report(outcomes) }).toMatchObject({ top1: true, top3: true });
  }, 120_000);
});

if (typeof found === 'string') {
  describe('search over the public collections (skipped)', () => {
    it.skip(`is skipped: ${found}`, () => {});
  });
}
