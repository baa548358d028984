/**
 * A git repository served over real smart HTTP on 127.0.0.1, behind HTTPS
 * and HTTP Basic authentication: a node:https server (a self-signed
 * certificate made by the openssl program for 127.0.0.1) that checks the
 * `Authorization` header and runs `git http-backend` as a CGI program
 * (RFC 3875) for every request it lets through. Also what the tests need to
 * watch the process table while git fetches from it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { GIT, gitEnv } from './_repo.js';

const OPENSSL = '/usr/bin/openssl';

export interface HttpRemote {
  /** `https://127.0.0.1:PORT/<repository>.git`, no credentials. */
  readonly url: string;
  /** The server's certificate (PEM): git trusts it through `http.sslCAInfo`. */
  readonly certificate: string;
  /** Requests redirected, answered 401 (no or wrong credentials), and let through. */
  readonly counts: { redirected: number; refused: number; served: number };
  /** Every `Authorization` header received, in order. */
  readonly authorizations: string[];
  /**
   * Holds every request let through until `gate` resolves (a test's way to keep
   * git's helpers alive while it looks at them); answers at once without one.
   */
  hold(gate: Promise<unknown> | undefined): void;
  close(): Promise<void>;
}

/** The CGI response of `git http-backend`: its header block, then the body. */
function relay(child: ReturnType<typeof spawn>, res: ServerResponse): void {
  let head = Buffer.alloc(0);
  let inBody = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (inBody) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.statusCode = status;
    inBody = true;
    res.write(head.subarray(end + 4));
  });
  child.stdout?.on('end', () => res.end());
}

/** A self-signed certificate for 127.0.0.1 and its key (PEM), made in `dir`. */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'remote-cert.pem');
  const key = join(dir, 'remote-key.pem');
  // git (curl) checks the name against the subjectAltName: an IP address entry for 127.0.0.1.
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  args.push('-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert);
  execFileSync(OPENSSL, args, { stdio: 'ignore', timeout: 20_000 });
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

export interface HttpRemoteOptions {
  /** The bare repository served (a path ending in `.git`). */
  repository: string;
  user: string;
  password: string;
  /** HOME of `git http-backend` (no user configuration in it). */
  home: string;
  /** Where the certificate and its key are made. */
  dir: string;
  /** Answer every request by a redirect (302) to the same path under this origin, before asking for credentials. */
  redirectTo?: string;
}

/**
 * Serves a bare repository over HTTPS to clients that send
 * `Authorization: Basic base64(user:password)`, and 401 to the others.
 */
export async function serveHttpRemote(options: HttpRemoteOptions): Promise<HttpRemote> {
  const { repository, user, password, home, dir } = options;
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const counts = { redirected: 0, refused: 0, served: 0 };
  const authorizations: string[] = [];
  let gate: Promise<unknown> | undefined;
  const tls = selfSigned(dir);
  const server = createServer({ cert: tls.cert, key: tls.key }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization !== undefined) authorizations.push(req.headers.authorization);
    if (options.redirectTo !== undefined) {
      counts.redirected++;
      req.resume();
      res.writeHead(302, { Location: new URL(req.url ?? '/', options.redirectTo).href }).end();
      return;
    }
    if (req.headers.authorization !== expected) {
      counts.refused++;
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"', 'Content-Type': 'text/plain' }).end('authentication required\n');
      return;
    }
    counts.served++;
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const env: Record<string, string> = {
      ...gitEnv(home),
      GIT_PROJECT_ROOT: dirname(repository),
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
    };
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
    if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
    if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    const start = () => {
      const child = spawn(GIT, ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
      req.pipe(child.stdin);
      relay(child, res);
      child.once('error', () => res.destroy());
    };
    if (gate) void gate.then(start, start);
    else start();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/${basename(repository)}`,
    certificate: tls.cert,
    counts,
    authorizations,
    hold(next) {
      gate = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The command line of every process this user may see: `/proc/PID/cmdline`, NULs as spaces. */
export function commandLines(): Array<{ pid: number; line: string }> {
  const out: Array<{ pid: number; line: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push({ pid: Number(name), line: readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ') });
    } catch {
      // Gone since the listing: nothing to read.
    }
  }
  return out;
}
