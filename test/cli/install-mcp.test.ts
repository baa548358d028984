/**
 * `skillport install mcp+http://…`: skills read from a running server through
 * the Skills extension, each file's size and digest checked against the
 * manifest before anything is written. The server is the real CLI over HTTP;
 * the tampering is a proxy between the two that changes bytes in flight.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { ROOT } from '../_stdio-client.js';

const CLI = `${ROOT}bin/skillport.js`;
const TOKEN = 'install-test-token';
const BINARY = Uint8Array.from([0, 1, 2, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47]);
const FILES: Record<string, string | Uint8Array> = {
  'pdf-forms/SKILL.md': '---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\n\n# Forms\n',
  'pdf-forms/references/field names.md': '# Field names\n',
  'pdf-forms/assets/logo.png': BINARY,
  'notes/SKILL.md': '---\nname: notes\ndescription: Take notes, ünïcode.\n---\n\nBody\r\n',
};

let dir: string;
let folder: string;
let child: ChildProcess;
let endpoint: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skillport-install-mcp-'));
  folder = join(dir, 'skills');
  for (const [rel, content] of Object.entries(FILES)) {
    mkdirSync(join(folder, rel, '..'), { recursive: true });
    writeFileSync(join(folder, rel), content);
  }
  child = spawn(process.execPath, [CLI, 'serve', folder, '--http', '127.0.0.1:0', '--auth-token', TOKEN], { stdio: ['ignore', 'ignore', 'pipe'] });
  endpoint = await new Promise<string>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${log}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const at = / at (\S+) \(protocol/.exec(log)?.[1];
      if (at) {
        clearTimeout(timer);
        resolve(at);
      }
    });
  });
});

afterAll(() => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `skillport install ...args` in-process with `env`. */
async function install(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const stdin = new PassThrough();
  stdin.end();
  const code = await run(['install', ...args], { stdin, stdout, stderr, onShutdownSignal: () => {} }, env);
  return { code, ...out };
}

function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** A proxy to the server that passes every answer through `change` (a man in the middle). */
async function tamperingProxy(
  change: (body: { result?: { contents?: Array<{ uri: string; text?: string; blob?: string }> } }) => void,
): Promise<{ url: string; server: Server }> {
  const target = new URL(endpoint);
  const server = createServer((incoming, outgoing) => {
    const forward = request(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        change(body);
        outgoing.writeHead(answer.statusCode ?? 500, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify(body));
      });
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `mcp+http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('skillport install from an MCP server', () => {
  it('writes every listed skill byte for byte, read through the Skills extension', async () => {
    const to = join(dir, 'all');
    const result = await install({ TOKEN }, `mcp+${endpoint}`, '--to', to, '--token-env', 'TOKEN');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(tree(to)).toEqual(Object.keys(FILES).sort());
    for (const rel of Object.keys(FILES)) expect(readFileSync(join(to, rel)), rel).toEqual(readFileSync(join(folder, rel)));
  });

  it('says a token is wanted when the server refuses the request', async () => {
    const result = await install({}, `mcp+${endpoint}`, 'notes', '--to', join(dir, 'none'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('it wants a token (--token-env)');
  });

  it('writes nothing of a skill whose file does not match its manifest, size or digest', async () => {
    for (const [what, change] of [
      ['size', (text: string) => `${text}!`],
      ['digest', (text: string) => text.replace('Fill', 'Kill')],
    ] as const) {
      const proxy = await tamperingProxy((body) => {
        const content = body.result?.contents?.[0];
        if (content?.uri.endsWith('pdf-forms/SKILL.md') && content.text !== undefined) content.text = change(content.text);
      });
      try {
        const to = join(dir, `tampered-${what}`);
        const result = await install({ TOKEN }, proxy.url, '--to', to, '--token-env', 'TOKEN');
        expect(result.code, what).toBe(1);
        expect(result.stderr).toContain(what === 'size' ? 'bytes where the manifest says' : 'its digest does not match the manifest');
        // The other skill is written; the tampered one is not, not even in part.
        expect(readdirSync(to)).toEqual(['notes']);
      } finally {
        proxy.server.close();
      }
    }
  });

  it('names the skills there are for a name the server does not list', async () => {
    const result = await install({ TOKEN }, `mcp+${endpoint}`, 'pdf', '--to', join(dir, 'typo'), '--token-env', 'TOKEN');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no skill named "pdf" in this source (it has: notes, pdf-forms)');
  });
});
