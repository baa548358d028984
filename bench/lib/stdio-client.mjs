// A raw newline-delimited JSON-RPC client over a child's stdio: no SDK in the
// measurement path, so the figures are the server's.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CLIENT_INFO, LEGACY_VERSION, META } from './wire.mjs';

export function spawnStdio(command, args, { env = {}, cwd } = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env }, cwd });
  const pending = new Map();
  const listeners = new Set();
  let buffer = '';
  let stderr = '';
  let exited;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.stdin.on('error', () => {});
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let at;
    while ((at = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.trim()) continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // a framework's stray log line
      }
      if (message.id !== undefined && ('result' in message || 'error' in message)) {
        const waiter = pending.get(message.id);
        if (waiter) {
          pending.delete(message.id);
          waiter(message);
        }
      } else {
        for (const l of listeners) l(message);
      }
    }
  });
  let nextId = 1;
  const client = {
    child,
    t0,
    pid: child.pid,
    stderr: () => stderr,
    exited: () => exited,
    exit,
    onNotification(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    write(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    request(method, params, { era = 'legacy', timeoutMs = 30_000 } = {}) {
      const id = nextId++;
      const p = era === 'modern' ? { ...(params ?? {}), _meta: META } : params;
      const message = p === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: p };
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method} timed out after ${timeoutMs} ms; exited=${JSON.stringify(exited)} stderr: ${stderr.trim().slice(-300)}`));
        }, timeoutMs);
        pending.set(id, (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        exit.then((e) => {
          if (pending.delete(id)) {
            clearTimeout(timer);
            reject(new Error(`server exited (${JSON.stringify(e)}) before answering ${method}; stderr: ${stderr.trim().slice(-300)}`));
          }
        });
        client.write(message);
      });
    },
    /**
     * A lean round-trip function for timing loops: the line is precomputed
     * around the id and no timer is armed per call (the caller bounds the
     * whole loop), so the client's own cost per request stays small.
     */
    caller(method, params, { era = 'legacy' } = {}) {
      const p = era === 'modern' ? { ...(params ?? {}), _meta: META } : params;
      const [pre, post] = JSON.stringify({ jsonrpc: '2.0', id: '__ID__', method, params: p }).split('"__ID__"');
      return () => {
        const id = nextId++;
        const answered = new Promise((resolve) => pending.set(id, resolve));
        child.stdin.write(`${pre}${id}${post}\n`);
        return answered;
      };
    },
    /** Sends `count` requests at once; resolves when all are answered. */
    pipelined(count, method, params, options) {
      return this.batch(count, method, params, options).send();
    },
    /**
     * `count` requests made ready to send at once: their lines are written
     * when `send` is called, which resolves when all are answered. A timed
     * batch is made before its clock starts, so the time is the server's
     * (and reading its answers), not this process building 20,000 lines.
     */
    batch(count, method, params, { era = 'legacy', timeoutMs = 60_000 } = {}) {
      const p = era === 'modern' ? { ...(params ?? {}), _meta: META } : params;
      let lines = '';
      const ids = [];
      for (let i = 0; i < count; i++) {
        const id = nextId++;
        ids.push(id);
        lines += `${JSON.stringify({ jsonrpc: '2.0', id, method, params: p })}\n`;
      }
      return {
        send() {
          const all = Promise.all(ids.map((id) => new Promise((resolve) => pending.set(id, resolve))));
          child.stdin.write(lines);
          let timer;
          return Promise.race([
            all.finally(() => clearTimeout(timer)),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`pipelined ${method} timed out`)), timeoutMs);
            }),
          ]);
        },
      };
    },
    async handshake(era = 'legacy') {
      if (era === 'modern') {
        const r = await client.request('server/discover', {}, { era: 'modern' });
        if (!r.result) throw new Error(`server/discover failed: ${JSON.stringify(r.error)}`);
        return r;
      }
      const r = await client.request('initialize', { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
      if (!r.result) throw new Error(`initialize failed: ${JSON.stringify(r.error)}`);
      client.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return r;
    },
    async close() {
      if (exited) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 3000);
      const timer2 = setTimeout(() => child.kill('SIGKILL'), 6000);
      await exit;
      clearTimeout(timer);
      clearTimeout(timer2);
    },
  };
  return client;
}
