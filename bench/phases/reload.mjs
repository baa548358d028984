// Reload (`skillport serve DIR --watch`): time from a SKILL.md write to
// notifications/prompts/list_changed at a subscribed stdio client, and
// prompts/list throughput (stdio and HTTP) while files are rewritten.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { runLoad } from '../lib/http-load.mjs';
import { freePort, stopChild } from '../lib/proc.mjs';
import { median } from '../lib/stats.mjs';
import { spawnStdio } from '../lib/stdio-client.mjs';
import { BASE_HEADERS, MODERN_VERSION, post, requestBody, WORKLOADS } from '../lib/wire.mjs';

/** Length of each quiet or busy window of the stdio throughput measurement. */
const WINDOW_MS = 700;
const LIST = WORKLOADS.find((w) => w.id === 'list');

function listChanged(client) {
  let waiter;
  let count = 0;
  client.onNotification((m) => {
    if (m.method !== 'notifications/prompts/list_changed') return;
    count++;
    waiter?.(performance.now());
  });
  return {
    count: () => count,
    next(timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notifications/prompts/list_changed within ${timeoutMs} ms of a SKILL.md write`)), timeoutMs);
        waiter = (t) => {
          clearTimeout(timer);
          waiter = undefined;
          resolve(t);
        };
      });
    },
  };
}

/** Runs `quiet` and `busy` windows alternately (quiet first, then busy first, ...) so order effects cancel out. */
async function alternate(times, quiet, busy) {
  for (let i = 0; i < times; i++) {
    if (i % 2 === 0) {
      await quiet();
      await busy();
    } else {
      await busy();
      await quiet();
    }
  }
}

export default async function reload({ cfg, root, rel, log, sleep, note, unavailable, skills }) {
  log('\n== reload: file write -> list_changed at a subscribed client ==');
  const { dir } = skills.make(100);
  const out = { skills: 100, windowMs: WINDOW_MS, latencies: [] };
  const serve = (folder) => spawnStdio(process.execPath, [rel('bin/skillport.js'), 'serve', folder, '--watch'], { cwd: root });
  const client = serve(dir);
  try {
    await client.handshake('legacy');
    const first = await client.request('prompts/list');
    if (!first.result?.prompts?.length) throw new Error(`prompts/list: ${JSON.stringify(first).slice(0, 200)}`);
    await sleep(500);
    const changes = listChanged(client);
    for (let k = 1; k <= cfg.reloads; k++) {
      const got = changes.next(5000);
      const t0 = performance.now();
      skills.rewrite(dir, 1, `Reloaded description ${k}.`);
      out.latencies.push((await got) - t0);
      await sleep(200);
    }
    const list = await client.request('prompts/list');
    out.reflected = JSON.stringify(list.result).includes(`Reloaded description ${cfg.reloads}.`);
    // Pipelined prompts/list in chunks of 1,000 for at least WINDOW_MS, quiet
    // or with a SKILL.md rewrite every 100 ms.
    const window = async () => {
      const t = performance.now();
      let sent = 0;
      while (performance.now() - t < WINDOW_MS) {
        await client.pipelined(1000, 'prompts/list', undefined);
        sent += 1000;
      }
      return sent / ((performance.now() - t) / 1000);
    };
    await window();
    const quiet = [];
    const busy = [];
    let writes = 0;
    const before = changes.count();
    await alternate(
      4,
      async () => quiet.push(await window()),
      async () => {
        const writer = setInterval(() => skills.rewrite(dir, 2, `Churn ${writes++}.`), 100);
        try {
          busy.push(await window());
        } finally {
          clearInterval(writer);
        }
        await sleep(300); // the last reload finishes before a quiet window
      },
    );
    out.stdio = { quiet: median(quiet), busy: median(busy), ratio: median(busy) / median(quiet), writes, reloads: changes.count() - before };
  } catch (error) {
    unavailable('reload over stdio (skillport serve DIR --watch)', error.message);
  } finally {
    await client.close();
  }
  // The same write with 1,000 skills in the folder.
  try {
    const big = skills.make(1000);
    const c = serve(big.dir);
    try {
      await c.handshake('legacy');
      await c.request('prompts/list', undefined, { timeoutMs: 60_000 });
      await sleep(500);
      const changes = listChanged(c);
      out.large = [];
      for (let k = 1; k <= 3; k++) {
        const got = changes.next(15_000);
        const t0 = performance.now();
        skills.rewrite(big.dir, 1, `Reloaded large ${k}.`);
        out.large.push((await got) - t0);
        await sleep(300);
      }
    } finally {
      await c.close();
    }
  } catch (error) {
    note(`Reload latency with 1,000 skills: ${error.message.slice(0, 200)}`);
  }
  // HTTP (2026-07-28), prompts/list at 8 connections, quiet or with a rewrite every 200 ms.
  try {
    const s = await startCliHttp(rel, root, dir, sleep);
    try {
      const run = (duration) => runLoad({ url: s.url, era: 'modern', session: {}, workload: LIST, connections: 8, duration });
      await run(cfg.warmup);
      const quiet = [];
      const busy = [];
      let writes = 0;
      await alternate(
        4,
        async () => quiet.push(await run(cfg.duration / 2)),
        async () => {
          const writer = setInterval(() => skills.rewrite(dir, 2, `Churn http ${writes++}.`), 200);
          try {
            busy.push(await run(cfg.duration / 2));
          } finally {
            clearInterval(writer);
          }
          await sleep(300);
        },
      );
      const pick = (runs) => ({ rps: median(runs.map((r) => r.rps)), p99: median(runs.map((r) => r.p99)) });
      out.http = { quiet: pick(quiet), busy: pick(busy), ratio: pick(busy).rps / pick(quiet).rps, writes };
    } finally {
      await s.stop();
    }
  } catch (error) {
    unavailable('reload over HTTP (skillport serve DIR --watch --http)', error.message);
  }
  if (out.latencies.length) log(`  write -> list_changed: p50 ${median(out.latencies).toFixed(1)} ms over ${out.latencies.length} writes`);
  return out;
}

/** `skillport serve DIR --watch --http 127.0.0.1:PORT`, ready when server/discover answers. */
async function startCliHttp(rel, root, dir, sleep) {
  const port = await freePort();
  const child = spawn(process.execPath, [rel('bin/skillport.js'), 'serve', dir, '--watch', '--http', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: root,
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`serve --http exited with ${child.exitCode}: ${stderr.trim().slice(-300)}`);
    try {
      const r = await post(url, requestBody('modern', 'server/discover', {}, 1), {
        ...BASE_HEADERS,
        'mcp-protocol-version': MODERN_VERSION,
        'mcp-method': 'server/discover',
      });
      if (r.status === 200) return { url, stop: () => stopChild(child) };
    } catch {}
    await sleep(100);
  }
  await stopChild(child);
  throw new Error(`serve --http did not answer within 15 s: ${stderr.trim().slice(-300)}`);
}
