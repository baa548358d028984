// Timed HTTP cells as the side-by-side scripts take them (bench/ab.mjs,
// bench/tracing.mjs, bench/split.mjs): the servers started afresh each round,
// each one's sessions opened once per era, then one cell after another, the
// server's CPU read around the load.
import { runLoad } from './http-load.mjs';
import { cpuMs, startHttpServer, stopChild } from './proc.mjs';
import { openEra } from './wire.mjs';

/**
 * `rounds` rounds, each on servers started afresh from `contenders` (name →
 * startHttpServer's options) with their sessions open in every era:
 * `round(servers, sessions, index)` times its cells, and the servers stop
 * after it. One process can run the same code several percent faster or
 * slower than another for its whole life (PERFORMANCE.md, "Judging a
 * change"); a ratio taken from one pair of processes would carry that luck
 * into every round.
 */
export async function freshRounds(rounds, contenders, eras, round) {
  for (let index = 0; index < rounds; index++) {
    const servers = {};
    try {
      for (const [name, options] of Object.entries(contenders)) servers[name] = await startHttpServer(options);
      await round(servers, await openSessions(servers, eras), index);
    } finally {
      for (const server of Object.values(servers)) await stopChild(server.child);
    }
  }
}

/** The headers each server's requests carry in each era, by `${name} ${era}`. */
export async function openSessions(servers, eras) {
  const sessions = {};
  for (const name of Object.keys(servers)) for (const era of eras) sessions[`${name} ${era}`] = await openEra(servers[name].url, era);
  return sessions;
}

/**
 * One timed cell of `workload` in `era` on server `name`, 16 connections:
 * its req/s and the server's CPU µs per request (all threads), after 0.5 s
 * of load, untimed (each round's servers are fresh). Then a pause of
 * 150 ms, so the next cell starts on a quiet machine.
 */
export async function timeCell(servers, sessions, name, { workload, era, duration }) {
  const server = servers[name];
  const options = { url: server.url, era, session: sessions[`${name} ${era}`], workload, connections: 16 };
  await runLoad({ ...options, duration: 0.5 });
  const cpu = cpuMs(server.pid);
  const result = await runLoad({ ...options, duration });
  const sample = { rps: result.rps, cpuUs: ((cpuMs(server.pid) - cpu) * 1000) / result.requests };
  await new Promise((done) => setTimeout(done, 150));
  return sample;
}
