// Timed HTTP cells as the side-by-side scripts take them (bench/ab.mjs,
// bench/tracing.mjs, bench/split.mjs): each server's sessions opened once per
// era, then one cell after another, the server's CPU read around the load.
import { runLoad } from './http-load.mjs';
import { cpuMs } from './proc.mjs';
import { openEra } from './wire.mjs';

/** The headers each server's requests carry in each era, by `${name} ${era}`. */
export async function openSessions(servers, eras) {
  const sessions = {};
  for (const name of Object.keys(servers)) for (const era of eras) sessions[`${name} ${era}`] = await openEra(servers[name].url, era);
  return sessions;
}

/**
 * One timed cell of `workload` in `era` on server `name`, 16 connections:
 * its req/s and the server's CPU µs per request (all threads). With `warm`,
 * 0.5 s of load first, untimed. Then a pause of 150 ms, so the next cell
 * starts on a quiet machine.
 */
export async function timeCell(servers, sessions, name, { workload, era, duration, warm }) {
  const server = servers[name];
  const options = { url: server.url, era, session: sessions[`${name} ${era}`], workload, connections: 16 };
  if (warm) await runLoad({ ...options, duration: 0.5 });
  const cpu = cpuMs(server.pid);
  const result = await runLoad({ ...options, duration });
  const sample = { rps: result.rps, cpuUs: ((cpuMs(server.pid) - cpu) * 1000) / result.requests };
  await new Promise((done) => setTimeout(done, 150));
  return sample;
}
