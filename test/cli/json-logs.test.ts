/**
 * `skillport serve --http --log-level debug --log-format json` as a real
 * process (the built bin): every line it writes to stderr is one JSON object
 * with time, level and msg; each request it answers has an entry of its own;
 * and no secret appears anywhere in what it wrote: not the bearer token
 * (from --auth-token or SKILLPORT_AUTH_TOKEN) nor a wrong one a client sent,
 * not the Redis password, the git source's password or the hook secret, not
 * a value a client put in a request's params.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';
import { startRedis } from '../cluster/_processes.js';
import { serveHttpRemote } from '../skills/git/_http-remote.js';
import { createRepo, skillMd } from '../skills/git/_repo.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A distinctive secret: what must never be seen in the log. */
const secret = (what: string) => `${what}-${randomBytes(9).toString('hex')}`;

interface Served {
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts `skillport serve ...args --http 127.0.0.1:0` logging JSON at debug; resolves once it serves. */
async function serve(args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--http', '127.0.0.1:0', '--log-level', 'debug', '--log-format', 'json'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = exitOf(child);
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  cleanups.push(stop);
  const url = await new Promise<string>((resolve, reject) => {
    // A safety net only: the wait is for the line that says where it serves.
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /"msg":"serving [^"]* at (http:[^ "]+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${stderr}`)));
  });
  return { url, stderr: () => stderr, stop };
}

/** A 2025-06-18 session, every request with `token` as its bearer token: the answers' statuses. */
async function session(url: string, token: string, calls: Array<[string, Record<string, unknown>]>): Promise<number[]> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  };
  const send = async (body: Record<string, unknown>) => {
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
    await response.text();
    return response;
  };
  const clientInfo = { name: 'json-logs', version: '1' };
  const opened = await send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
  const id = opened.headers.get('mcp-session-id');
  if (id === null) return [opened.status];
  headers['mcp-session-id'] = id;
  headers['mcp-protocol-version'] = '2025-06-18';
  const statuses = [opened.status, (await send({ method: 'notifications/initialized' })).status];
  for (const [i, [method, params]] of calls.entries()) statuses.push((await send({ id: i + 1, method, params })).status);
  return statuses;
}

interface Entry {
  time: string;
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** Every line of `stderr` as a JSON entry, each checked for time, level and msg. */
function entries(stderr: string): Entry[] {
  expect(stderr.endsWith('\n')).toBe(true);
  return stderr
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const entry = JSON.parse(line) as Entry;
      expect(entry.time, line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['debug', 'info', 'warn', 'error'], line).toContain(entry.level);
      expect(typeof entry.msg, line).toBe('string');
      return entry;
    });
}

/** What must never be in the log, in every form it could be written in. */
function expectNone(stderr: string, secrets: string[]): void {
  for (const value of secrets)
    for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) expect(stderr).not.toContain(form);
}

describe('serve --log-format json', () => {
  it('writes JSON lines, one per request at debug, and no token, Redis password or value a client sent', async () => {
    const token = secret('env-token');
    const wrong = secret('wrong-token');
    const typed = secret('typed');
    const redisPassword = secret('redis-pw');
    const dir = mkdtempSync(join(tmpdir(), 'skillport-json-logs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const redis = await startRedis(dir, { password: redisPassword });
    cleanups.push(() => redis.stop());
    const served = await serve([VALID, '--redis', redis.url], { PATH: process.env.PATH ?? '', SKILLPORT_AUTH_TOKEN: token });
    expect(await session(served.url, wrong, [])).toEqual([401]);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['prompts/list', {}],
      ['prompts/get', { name: 'greeting', arguments: { who: typed } }],
      ['prompts/get', { name: typed }],
      ['tools/call', { name: 'load_skill', arguments: { name: typed } }],
    ];
    expect(await session(served.url, token, calls)).toEqual([200, 202, 200, 200, 200, 200]);
    expect(await served.stop()).toBe(0);
    const log = served.stderr();
    expectNone(log, [token, wrong, typed, redisPassword]);
    const requests = entries(log).filter((entry) => entry.msg === 'request');
    expect(requests.map(({ method, id, outcome, code, prompt, tool }) => ({ method, id, outcome, code, prompt, tool }))).toEqual([
      { method: 'initialize', id: 0, outcome: 'ok' },
      { method: 'prompts/list', id: 1, outcome: 'ok' },
      { method: 'prompts/get', id: 2, outcome: 'ok', prompt: 'greeting' },
      // An unknown name is never written: it is the client's text.
      { method: 'prompts/get', id: 3, outcome: 'error', code: -32602 },
      { method: 'tools/call', id: 4, outcome: 'tool_error', tool: 'load_skill' },
    ]);
    for (const entry of requests) {
      expect(entry).toMatchObject({ level: 'debug', protocolVersion: '2025-06-18', transport: 'tcp', session: expect.any(String) });
      expect(typeof entry.durationMs).toBe('number');
      expect(Object.keys(entry)).not.toContain('params');
    }
  }, 90_000);

  it('shows no --auth-token, git password or hook secret, with a git source fetched over HTTPS', async () => {
    const token = secret('flag-token');
    const hookSecret = secret('hook');
    const password = secret('git-pw');
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Served over HTTPS.') });
    cleanups.push(() => r.remove());
    const remote = await serveHttpRemote({ repository: r.bare, user: 'reader', password, home: join(r.dir, 'backend-home'), dir: r.dir });
    cleanups.push(() => remote.close());
    const ca = join(r.dir, 'trusted.pem');
    writeFileSync(ca, remote.certificate);
    writeFileSync(join(r.env.HOME as string, '.gitconfig'), `[http]\n\tsslCAInfo = ${ca}\n`);
    const source = `git+${remote.url.replace('https://', `https://reader:${password}@`)}#main`;
    const flags = ['--auth-token', token, '--hook-secret-env', 'HOOK', '--cache-dir', r.cache, '--pull-interval', '0'];
    const served = await serve([source, ...flags], { ...r.env, HOOK: hookSecret });
    expect(await session(served.url, token, [['tools/call', { name: 'load_skill', arguments: { name: 'alpha' } }]])).toEqual([200, 202, 200]);
    // A signed hook fetches the new commit, with the credentials.
    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'Pushed after.') });
    const hook = new URL('/hooks/git', served.url);
    const body = '{}';
    const signature = `sha256=${createHmac('sha256', hookSecret).update(body).digest('hex')}`;
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': 'sha256=00' }, body })).status).toBe(401);
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': signature }, body })).status).toBe(202);
    await new Promise<void>((resolve) => {
      const check = () => (served.stderr().includes(`at commit ${second.slice(0, 12)}`) ? resolve() : setTimeout(check, 50));
      check();
    });
    expect(await served.stop()).toBe(0);
    const log = served.stderr();
    expectNone(log, [token, hookSecret, password]);
    const all = entries(log);
    expect(all.some((entry) => entry.msg === 'request' && entry.tool === 'load_skill' && entry.outcome === 'ok')).toBe(true);
    // The source is named, without its user and password.
    expect(all.some((entry) => entry.msg.includes('***@127.0.0.1'))).toBe(true);
  }, 90_000);
});
