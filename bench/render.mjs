#!/usr/bin/env node
// RESULTS.json -> RESULTS.md. `render(data)` is pure: the report states the
// data of one run and nothing else (where time goes comes from the profiles
// in the data). From the shell:
//   node bench/render.mjs bench/RESULTS.json [--out=FILE]   (default: FILE.md next to it)
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, percentile } from './lib/stats.mjs';

const ERA = { legacy: '2025-11-25', modern: '2026-07-28' };
const cellText = (s) => String(s).replace(/\|/g, '/');

function value(unit, x) {
  if (x === null || x === undefined) return 'n/a';
  if (unit === 'ratio') return fmt.ratio(x);
  if (unit === 'ms') return `${fmt.ms(x)} ms`;
  if (unit === 'fraction') return fmt.pct(x);
  return String(x);
}

function margin(t, c) {
  if (c.margin === null || c.margin === undefined) return '';
  const sign = c.margin >= 0 ? '+' : '−';
  const size = Math.abs(c.margin);
  if (t.margin === 'relative') return `${sign}${(size * 100).toFixed(1)}%`;
  if (t.unit === 'fraction') return `${sign}${(size * 100).toFixed(1)} points`;
  return `${sign}${fmt.ms(size)} ${t.unit}`;
}

function targets(p, list) {
  p('## Targets');
  p();
  p(
    'Each cell is read from this run’s data (the path is in RESULTS.json). Margin: how far the cell is from its bound, positive when met; relative to the bound for ratios and p99, absolute otherwise.',
  );
  p();
  p('| Target | Status | Cell | Value | Bound | Cell result | Margin |');
  p('|---|---|---|---:|---:|---|---:|');
  for (const t of list) {
    t.cells.forEach((c, i) => {
      const bound =
        c.bound === null ? (t.threshold === null ? 'reported' : 'n/a') : `${t.op} ${value(t.unit, c.bound)}${c.boundFrom ? ` (${c.boundFrom})` : ''}`;
      const result = c.met === null ? (t.threshold === null ? 'reported' : 'not measured') : c.met ? 'met' : '**missed**';
      p(
        `| ${i === 0 ? cellText(t.what) : ''} | ${i === 0 ? (t.status === 'missed' ? '**missed**' : t.status) : ''} | ${c.label} | ${value(t.unit, c.value)} | ${bound} | ${result} | ${margin(t, c)} |`,
      );
    });
  }
  p();
}

