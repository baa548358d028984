// Child processes: spawn a server, wait for its READY line, read its memory
// from /proc, stop it. Every server binds 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resident set size of a pid in bytes (Linux /proc), or NaN. */
export function rss(pid) {
  return procField(pid, 'VmRSS');
}
/**
 * CPU time a pid has used, all threads, in ms: the nanosecond run time of
 * each thread from /proc/PID/task/TID/schedstat, or (without schedstat) user +
 * system time from /proc/PID/stat in 10 ms ticks. NaN when the pid is gone.
 */
export function cpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended between the listing and the read
      }
    }
    if (ns > 0) return ns / 1e6;
  } catch {
    // no schedstat: fall back to ticks
  }
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Peak resident set size in bytes. */
export function peakRss(pid) {
  return procField(pid, 'VmHWM');
}
function procField(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts an HTTP bench server: `node [nodeArgs] script http PORT [variant]`,
 * resolves once it prints READY <url>. Rejects with the reason on
 * UNAVAILABLE, exit or timeout.
 */
export async function startHttpServer({ script, variant = '', env = {}, nodeArgs = [], args, timeoutMs = 30_000 }) {
  const port = await freePort();
  const argv = args ? args(port) : [script, 'http', String(port), variant];
  const child = spawn(process.execPath, [...nodeArgs, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => finish(new Error(`no READY within ${timeoutMs} ms; stderr: ${stderr.trim().slice(-500)}`)), timeoutMs);
    function finish(error, value) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(value);
    }
    function onData(d) {
      out += d;
      const unavailable = /^UNAVAILABLE (.*)$/m.exec(out);
      if (unavailable) return finish(new Error(unavailable[1]));
      const ok = /^READY (\S+)$/m.exec(out);
      if (ok) return finish(undefined, ok[1]);
    }
    function onExit(code) {
      finish(new Error(`exited with ${code} before READY; stderr: ${stderr.trim().slice(-500)}`));
    }
    child.stdout.on('data', onData);
    child.on('exit', onExit);
  });
  // Keep draining stdout (logs) so the pipe never fills.
  child.stdout.resume();
  return {
    url,
    port,
    pid: child.pid,
    child,
    stderr: () => stderr,
    rss: () => rss(child.pid),
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then SIGKILL after a grace period; resolves on exit. */
export function stopChild(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
