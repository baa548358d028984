/**
 * Writes the figures of a reliability run: each test file owns one section
 * between `<!-- section:NAME -->` markers and replaces only that. Where they
 * go is chosen with `RELIABILITY_REPORT`:
 *
 * - unset (or `file`): `.reliability/figures.md`, which git ignores. A plain
 *   `npm test` leaves the tree clean: the fuzzers draw a fresh seed each run
 *   (_fuzz.ts), so their figures change every time and would otherwise
 *   rewrite the tracked document on every run.
 * - `doc`: the sections of RELIABILITY.md, on purpose, to update the
 *   document (`RELIABILITY_REPORT=doc npm test`); the fuzz sections name the
 *   seed their counts came from.
 * - `0`: nothing is written.
 *
 * The soak (RELIABILITY_SOAK=1, `npm run soak`, which asks for `doc` unless
 * told otherwise) writes `-soak` sections, so CI figures never overwrite its
 * memory and timings. Vitest runs files in parallel workers, so writes take a
 * lock file (in the ignored `.reliability/` folder).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { ROOT } from '../_stdio-client.js';

/** The tracked document, written only under RELIABILITY_REPORT=doc. */
export const DOCUMENT = `${ROOT}RELIABILITY.md`;
/** Untracked figures of the last runs (`.reliability/` is in .gitignore). */
export const FIGURES = `${ROOT}.reliability/figures.md`;
const LOCK = `${ROOT}.reliability/lock`;

const FIGURES_HEADER =
  '# Reliability figures of the latest runs\n\nWritten by the tests (test/reliability/_report.ts), not tracked. ' +
  '`RELIABILITY_REPORT=doc npm test` writes these sections into RELIABILITY.md instead.\n';

/** Where this run's figures go, or undefined for nowhere. */
export function reportTarget(): string | undefined {
  const setting = process.env.RELIABILITY_REPORT ?? 'file';
  switch (setting) {
    case '0':
      return undefined;
    case 'doc':
      return DOCUMENT;
    case 'file':
    case '':
      return FIGURES;
    default:
      throw new Error(`RELIABILITY_REPORT must be "file" (the default), "doc" or "0", not ${JSON.stringify(setting)}`);
  }
}

function lock(): () => void {
  mkdirSync(`${ROOT}.reliability`, { recursive: true });
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      return () => unlinkSync(LOCK);
    } catch {
      // A lock older than the guard is stale (a killed run).
      if (Date.now() > until) {
        try {
          unlinkSync(LOCK);
        } catch {
          // Someone else removed it.
        }
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

/** Replaces (or appends) section `name` of the report (see the header) with `markdown`. */
export function writeSection(name: string, markdown: string): void {
  const target = reportTarget();
  if (target === undefined) return;
  // The soak keeps its own sections, so CI runs do not overwrite its figures.
  if (process.env.RELIABILITY_SOAK === '1') name = `${name}-soak`;
  const release = lock();
  try {
    const text = existsSync(target) ? readFileSync(target, 'utf8') : target === DOCUMENT ? '# Reliability\n' : FIGURES_HEADER;
    const begin = `<!-- section:${name} -->`;
    const end = `<!-- /section:${name} -->`;
    const block = `${begin}\n${markdown.trim()}\n${end}`;
    const from = text.indexOf(begin);
    const to = text.indexOf(end);
    const next = from !== -1 && to > from ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}` : `${text.trimEnd()}\n\n${block}\n`;
    if (next !== text) {
      writeFileSync(`${target}.tmp`, next);
      renameSync(`${target}.tmp`, target);
    }
  } finally {
    release();
  }
}

/** Collects rows for one section during a file's run. */
export class Figures {
  readonly rows: Array<[string, string]> = [];
  add(what: string, value: string | number): void {
    this.rows.push([what, String(value)]);
  }
  table(): string {
    return ['| What | Result |', '|---|---|', ...this.rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
  }
}