function profiles(p, list) {
  p('## Where the time goes (missed target cells)');
  p();
  p(
    'CPU profiles of skillport and of the floor on each missed cell, taken after the timed rounds. Self time is divided by the requests completed while profiling (HTTP) or counted for the one start (cold start). The profiler samples on a wall-clock timer, so time the server thread spends descheduled (on this machine the load generator shares the cores) is counted in whatever function it was in, mostly the socket write that wakes the client; "CPU time" is the process’s CPU time over the same window from /proc (all threads), for scale.',
  );
  p();
  for (const prof of list) {
    const { skillport: sp, floor } = prof;
    const scale = prof.unit.startsWith('µs') ? 1 : 1000; // profile times are µs
    const per = (side, us) => (side ? us / side.per / scale : Number.NaN);
    const num = (x) => fmt.n(x, prof.unit.startsWith('µs') ? 2 : 1);
    p(`### ${prof.title}`);
    p();
    p(`Missed: ${prof.misses.map((m) => `${m.target} (${m.cell})`).join(', ')}. ${prof.how}.`);
    if (prof.unit.startsWith('µs'))
      p(`skillport: ${fmt.n(sp.per)} requests (${fmt.n(sp.rps)} req/s) while profiled; floor: ${fmt.n(floor.per)} requests (${fmt.n(floor.rps)} req/s).`);
    else p(`skillport: ${fmt.n(sp.ms)} ms to the first list; floor: ${fmt.n(floor.ms)} ms.`);
    p();
    const { slowed } = prof;
    if (slowed) {
      p(
        `Floor slowed: the floor busy-waiting ${num(slowed.spinUs)} µs per request (skillport’s own extra time outside socket writes; the wait reads the clock, so it shows as other native). It answered ${fmt.n(slowed.rps)} req/s while profiled, against skillport’s ${fmt.n(sp.rps)} and the floor’s ${fmt.n(floor.rps)}. What it pays more than the floor in socket writes is a price of answering more slowly (the load generator, sharing the cores, sleeps more and each write wakes it), not of what is written; the rest of skillport’s extra write time is not explained by it.`,
      );
      p();
    }
    const areas = new Map();
    const sides = [
      ['sp', sp],
      ['floor', floor],
      ['slowed', slowed],
    ].filter(([, side]) => side);
    for (const [key, side] of sides) for (const a of side.byArea) areas.set(a.area, { ...areas.get(a.area), [key]: a.us });
    const rows = [...areas.entries()]
      .map(([area, v]) => ({ area, sp: per(sp, v.sp ?? 0), floor: per(floor, v.floor ?? 0), slowed: per(slowed, v.slowed ?? 0) }))
      .sort((a, b) => b.sp - a.sp);
    const extra = slowed ? ' floor slowed |' : '';
    p(`| Area | skillport, ${prof.unit} | floor, ${prof.unit} | skillport − floor |${extra}`);
    p(`|---|---:|---:|---:|${slowed ? '---:|' : ''}`);
    const cell = (x) => (slowed ? ` ${num(x)} |` : '');
    for (const r of rows.slice(0, 12)) p(`| ${cellText(r.area)} | ${num(r.sp)} | ${num(r.floor)} | ${num(r.sp - r.floor)} |${cell(r.slowed)}`);
    const busy = (side) => per(side, side ? side.busyMs * 1000 : 0);
    p(`| all non-idle samples | ${num(busy(sp))} | ${num(busy(floor))} | ${num(busy(sp) - busy(floor))} |${cell(busy(slowed))}`);
    p(`| CPU time (/proc) | ${num(sp.cpuPer)} | ${num(floor.cpuPer)} | ${num(sp.cpuPer - floor.cpuPer)} |${cell(slowed?.cpuPer)}`);
    p();
    const fnTable = (title, side, fns) => {
      if (!fns?.length) return;
      p(title);
      p();
      p(`| Function | Location | ${prof.unit} | share of non-idle |`);
      p('|---|---|---:|---:|');
      for (const f of fns) p(`| ${cellText(f.name)} | ${f.where || '(native)'} | ${num(per(side, f.us))} | ${fmt.pct(f.share)} |`);
      p();
    };
    fnTable('skillport, top functions by self time:', sp, sp.functions);
    fnTable('skillport’s own functions (dist/) by self time:', sp, sp.own);
    fnTable('floor, top functions by self time:', floor, floor.functions.slice(0, 6));
  }
}

function http(p, h) {
  p('## HTTP throughput and latency');
  p();
  p(
    'Every contender serves the same prompts (see Method). "÷ floor" and "÷ skillport": req/s ratios against the floor and skillport on the same revision in the same round, median over rounds. "CPU µs/req": the server process’s CPU time over the cell (all threads, /proc schedstat) ÷ completed requests; "CPU eff." is the floor’s (or skillport’s) CPU per request ÷ the contender’s, read like the req/s ratio.',
  );
  for (const w of h.workloads) {
    p();
    p(`### ${w.label}`);
    p();
    p('| Contender | Revision | req/s | p50 ms | p99 ms | ÷ floor | ÷ skillport | CPU µs/req | CPU eff. ÷ floor | CPU eff. ÷ skillport |');
    p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of Object.values(h.table[w.id] ?? {})) {
      p(
        `| ${r.label} | ${ERA[r.era]} | ${fmt.n(r.rps)} | ${fmt.ms(r.p50)} | ${fmt.ms(r.p99)} | ${fmt.ratio(r.toFloor)} | ${fmt.ratio(r.toSkillport)} | ${fmt.n(r.cpuUs, 1)} | ${fmt.ratio(r.cpuToFloor)} | ${fmt.ratio(r.cpuToSkillport)} |`,
      );
    }
  }
  p();
  p('### Resident memory of each HTTP server');
  p();
  p('| Contender | RSS idle (first round) | RSS after the last round | peak RSS (highest round) |');
  p('|---|---:|---:|---:|');
  for (const m of h.memory) p(`| ${m.label} | ${fmt.mb(m.idle)} | ${fmt.mb(m.after)} | ${fmt.mb(m.peak)} |`);
  p();
}

