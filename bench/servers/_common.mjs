// Shared plumbing for the bench servers: argv, the prompt set to serve, a
// ready line for the parent, and a clean exit on SIGTERM (so --cpu-prof
// profiles get written).
import { skillLike, standardSet } from '../lib/promptset.mjs';

/** argv: <http PORT | stdio> ; env BENCH_SET = standard | skills:N */
export function readArgs() {
  const [mode = 'stdio', port = '0', variant = ''] = process.argv.slice(2);
  return { mode, port: Number(port), variant };
}

export function promptSet() {
  const spec = process.env.BENCH_SET ?? 'standard';
  if (spec === 'standard') return standardSet();
  const count = Number(spec.split(':')[1]);
  return { values: [], prompts: skillLike(count) };
}

// BENCH_MEM_LOG=1: report the V8 heap every 250 ms on stderr, so a memory run
// can tell heap growth (live objects) from RSS growth (heap capacity, allocator).
if (process.env.BENCH_MEM_LOG) {
  setInterval(() => {
    const m = process.memoryUsage();
    process.stderr.write(`MEM ${m.heapUsed} ${m.heapTotal} ${m.external + m.arrayBuffers}\n`);
  }, 250).unref();
}

export function ready(url) {
  process.stdout.write(`READY ${url}\n`);
}

export function unavailable(reason) {
  process.stdout.write(`UNAVAILABLE ${String(reason).replace(/\s+/g, ' ')}\n`);
  process.exit(3);
}

// BENCH_CPU_PROFILE=<file>: SIGUSR2 starts the V8 CPU profiler (so start-up is
// left out); SIGTERM writes the profile to <file> before exiting.
let profiler;
if (process.env.BENCH_CPU_PROFILE) {
  const { Session } = await import('node:inspector');
  process.on('SIGUSR2', () => {
    if (profiler) return;
    profiler = new Session();
    profiler.connect();
    // A sample every 250 µs (V8's default is 1 ms): a few thousand per second of load.
    profiler.post('Profiler.enable', () => profiler.post('Profiler.setSamplingInterval', { interval: 250 }, () => profiler.post('Profiler.start')));
  });
}
function writeProfile() {
  if (!profiler) return Promise.resolve();
  return new Promise((resolve) => {
    profiler.post('Profiler.stop', async (error, result) => {
      if (!error) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(result.profile));
      }
      resolve();
    });
  });
}

export function onTerm(close) {
  const stop = async () => {
    try {
      await writeProfile();
      await close?.();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Reads a node:http request body as a string. */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
