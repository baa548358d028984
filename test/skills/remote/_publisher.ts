/**
 * A publisher of an Agent Skills discovery index for the index-source tests:
 * a node:http server on 127.0.0.1 serving what the test puts in `files`
 * (path to bytes and media type), with an ETag on every answer and 304 for a
 * matching `If-None-Match`; it counts requests by path. Archives are made
 * with the system's `tar` and python3's `zipfile`/`tarfile`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const INDEX = '/.well-known/agent-skills/index.json';

export interface Published {
  body: Uint8Array;
  type: string;
}

export interface Publisher {
  readonly origin: string;
  readonly files: Map<string, Published>;
  /** Requests by path, and how many were answered 304. */
  readonly hits: Map<string, number>;
  /** The Authorization header of each request, by path ('' for none). */
  readonly authorizations: Map<string, string>;
  notModified: number;
  /** Writes the index of `skills` (each `{ name, type, url, digest }`). */
  index(skills: ReadonlyArray<Record<string, string>>): void;
  close(): Promise<void>;
}

export const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Starts a publisher on 127.0.0.1 (a free port, or `port`). */
export async function publish(port = 0): Promise<Publisher> {
  const files = new Map<string, Published>();
  const hits = new Map<string, number>();
  const authorizations = new Map<string, string>();
  const state = { notModified: 0 };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    authorizations.set(path, request.headers.authorization ?? '');
    const file = files.get(path);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(file.body).digest('hex').slice(0, 16)}"`;
    if (request.headers['if-none-match'] === etag) {
      state.notModified++;
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, etag, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    files,
    hits,
    authorizations,
    get notModified() {
      return state.notModified;
    },
    set notModified(n: number) {
      state.notModified = n;
    },
    index(skills) {
      files.set(INDEX, { body: Buffer.from(JSON.stringify({ $schema: SCHEMA, skills })), type: 'application/json' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A temporary folder holding `files`; the caller removes it. */
export function folderOf(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-publish-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** `files` as a .tar.gz made by the system's tar, the skill's files at its root (`./SKILL.md`). */
export function tarGz(files: Record<string, string | Uint8Array>): Uint8Array {
  const dir = folderOf(files);
  try {
    const out = `${dir}.tar.gz`;
    execFileSync('tar', ['-czf', out, '-C', dir, '.']);
    const bytes = readFileSync(out);
    rmSync(out);
    return bytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs python3 `script` with `input` on stdin and `argv`; returns the bytes it writes to the file named by its first argument. */
export function python(script: string, input: string, ...argv: string[]): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-py-'));
  try {
    const out = join(dir, 'out');
    execFileSync('python3', ['-c', script, out, ...argv], { input });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `files` as a .zip made by python3's zipfile (deflated). */
export function zip(files: Record<string, string>): Uint8Array {
  const script = `import sys, json, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, text in json.loads(sys.stdin.read()).items():
        z.writestr(name, text)`;
  return python(script, JSON.stringify(files));
}