function completion(p, c) {
  p('## completion/complete in-process (100,000 values)');
  p();
  p(
    `\`createServer\` from dist/index.js, \`server.connect(peer).receive(message)\`: ${fmt.n(c.n)} calls over ${c.rounds} interleaved rounds, cycling through all ${c.prefixes} two-letter prefixes, after 1,000 warm-up calls per round; medians over rounds.`,
  );
  p();
  p('| Path | p50 ms | p99 ms | max ms |');
  p('|---|---:|---:|---:|');
  p(`| receive(), 2026-07-28 \`_meta\` | ${fmt.ms(c.modern.p50)} | ${fmt.ms(c.modern.p99)} | ${fmt.ms(c.modern.max)} |`);
  p(`| receive(), 2025-11-25 session | ${fmt.ms(c.legacy.p50)} | ${fmt.ms(c.legacy.p99)} | ${fmt.ms(c.legacy.max)} |`);
  p(`| createCompletionIndex().complete() | ${fmt.ms(c.index.p50)} | ${fmt.ms(c.index.p99)} | ${fmt.ms(c.index.max)} |`);
  p(`| receive(), prefixes no value starts with (q9, z7, x1) | ${fmt.ms(c.miss.p50)} | ${fmt.ms(c.miss.p99)} | ${fmt.ms(c.miss.max)} |`);
  p();
  p(`createCompletionIndex over 100,000 values: ${fmt.ms(c.index.build)} ms.`);
  p();
}

function stdio(p, s) {
  p('## stdio');
  p();
  p(
    `Each contender in a new process per round, warmed up with ${s.warmup ?? 0} s of sequential calls (as long as an HTTP cell's warm-up), then ${fmt.n(s.n)} sequential prompts/get round trips (each waits for its answer), then ${s.pipeN ? `${fmt.n(s.n)} pipelined (written at once, not timed: the first pipelined batch of a process is mostly its code being compiled), then ${fmt.n(s.pipeN)} pipelined, timed from the write of lines built beforehand` : `${fmt.n(s.n)} pipelined (written at once)`}; raw newline-delimited JSON-RPC from the parent. Ratios per round against the floor and skillport on the same revision, median over rounds. CPU µs/req: the server process’s CPU time ÷ requests.`,
  );
  p();
  p(
    '| Contender | Revision | sequential rt/s | p50 ms | p99 ms | pipelined req/s | seq CPU µs/req | pipe CPU µs/req | seq ÷ floor | pipe ÷ floor | seq ÷ skillport | pipe ÷ skillport |',
  );
  p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of Object.values(s.table)) {
    p(
      `| ${r.label} | ${ERA[r.era]} | ${fmt.n(r.seqRps)} | ${fmt.ms(r.p50)} | ${fmt.ms(r.p99)} | ${fmt.n(r.pipeRps)} | ${fmt.n(r.seqCpuUs, 1)} | ${fmt.n(r.pipeCpuUs, 1)} | ${fmt.ratio(r.seqToFloor)} | ${fmt.ratio(r.pipeToFloor)} | ${fmt.ratio(r.seqToSkillport)} | ${fmt.ratio(r.pipeToSkillport)} |`,
    );
  }
  p();
}

function cold(p, c) {
  const sizes = c.sizes;
  const n = (x) => Number(x).toLocaleString('en-US');
  p('## Cold start to the first prompts/list');
  p();
  p(
    'Spawn over stdio, initialize, initialized, prompts/list; the clock stops at the list result, RSS is read from /proc right after it. Every contender but the CLI holds the same N prompts (names, descriptions, ~1 KB bodies) in code and lists all N in one page; the CLI reads N `SKILL.md` files (YAML frontmatter + the same body) and answers with its default page. "over floor": ms minus the floor’s in the same round, median over rounds.',
  );
  p();
  p(`Skill bytes on disk: ${sizes.map((x) => `${n(x)} skills = ${fmt.mb(c.bytes[x])}`).join(', ')}.`);
  p();
  p(
    `| Contender | ${sizes.map((x) => `N=${n(x)} ms`).join(' | ')} | ${sizes.map((x) => `over floor N=${n(x)}`).join(' | ')} | ${sizes.map((x) => `RSS N=${n(x)}`).join(' | ')} | RSS per prompt | listed at N=${n(sizes.at(-1))} |`,
  );
  p(`|---|${sizes.map(() => '---:').join('|')}|${sizes.map(() => '---:').join('|')}|${sizes.map(() => '---:').join('|')}|---:|---:|`);
  for (const r of c.table) {
    const big = r.sizes[sizes.at(-1)];
    p(
      `| ${r.label} | ${sizes.map((x) => fmt.n(r.sizes[x].ms)).join(' | ')} | ${sizes.map((x) => `${fmt.n(r.sizes[x].overFloorMs)} ms`).join(' | ')} | ${sizes.map((x) => fmt.mb(r.sizes[x].rss)).join(' | ')} | ${fmt.kb(r.rssPerPrompt)} | ${fmt.n(big.listed)}${big.paged ? ' (paged)' : ''} |`,
    );
  }
  p();
}

