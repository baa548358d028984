/**
 * Writes the figures of a reliability run into RELIABILITY.md: each test
 * file owns one section between `<!-- section:NAME -->` markers and replaces
 * only that. Vitest runs files in parallel workers, so writes take a lock
 * file. Figures are counts from seeded runs, so a rerun rewrites the same
 * text; only the soak (run by hand) records timings and memory.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { ROOT } from '../_stdio-client.js';

export const REPORT = `${ROOT}RELIABILITY.md`;
const LOCK = `${ROOT}.reliability.lock`;

function lock(): () => void {
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

/** Replaces (or appends) section `name` of RELIABILITY.md with `markdown`. */
export function writeSection(name: string, markdown: string): void {
  if (process.env.RELIABILITY_REPORT === '0') return;
  // The soak keeps its own sections, so CI runs do not overwrite its figures.
  if (process.env.RELIABILITY_SOAK === '1') name = `${name}-soak`;
  const release = lock();
  try {
    const text = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Reliability\n';
    const begin = `<!-- section:${name} -->`;
    const end = `<!-- /section:${name} -->`;
    const block = `${begin}\n${markdown.trim()}\n${end}`;
    const from = text.indexOf(begin);
    const to = text.indexOf(end);
    const next = from !== -1 && to > from ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}` : `${text.trimEnd()}\n\n${block}\n`;
    if (next !== text) {
      writeFileSync(`${REPORT}.tmp`, next);
      renameSync(`${REPORT}.tmp`, REPORT);
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
