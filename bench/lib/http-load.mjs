// Fixed-concurrency HTTP load with autocannon's programmatic API. Latency
// percentiles come from autocannon's per-response times (float ms), recorded
// here, because its own histogram stores whole milliseconds.
import { createRequire } from 'node:module';
import { percentile } from './stats.mjs';
import { requestBody, requestHeaders } from './wire.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

/**
 * Runs one cell: `workload` in `era` against `url` for `duration` seconds at
 * `connections` concurrency. Every request gets a fresh JSON-RPC id (a real
 * client never reuses one inside a session).
 */
export function runLoad({ url, era, session, workload, connections, duration }) {
  const { pathname } = new URL(url);
  const headers = requestHeaders(era, session, workload);
  // Bodies are precomputed around the id, so the generator's own cost per
  // request is one string concat for every contender (the floor is close to
  // generator-bound on 2 cores).
  const variants = Array.from({ length: workload.variants ?? 1 }, (_, k) => requestBody(era, workload.method, workload.params(k), '__ID__').split('"__ID__"'));
  let n = 1;
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        pipelining: 1,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: pathname,
            headers,
            setupRequest: (req) => {
              const id = n++;
              const [pre, post] = variants[id % variants.length];
              req.body = pre + id + post;
              return req;
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const ok = latencies.length;
        resolve({
          rps: ok / (result.duration || duration),
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          requests: ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}
