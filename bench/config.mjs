// What the bench runs, as data: flags, the size of each phase, the
// contenders and the revisions each one serves.

export const PHASES = ['completion', 'http', 'stdio', 'cold', 'memory', 'reload', 'profile'];

export const ERA_LABEL = { legacy: '2025-11-25', modern: '2026-07-28' };
export const ERAS = ['legacy', 'modern'];
export const cellKey = (id, era) => `${id}@${era}`;

/** The value of `--name=value` in `argv`, or `fallback`. */
export function flag(name, fallback, argv = process.argv) {
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

/** Flags: --quick, --only=a,b, --out=FILE, --sustain=SECONDS, --report-from=RESULTS.json. */
export function parseFlags(argv) {
  const value = (name) => flag(name, undefined, argv);
  const only = (value('only') ?? '').split(',').filter(Boolean);
  const unknown = only.filter((p) => !PHASES.includes(p));
  if (unknown.length) throw new Error(`--only: unknown phase ${unknown.join(', ')} (phases: ${PHASES.join(', ')})`);
  return {
    quick: argv.includes('--quick'),
    only,
    out: value('out'),
    sustain: Number(value('sustain')) || undefined,
    reportFrom: value('report-from'),
  };
}

export const COLD_SIZES = [10, 1000, 10000];

export function sizes({ quick, sustain }) {
  const cfg = quick
    ? {
        rounds: 1,
        duration: 1,
        warmup: 0.5,
        connections: 16,
        stdioN: 1000,
        coldRounds: 1,
        coldSizes: COLD_SIZES,
        sustainSec: 8,
        reloads: 5,
        profileSec: 3,
        completionN: 2000,
        completionRounds: 2,
      }
    : {
        rounds: 3,
        duration: 1.75,
        warmup: 0.5,
        connections: 16,
        stdioN: 5000,
        coldRounds: 5,
        coldSizes: COLD_SIZES,
        sustainSec: 40,
        reloads: 20,
        profileSec: 4,
        completionN: 10000,
        completionRounds: 5,
      };
  if (sustain > 0) cfg.sustainSec = sustain;
  // Hard stop: no run goes past 15 minutes.
  cfg.budgetMinutes = 15;
  // At most this many CPU profiles of missed target cells.
  cfg.maxProfiles = 6;
  return cfg;
}

// Contenders. `peer` marks an official SDK or FastMCP setup (the p99 target
// compares against every one of them).
export const HTTP_SERVERS = [
  { id: 'floor', label: 'node:http floor', script: 'bench/servers/floor.mjs', eras: ['legacy', 'modern'] },
  { id: 'skillport', label: 'skillport (dist/http.js)', script: 'bench/servers/skillport.mjs', eras: ['legacy', 'modern'] },
  { id: 'v1-stateless', label: 'SDK v1 stateless JSON', script: 'bench/servers/sdk-v1.mjs', variant: 'stateless', eras: ['legacy'], peer: true },
  { id: 'v1-stateful', label: 'SDK v1 stateful (SSE)', script: 'bench/servers/sdk-v1.mjs', variant: 'stateful', eras: ['legacy'], peer: true },
  { id: 'v2', label: 'SDK v2 createMcpHandler', script: 'bench/servers/sdk-v2.mjs', eras: ['modern', 'legacy'], peer: true },
  { id: 'fastmcp', label: 'FastMCP httpStream', script: 'bench/servers/fastmcp.mjs', eras: ['legacy'], peer: true },
];

export const STDIO_SERVERS = [
  { id: 'floor', label: 'stdio floor', script: 'bench/servers/floor.mjs', eras: ['legacy', 'modern'] },
  { id: 'skillport', label: 'skillport (dist/stdio.js)', script: 'bench/servers/skillport.mjs', eras: ['legacy', 'modern'] },
  { id: 'v1', label: 'SDK v1 StdioServerTransport', script: 'bench/servers/sdk-v1.mjs', eras: ['legacy'], peer: true },
  { id: 'v2', label: 'SDK v2 serveStdio', script: 'bench/servers/sdk-v2.mjs', eras: ['legacy', 'modern'], peer: true },
  { id: 'fastmcp', label: 'FastMCP stdio', script: 'bench/servers/fastmcp.mjs', eras: ['legacy'], peer: true },
];

/** Cold start: each contender's argv and env for N prompts (dir: a folder of N SKILL.md files). */
export const COLD_SERVERS = [
  { id: 'floor', label: 'floor, N prompts in code', argv: () => ['bench/servers/floor.mjs', 'stdio'], env: (n) => ({ BENCH_SET: `skills:${n}` }) },
  {
    id: 'skillport-lib',
    label: 'skillport library, N definePrompt',
    argv: () => ['bench/servers/skillport.mjs', 'stdio'],
    env: (n) => ({ BENCH_SET: `skills:${n}` }),
  },
  {
    id: 'skillport-cli',
    label: 'skillport serve DIR (CLI, N SKILL.md files, default page of 50)',
    argv: (_n, dir) => ['bin/skillport.js', 'serve', dir],
    env: () => ({}),
  },
  {
    id: 'v1',
    label: 'SDK v1 McpServer, N registerPrompt',
    argv: () => ['bench/servers/sdk-v1.mjs', 'stdio'],
    env: (n) => ({ BENCH_SET: `skills:${n}` }),
    peer: true,
  },
  {
    id: 'v2',
    label: 'SDK v2 serveStdio, N registerPrompt',
    argv: () => ['bench/servers/sdk-v2.mjs', 'stdio'],
    env: (n) => ({ BENCH_SET: `skills:${n}` }),
    peer: true,
  },
  { id: 'fastmcp', label: 'FastMCP, N addPrompt', argv: () => ['bench/servers/fastmcp.mjs', 'stdio'], env: (n) => ({ BENCH_SET: `skills:${n}` }), peer: true },
];
