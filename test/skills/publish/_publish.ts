/**
 * What the discovery index tests share: a skills folder written for them
 * (a lone SKILL.md, a skill with nested folders, a binary file and a script,
 * a name the index cannot list, a description too long for it), a real
 * `skillport serve --http` process over it, and the index's JSON Schema.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { BIN } from '../../_stdio-client.js';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => void;

export const INDEX_PATH = '/.well-known/agent-skills/index.json';

/** Bytes no text decoding keeps: every byte value, a NUL and an invalid UTF-8 sequence among them. */
export const BINARY = Uint8Array.from({ length: 300 }, (_, i) => (i * 7 + 3) % 256);

/** Path → content of the folder; a skill is its folder's files. */
export const FILES: Record<string, string | Uint8Array> = {
  'plain-notes/SKILL.md':
    '---\nname: plain-notes\ndescription: Keeps meeting notes short and dated. Use for any notes task.\n---\n# Notes\n\nDate every entry.\n',
  'field-kit/SKILL.md':
    '---\nname: field-kit\ndescription: Packs a survey field kit from a checklist. Use before a site visit.\n---\n# Field kit\n\nRead [the list](references/lists/kit.md), then run `scripts/pack.sh`.\n',
  'field-kit/references/lists/kit.md': '# Kit\n\n- tape\n- level\n- notebook\n',
  'field-kit/references/lists/deeper/spare-parts.md': '# Spares\n\nTwo of each fuse.\n',
  'field-kit/scripts/pack.sh': '#!/bin/sh\necho packed\n',
  'field-kit/assets/marker.bin': BINARY,
  'Bad_Name/SKILL.md': '---\nname: Bad_Name\ndescription: A skill whose name the Agent Skills rule refuses.\n---\nNever listed.\n',
  'long-winded/SKILL.md': `---\nname: long-winded\ndescription: ${'Explains at length. '.repeat(60).trim()}\n---\nToo long a description.\n`,
};

/** Writes {@link FILES} (plus `extra`) to a new folder; `field-kit/scripts/pack.sh` is executable. */
export function writeSkills(extra: Record<string, string | Uint8Array> = {}): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-publish-'));
  for (const [path, content] of Object.entries({ ...FILES, ...extra })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  chmodSync(join(dir, 'field-kit/scripts/pack.sh'), 0o755);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `dir`, by path relative to it, with its bytes. */
export function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

export interface Running {
  /** The server's origin, e.g. http://127.0.0.1:1234. */
  readonly origin: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `skillport serve <args>` (the built bin) and waits for its endpoint line. */
export async function startServe(args: readonly string[]): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const started = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 15_000);
    const check = (): void => {
      const found = /endpoint at (http:\/\/\S+)\/mcp/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stderr?.on('data', check);
    void exited.then(() => resolve(undefined));
  });
  if (started === undefined) {
    await stop();
    throw new Error(`skillport serve did not start: ${stderr}`);
  }
  return { origin: started, stderr: () => stderr, stop };
}

/** The v0.2.0 index schema of this folder (see its $comment), compiled. */
export function indexValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(new URL('./discovery-0.2.0.schema.json', import.meta.url), 'utf8')) as object);
}

/** GET (or another method) `path` of `origin`, read whole as bytes. */
export async function fetchBytes(origin: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(new URL(path, origin), init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** GET with the request target sent exactly as written (no URL parser in between, unlike fetch). */
export function rawGet(origin: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path: target, method: 'GET', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('no answer in time')));
    request.on('error', reject);
    request.end();
  });
}
