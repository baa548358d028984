/**
 * `skillport usage URL...`: how often each skill was used, read from the
 * metrics endpoints of running servers (`serve --metrics`), replicas
 * summed. Every skill a server serves is listed, from its
 * `skillport_skill_info` series, so a skill nobody uses shows as 0: that is
 * what a team curating its skills needs to see.
 */
import { type Invocation, UsageError } from '../args.js';
import type { CliIo } from '../context.js';
import { printJson, printLine } from '../output.js';

export const SURFACES = ['prompt', 'skill', 'file', 'load_skill', 'read_skill_file'] as const;
type Surface = (typeof SURFACES)[number];

/** One skill's uses by surface. */
export interface UsageRow {
  skill: string;
  total: number;
  uses: Record<Surface, number>;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of the metrics in `names` (Prometheus text format 0.0.4); other lines are skipped. */
export function samples(text: string, names: ReadonlySet<string>): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (name === undefined || !names.has(name)) continue;
    let at = name.length;
    const labels: Record<string, string> = {};
    if (line[at] === '{') {
      // name="value", with \\, \" and \n escaped.
      const label = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;
      label.lastIndex = at + 1;
      for (let m = label.exec(line); m !== null; m = label.exec(line)) {
        labels[m[1] as string] = (m[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
        at = label.lastIndex;
      }
      if (line[at] !== '}') continue;
      at++;
    }
    const value = Number(line.slice(at).trim().split(/\s+/)[0]);
    if (Number.isFinite(value)) out.push({ name, labels, value });
  }
  return out;
}

const NAMES: ReadonlySet<string> = new Set(['skillport_skill_info', 'skillport_skill_uses_total']);

/** The rows of one or more scrapes (replicas summed), most used first, then by name. */
export function usageRows(texts: readonly string[]): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const text of texts) {
    for (const { name, labels, value } of samples(text, NAMES)) {
      const skill = labels.skill;
      if (skill === undefined) continue;
      let row = rows.get(skill);
      if (!row) {
        row = { skill, total: 0, uses: { prompt: 0, skill: 0, file: 0, load_skill: 0, read_skill_file: 0 } };
        rows.set(skill, row);
      }
      const surface = labels.surface as Surface | undefined;
      if (name !== 'skillport_skill_uses_total' || surface === undefined || !SURFACES.includes(surface)) continue;
      row.uses[surface] += value;
      row.total += value;
    }
  }
  return [...rows.values()].sort((a, b) => b.total - a.total || (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0));
}

/** A metrics URL from what the user typed: `HOST:PORT` and `PORT` are `http://…/metrics`. */
export function metricsUrl(given: string): URL {
  const text = /^\d+$/.test(given) ? `127.0.0.1:${given}` : given;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `http://${text}`);
    if (url.pathname === '/') url.pathname = '/metrics';
    return url;
  } catch {
    throw new UsageError(`"${given}" is not a metrics URL (http://HOST:PORT/metrics, HOST:PORT or PORT)`, 'usage');
  }
}

async function scrape(url: URL): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { Accept: 'text/plain' } });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  return response.text();
}

export async function usage({ args, values }: Invocation, io: CliIo): Promise<number> {
  if (args.length === 0) throw new UsageError('usage expects the metrics URL of at least one server (serve --metrics)', 'usage');
  const urls = args.map(metricsUrl);
  const texts = await Promise.all(
    urls.map((url) => scrape(url).catch((error: Error) => Promise.reject(new Error(`cannot read ${url.href}: ${error.message}`)))),
  );
  const rows = usageRows(texts);
  if (values.json) {
    printJson(io.stdout, rows);
    return 0;
  }
  const header = ['skill', 'total', ...SURFACES];
  const lines = rows.map((row) => [row.skill, String(row.total), ...SURFACES.map((s) => String(row.uses[s]))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] as string).length)));
  const format = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  printLine(io.stdout, format(header));
  for (const line of lines) printLine(io.stdout, format(line));
  const unused = rows.filter((row) => row.total === 0).length;
  printLine(io.stdout, `${rows.length} skills, ${unused} never used since the server${urls.length > 1 ? 's' : ''} started`);
  return 0;
}