function memory(p, m) {
  const runs = Object.values(m.runs);
  if (!runs.length) return;
  p('## Resident memory over a sustained run');
  p();
  p(
    'A fresh server (skillport: first given 1,100 legacy sessions opened with initialize + initialized and then abandoned; the SDK v1 comparison is not pre-filled) runs prompts/get at 8 connections while four more clients keep opening 2025-11-25 sessions (initialize, initialized, one prompts/get), closing every other one with DELETE and abandoning the rest. RSS is sampled every 250 ms. The first half of the run is warm-up; "start" is the median RSS at 45–55% of the run, "end" the median of the last tenth, "max" the highest sample in the second half. The V8 heap figures come from the server’s own `process.memoryUsage()` over the same windows.',
  );
  p();
  p(
    '| Server | seconds | load revision | req/s | pre-filled sessions | sessions opened (deleted / abandoned) | RSS start | RSS end | RSS max | growth | max growth | heap start | heap end | heap growth |',
  );
  p('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of runs) {
    p(
      `| ${r.label} | ${r.seconds} | ${ERA[r.loadEra]} | ${fmt.n(r.rps)} | ${fmt.n(r.prefilled)} | ${fmt.n(r.sessions)} (${fmt.n(r.deleted)} / ${fmt.n(r.sessions - r.deleted)}) | ${fmt.mb(r.base)} | ${fmt.mb(r.end)} | ${fmt.mb(r.max)} | ${fmt.pct(r.growth)} | ${fmt.pct(r.maxGrowth)} | ${fmt.mb(r.heapStart)} | ${fmt.mb(r.heapEnd)} | ${fmt.pct(r.heapGrowth)} |`,
    );
  }
  p();
  for (const r of runs) {
    p(`- ${r.label}, RSS every 2 s (MB): ${r.series.map((x) => (x / 1048576).toFixed(0)).join(' ')}`);
    if (r.heapSeries?.length) p(`- ${r.label}, V8 heap used every 2 s (MB): ${r.heapSeries.map((x) => (x / 1048576).toFixed(0)).join(' ')}`);
  }
  p();
}

function reload(p, r) {
  p(`## Reload (\`skillport serve DIR --watch\`, ${r.skills} skills)`);
  p();
  if (r.latencies.length) {
    p(
      `- SKILL.md write (writeFileSync returning) to \`notifications/prompts/list_changed\` at a subscribed 2025-11-25 stdio client, ${r.latencies.length} writes 200 ms apart: p50 ${fmt.ms(median(r.latencies))} ms, p90 ${fmt.ms(percentile(r.latencies, 90))} ms, max ${fmt.ms(Math.max(...r.latencies))} ms. The next prompts/list shows the new description: ${r.reflected ? 'yes' : 'no'}.`,
    );
  }
  if (r.large?.length)
    p(`- The same write with 1,000 skills in the folder: ${r.large.map((x) => fmt.n(x)).join(', ')} ms (median ${fmt.n(median(r.large))} ms).`);
  if (r.stdio) {
    p(
      `- stdio, pipelined prompts/list in windows of at least ${r.windowMs} ms (chunks of 1,000; 4 quiet and 4 busy windows alternating; medians): ${fmt.n(r.stdio.quiet)} req/s quiet, ${fmt.n(r.stdio.busy)} req/s while a SKILL.md is rewritten every 100 ms (${r.stdio.writes} writes, ${r.stdio.reloads} list_changed notifications during the busy windows): ${fmt.ratio(r.stdio.ratio)} of quiet.`,
    );
  }
  if (r.http) {
    p(
      `- HTTP (2026-07-28), prompts/list at 8 connections (4 quiet and 4 busy windows alternating; medians): ${fmt.n(r.http.quiet.rps)} req/s quiet (p99 ${fmt.ms(r.http.quiet.p99)} ms), ${fmt.n(r.http.busy.rps)} req/s (p99 ${fmt.ms(r.http.busy.p99)} ms) while a SKILL.md is rewritten every 200 ms (${r.http.writes} writes): ${fmt.ratio(r.http.ratio)} of quiet.`,
    );
  }
  p();
}

