import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';
import { modernMeta } from '../_wire.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const BROKEN = `${ROOT}test/fixtures/skills/broken`;

function cli(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: '', timeout: 20_000 });
}

describe('skillport CLI', () => {
  it('prints help and exits 0', () => {
    const result = cli('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: skillport');
    expect(result.stdout).toContain('2026-07-28, 2025-11-25, 2025-06-18');
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
    expect(cli('--version').stdout.trim()).toBe(version);
  });

  it.each([
    ['frobnicate'],
    ['--no-such-flag'],
    ['serve', '--log-level', 'loud'],
    ['serve', '--log-format', 'xml'],
    ['serve', '--page-size', '0'],
    ['serve', '--http', 'nowhere'],
    ['get'],
    ['get', 'a', 'b'],
    ['get', 'greeting', '--arg', 'novalue'],
    ['complete', 'greeting'],
  ])('exits 2 with usage for %j', (...args) => {
    const result = cli(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: skillport');
    expect(result.stdout).toBe('');
  });

  it('serves the bundled skills by default and exits 0 when stdin is empty', () => {
    const result = cli();
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/serving \d+ prompts and 2 tools from \d+ skills over stdio/);
  });

  it('exits 1 with a message when the folder does not exist', () => {
    const result = cli('serve', `${ROOT}no-such-folder`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`skillport serve: no such folder: ${ROOT}no-such-folder\n`);
  });

  it('writes the failure as a JSON entry with --log-format json', () => {
    const result = cli('serve', `${ROOT}no-such-folder`, '--log-format', 'json');
    expect(result.status).toBe(1);
    expect(result.stderr.endsWith('\n') && result.stderr.indexOf('\n') === result.stderr.length - 1).toBe(true);
    expect(JSON.parse(result.stderr)).toEqual({ time: expect.any(String), level: 'error', msg: `no such folder: ${ROOT}no-such-folder` });
  });

  it('lists prompts with their arguments, as text and as JSON', () => {
    const text = cli('list', VALID);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^greeting +Greets someone in a chosen language\. +\(who \[language\] \[variant\]\)$/m);
    expect(text.stdout).toContain('10 prompts, 4 skills');
    const json = JSON.parse(cli('list', VALID, '--json').stdout) as { prompts: Array<{ name: string }> };
    expect(json.prompts.map((p) => p.name)).toContain('frontend:review');
  });

  it('gets a prompt with arguments and fails with exit 1 on a missing required one', () => {
    const ok = cli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada', '--arg', 'language=german');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('Say hello to Ada in german ().');
    const missing = cli('get', 'greeting', '--dir', VALID);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Missing required argument "who" for prompt "greeting"');
    const empty = cli('get', 'greeting', '--dir', VALID, '--arg', 'who=');
    expect(empty.status).toBe(1);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('Missing required argument "who" for prompt "greeting"');
    const unknown = cli('get', 'nope', '--dir', VALID);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unknown prompt: "nope"');
  });

  it('completes an argument, using other arguments as context', () => {
    const result = cli('complete', 'greeting', 'variant', '', '--dir', VALID, '--arg', 'language=french');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('fr-FR\nfr-CA\n');
    const json = JSON.parse(cli('complete', 'greeting', 'language', 'g', '--dir', VALID, '--json').stdout) as { values: string[] };
    expect(json.values).toEqual(['german', 'english']);
  });

  it('checks a folder: findings with file and line, a summary, exit 1 on errors', () => {
    const broken = cli('check', BROKEN);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('bad-yaml/SKILL.md:3: error: Invalid YAML');
    expect(broken.stdout).toContain('Mismatched_Folder/SKILL.md:4: note: "custom-key" is not an Agent Skills key (extension_key)');
    expect(broken.stdout).toMatch(/^FAILED: 3 skills, 3 prompts, \d+ files; 3 errors, \d+ warnings, \d+ notes?$/m);
    const valid = cli('check', VALID);
    expect(valid.status).toBe(0);
    expect(valid.stdout).toMatch(/^OK: 4 skills, 10 prompts/m);
    expect(valid.stdout).toContain('greeting/SKILL.md:4: note: "arguments" is an extension of skillport (prompt arguments)');
    const json = JSON.parse(cli('check', BROKEN, '--json').stdout) as { ok: boolean; errors: number };
    expect(json).toMatchObject({ ok: false, errors: 3 });
  });

  it('passes the bundled skills with --strict', () => {
    const result = cli('check', '--strict');
    expect(result.stdout).toMatch(/^OK: /m);
    expect(result.status).toBe(0);
  });
});

describe('skillport serve --http', () => {
  it('binds 127.0.0.1, answers on /mcp, and accepts a Host only when allowed', async () => {
    const { spawn } = await import('node:child_process');
    const { request } = await import('node:http');
    const child = spawn(process.execPath, [BIN, 'serve', VALID, '--http', '127.0.0.1:0', '--allow-host', 'skills.example'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let log = '';
        const timer = setTimeout(() => reject(new Error(log)), 20_000);
        child.stderr.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
          if (found) {
            clearTimeout(timer);
            resolve(new URL(found[1] as string));
          }
        });
      });
      const post = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'server/discover',
            params: { _meta: modernMeta() },
          });
          const req = request(url, {
            method: 'POST',
            headers: {
              host,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'server/discover',
            },
          });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end(body);
        });
      expect(await post('skills.example')).toBe(200);
      expect(await post(url.host)).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('on SIGTERM says it is stopping, drains, says it stopped and exits 0', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'serve', VALID, '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      // Once: a second SIGTERM, after the handler has run, ends the process at once.
      if (log.includes('serving ') && !child.killed) child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
    const lines = log.split('\n');
    const serving = lines.findIndex((line) => line.includes('serving '));
    expect(lines.slice(serving + 1)).toEqual(['skillport info: stopping: finishing the requests in flight', 'skillport info: stopped', '']);
  });
});
