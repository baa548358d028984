/**
 * Load on 127.0.0.1: `skillport serve DIR --http` with 1,000 keep-alive
 * connections opened at once and kept busy with a list/get/complete mix for
 * a bounded time: zero errors, RSS flat. Then the same under live reload
 * (`--watch`, an editor adding and removing a skill in a temp copy of the
 * folder): every full prompts/list page set must be one of the two known
 * catalogues, never a mix, never empty. The soak runs both for longer.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, HttpChild, httpBuilt, type Message, MiB, memoryFlat, SOAK, VALID_SKILLS } from './_harness.js';
import { runLoad } from './_load.js';
import { Figures, writeSection } from './_report.js';

const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 1000);
const DURATION_MS = Number(process.env.LOAD_DURATION_MS ?? 8000);
const RELOAD_CONNECTIONS = Number(process.env.RELOAD_CONNECTIONS ?? 50);
const HEAP_MB = Number(process.env.RELOAD_HEAP_MB ?? 64);
const figures = new Figures();
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-load-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  writeSection(
    'load',
    `### Load\n\n${SOAK ? 'Soak figures (timing and memory recorded).' : 'CI figures; the soak runs the same for longer and records memory.'}\n\n${figures.table()}`,
  );
});

const STABLE = [{ name: 'greeting', arguments: { who: 'load' } }, { name: 'summarize', arguments: { text: 'load' } }, { name: 'pdf-tools' }];

/** Prompt names of the whole catalogue, every page (one listing by a single connection). */
async function names(url: URL): Promise<string[]> {
  const report = await runLoad({ url, connections: 1, durationMs: 1, versions: [], stable: STABLE, pid: process.pid, listOnly: true });
  expect(report.errors).toEqual([]);
  return (report.mixed[0] ?? '').split(',').filter(Boolean);
}

function summary(rss: number[]): string {
  return `${Math.round((rss[0] ?? 0) / MiB)} -> ${Math.round((rss[rss.length - 1] ?? 0) / MiB)} MiB (max ${Math.round(Math.max(...rss) / MiB)})`;
}

describe.skipIf(!httpBuilt())('load', () => {
  it(`holds ${CONNECTIONS} concurrent connections and a sustained list/get/complete mix with zero errors and flat memory`, {
    tags: ['schema'],
    timeout: 120_000 + DURATION_MS,
  }, async () => {
    const dir = join(root, 'steady');
    cpSync(VALID_SKILLS, dir, { recursive: true });
    const server = new HttpChild(BIN, ['serve', dir, '--http', '127.0.0.1:0', '--page-size', '3', '--log-level', 'info'], {
      NODE_OPTIONS: `--max-old-space-size=${2 * HEAP_MB}`,
    });
    try {
      const url = await server.url;
      const catalogue = await names(url);
      expect(catalogue.length).toBeGreaterThan(3);
      const report = await runLoad({ url, connections: CONNECTIONS, durationMs: DURATION_MS, versions: [catalogue], stable: STABLE, pid: server.pid });
      figures.add(`Steady load: connections opened at once`, `${report.opened} of ${CONNECTIONS}`);
      figures.add('Steady load: errors / mixed listings', `${report.errors.length} / ${report.mixed.length}`);
      if (SOAK) figures.add(`Steady load: ${report.requests} requests in ${DURATION_MS / 1000} s, server RSS`, summary(report.rss));
      else figures.add(`Steady load: duration`, `${DURATION_MS / 1000} s, every connection busy`);
      expect(report.opened).toBe(CONNECTIONS);
      expect(report.errors).toEqual([]);
      expect(report.mixed).toEqual([]);
      expect(report.requests).toBeGreaterThan(CONNECTIONS);
      expect(memoryFlat(report.rss.slice(1), 96 * MiB), `RSS MiB: ${report.rss.map((r) => Math.round(r / MiB)).join(', ')}`).toBe(true);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('under live reload, every full listing is one of the known catalogues: never mixed, never empty', {
    tags: ['schema'],
    timeout: 120_000 + DURATION_MS,
  }, async () => {
    const dir = join(root, 'reloading');
    cpSync(VALID_SKILLS, dir, { recursive: true });
    // A small heap: a leak per reload or per request would end in an out-of-memory crash, whatever GC does meanwhile.
    const server = new HttpChild(BIN, ['serve', dir, '--http', '127.0.0.1:0', '--watch', '--page-size', '2', '--log-level', 'info'], {
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    });
    try {
      const url = await server.url;
      const base = await names(url);
      const withExtra = [...base, 'extra'].sort();
      let edits = 0;
      const extra = join(dir, 'extra');
      const localized = readFileSync(join(dir, 'localized', 'SKILL.md'), 'utf8');
      const editor = setInterval(() => {
        // In-place edits, as an editor makes them: the reload may see a file half-written.
        if (edits % 2 === 0) {
          mkdirSync(extra, { recursive: true });
          writeFileSync(join(extra, 'SKILL.md'), '---\nname: extra\ndescription: Comes and goes.\n---\nExtra.\n');
        } else rmSync(extra, { recursive: true, force: true });
        writeFileSync(join(dir, 'localized', 'SKILL.md'), edits % 3 === 0 ? '' : localized);
        edits++;
      }, 250);
      const report = await runLoad({
        url,
        connections: RELOAD_CONNECTIONS,
        durationMs: DURATION_MS,
        versions: [base, withExtra, base.filter((n) => n !== 'localized'), withExtra.filter((n) => n !== 'localized')],
        stable: STABLE,
        pid: server.pid,
      });
      clearInterval(editor);
      figures.add(`Live reload under load (${RELOAD_CONNECTIONS} connections): full listings checked`, SOAK ? report.lists : 'all');
      figures.add('Live reload under load: catalogue swaps (edits)', SOAK ? edits : `one every 250 ms`);
      figures.add('Live reload under load: mixed or empty listings / errors', `${report.mixed.length} / ${report.errors.length}`);
      figures.add('Heap cap of the server (a leak would crash it)', `${HEAP_MB} MiB under reload, ${2 * HEAP_MB} MiB steady: held`);
      if (SOAK) figures.add(`Live reload under load: ${report.requests} requests in ${DURATION_MS / 1000} s, server RSS`, summary(report.rss));
      expect(report.mixed, 'listings mixed from two catalogues').toEqual([]);
      expect(report.errors).toEqual([]);
      expect(edits).toBeGreaterThan(4);
      // The reloads really happened: more than one catalogue was listed.
      expect(report.versionsSeen, `no reload took effect under load; server log: ${server.stderr.slice(-3000)}`).toBeGreaterThan(1);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });
});

export type { Message };