function method(p, data) {
  const c = data.config;
  p('## Method');
  p();
  p(
    `- Prompts: 3 small prompts with arguments, the same ~4 KB body twice (static_4k and static_4k_get), a prompt whose argument completes over 100,000 values, 1,000 generated prompts. skillport declares static_4k with a fixed \`output\` and every other prompt with \`get\` (bench/servers/skillport.mjs), and is given a page size of at least the set size so prompts/list carries the whole set, as every peer sends it.`,
  );
  p(
    '- Requests carry what a real client sends: 2025-11-25 after one initialize, with Mcp-Session-Id (when issued) and MCP-Protocol-Version; 2026-07-28 with MCP-Protocol-Version, Mcp-Method, Mcp-Name and the per-request `_meta`. Every request has a fresh id. The completion workload cycles through 8 two-letter prefixes; the in-process completion figures cycle through all 676.',
  );
  p(
    '- The floor (bench/servers/floor.mjs) parses each request body and answers with bytes built on first use: the id spliced into a precomputed answer, a flat header array with Content-Length, one `end()` per response, keep-alive; over stdio, lines split on Buffers and one write per input chunk. Every answer of every contender is checked for content before it is timed.',
  );
  p(
    '- Peers, as their documentation shows them: SDK v1 stateless builds a McpServer + transport per request (`sessionIdGenerator: undefined`, `enableJsonResponse: true`); SDK v1 stateful keeps one per session with SSE-framed POST responses (its default); SDK v2 uses `createMcpHandler` with a per-request factory and its default stateless legacy fallback, mounted with @hono/node-server; FastMCP uses httpStream with sessions. Zod schemas are built once and shared. Peer completion is user code (`values.filter(v => v.startsWith(prefix))`).',
  );
  p(
    `- Each server runs in its own child process on 127.0.0.1; the load generator (autocannon for HTTP, a raw line client for stdio) runs in the parent, so on ${data.machine.cores} cores the generator and the server share the CPU.`,
  );
  p(
    `- HTTP: ${c.rounds} round(s) × ${c.duration} s per cell at ${c.connections} connections, every contender in new processes each round (one process can run the same code several percent faster or slower than another for its whole life), the contender order rotating each round, a ${c.warmup} s warm-up per cell in each round. Latency percentiles come from autocannon’s per-response times; requests still in flight when a cell’s window closes are not counted, so a contender whose requests take close to the window has its p99 capped by it.`,
  );
  p();
}

export function render(data) {
  const { machine: m, config: c, results: R } = data;
  const L = [];
  const p = (s = '') => L.push(s);
  p('# skillport benchmark results');
  p();
  p(
    `Written by \`${m.viaNpm ? 'npm run bench' : 'node bench/run.mjs'}${data.quick ? ' --quick' : ''}\`, rendered from RESULTS.json by bench/render.mjs. Every ratio compares contenders measured in the same round on the same machine, the median over ${c.rounds} round(s). Absolute figures hold for this machine only.`,
  );
  p();
  p('## Machine');
  p();
  p(`- CPU: ${m.cpu}, ${m.cores} cores; memory ${fmt.mb(m.memory)}; ${m.platform}`);
  p(`- Node ${m.node} (${m.nodeShown ?? m.nodePath}); every server child runs on the same binary`);
  p(
    `- Date: ${m.date}; the run took ${R.tookSeconds} s (${Object.entries(R.phaseSeconds)
      .map(([k, v]) => `${k} ${v} s`)
      .join(', ')})`,
  );
  p(
    `- Load average at start: ${m.load.map((x) => x.toFixed(2)).join(', ')}; at the end: ${(m.loadEnd ?? []).map((x) => x.toFixed(2)).join(', ') || 'n/a'} (above ${m.cores} means other work competed for the CPU)`,
  );
  p(`- Skills folders: ${m.tmpFs}`);
  p();
  if (R.targets?.length) targets(p, R.targets);
  if (R.profiles?.length) profiles(p, R.profiles);
  if (R.unavailable.length) {
    p('## Not measured');
    p();
    for (const u of R.unavailable) p(`- ${u.what}: ${cellText(u.why)}`);
    p();
  }
  if (R.http) http(p, R.http);
  if (R.completion) completion(p, R.completion);
  if (R.stdio) stdio(p, R.stdio);
  if (R.cold) cold(p, R.cold);
  if (R.memory) memory(p, R.memory);
  if (R.reload) reload(p, R.reload);
  if (R.notes.length) {
    p('## Notes');
    p();
    for (const n of R.notes) p(`- ${n}`);
    p();
  }
  method(p, data);
  return `${L.join('\n')}`;
}

/** Renders FILE.json to `out` (default: FILE.md). */
export function renderFile(file, out = file.replace(/\.json$/, '.md')) {
  writeFileSync(out, `${render(JSON.parse(readFileSync(file, 'utf8')))}\n`);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) {
    console.error('usage: node bench/render.mjs RESULTS.json [--out=FILE]');
    process.exit(2);
  }
  const out = process.argv.find((a) => a.startsWith('--out='))?.slice(6);
  console.log(`Rendered ${renderFile(resolve(file), out && resolve(out))}`);
}
