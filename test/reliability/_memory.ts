/**
 * Shared pieces of the memory tests (memory-stdio.test.ts, memory-http.test.ts):
 * a skills folder with what a hostile client can lean on (a fixed completion
 * list, a prompt that uses one argument thousands of times in every format,
 * a file over the resource cap and one under it), RSS rounds, and how a
 * series of samples is judged and reported. CI runs small reproductions; the
 * soak runs the sizes of the original reports and asks for RSS flat within 10%.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MiB, memoryFlat, rssOf, SOAK } from './_harness.js';

/** Rounds of equal work per case; RSS is sampled after each. */
export const ROUNDS = SOAK ? 8 : 6;
/**
 * Rounds run before sampling: V8 grows its heap lazily over the first rounds
 * of a new kind of work (then holds it), which the soak's 10% rule would take
 * for growth.
 */
const WARMUP = SOAK ? 3 : 0;

/** Uses of one argument in the `many` prompts (the original report's figure). */
export const USES = 5000;

/** Sizes of the two files: over the resource cap the tests set, and under it. */
export const BIG_FILE_BYTES = SOAK ? 100_000_000 : 24 * MiB;
export const MID_FILE_BYTES = SOAK ? 12 * MiB : 2 * MiB;

/** A temp skills folder with the cases above; `remove()` deletes it. */
export function memoryFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-memory-'));
  const file = (rel: string, text: string | Buffer): void => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  // A page of text whose reads answer about 10 KB each: cheap to serve, quick to fill a buffer.
  file('pick/references/page.md', `${'lorem ipsum dolor sit amet '.repeat(40)}\n`.repeat(10));
  file(
    'pick/SKILL.md',
    '---\nname: pick\ndescription: Picks a colour.\narguments:\n  - name: colour\n    values: [red, green, blue, cyan, magenta, yellow]\n---\nPick {{colour}}.\n',
  );
  // One argument used USES times, in each format skillport substitutes.
  file('echo/SKILL.md', `---\nname: echo\ndescription: Echoes.\narguments:\n  - name: text\n    required: true\n---\n${'{{text}}\n'.repeat(USES)}`);
  file('prompts/many.md', `---\ndescription: Many uses.\narguments:\n  - name: text\n    required: true\n---\n${'{{text}}\n'.repeat(USES)}`);
  file('.claude/commands/many-claude.md', `---\ndescription: Many uses.\n---\n${'$ARGUMENTS\n'.repeat(USES)}`);
  file('.github/prompts/many-vscode.prompt.md', `---\ndescription: Many uses.\n---\n${'${input:text}\n'.repeat(USES)}`);
  file('big/SKILL.md', '---\nname: big\ndescription: A skill with a large file.\n---\nBig.\n');
  file('big/references/data.bin', Buffer.alloc(BIG_FILE_BYTES));
  file('mid/SKILL.md', '---\nname: mid\ndescription: A skill with a file under the cap.\n---\nMid.\n');
  file('mid/references/data.bin', Buffer.alloc(MID_FILE_BYTES));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const PAGE_URI = 'skill://pick/references/page.md';
export const BIG_URI = 'skill://big/references/data.bin';
export const MID_URI = 'skill://mid/references/data.bin';
/** The prompts that use one argument USES times, one per format. */
export const MANY_PROMPTS = ['echo', 'many', 'many-claude', 'many-vscode'] as const;

/** Runs `work` ROUNDS times (after the warm-up rounds), sampling the server's RSS after each. */
export async function rounds(pid: number, work: (round: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    await work(round);
    if (round >= WARMUP) samples.push(rssOf(pid));
  }
  return samples;
}

/**
 * Flat: the later rounds' highest RSS is within `slack` of the earlier
 * rounds' highest (see memoryFlat). The soak, with the original sizes, asks
 * for within 10% instead.
 */
export function flat(samples: readonly number[], slack: number): boolean {
  const early = Math.max(...samples.slice(0, Math.ceil(samples.length / 2)));
  return memoryFlat(samples, SOAK ? early * 0.1 : slack);
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / MiB)}`;
}

/** The figure for a series: the samples in the soak, the rule in CI. */
export function described(samples: readonly number[], slack: number): string {
  return SOAK ? `${samples.map(mib).join(', ')} MiB after rounds ${WARMUP + 1}..${WARMUP + ROUNDS} (flat within 10%)` : `flat (within ${mib(slack)} MiB)`;
}

/** The figure for an RSS growth checked against `bound`: the number in the soak, the rule in CI (whose figures must not change between runs). */
export function growthFigure(growth: number, bound: number): string {
  return SOAK ? `RSS +${mib(growth)} MiB` : `RSS growth under ${mib(bound)} MiB`;
}
