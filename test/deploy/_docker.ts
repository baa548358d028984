/**
 * The Docker side of the image test: the docker CLI run with bounded time,
 * whether an engine answers, the base image (built here from Debian's
 * packages by base-image.sh, or named by SKILLPORT_IMAGE_BASE), and what the
 * build needs from this machine's npm: its registry, and the certificate
 * authorities its Node trusts beyond its own (a TLS-inspecting proxy's).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ROOT } from '../_stdio-client.js';

/** The image base-image.sh builds and caches. */
export const LOCAL_BASE = 'skillport-test-base:node20';
const BASE_SCRIPT = `${ROOT}test/deploy/base-image.sh`;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed after `timeoutMs`); never throws for a non-zero exit. */
export function run(file: string, args: readonly string[], timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr: error !== null && code === -1 ? `${stderr}${error.message}` : stderr });
    });
  });
}

/** `docker ARGS`; throws with its output when it fails. */
export async function docker(args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const result = await run('docker', args, timeoutMs);
  if (result.code !== 0) throw new Error(`docker ${args.slice(0, 2).join(' ')} failed (${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
  return result.stdout.trim();
}

/** The base image the test builds on: SKILLPORT_IMAGE_BASE, else the local one. */
export function baseImage(): string {
  return process.env.SKILLPORT_IMAGE_BASE || LOCAL_BASE;
}

/** Why the image cannot be built and run here, or undefined when it can. */
export async function unavailable(): Promise<string | undefined> {
  const info = await run('docker', ['info', '--format', '{{.ServerVersion}}'], 30_000);
  if (info.code !== 0) {
    const why = info.stderr.trim().split('\n')[0] || `exit code ${info.code}`;
    return `no Docker engine answers (docker info: ${why})`;
  }
  const base = baseImage();
  if (base !== LOCAL_BASE || (await run('docker', ['image', 'inspect', base])).code === 0) return undefined;
  if (process.getuid?.() !== 0) return `no ${base} image, and building it (test/deploy/base-image.sh) needs root`;
  if (!existsSync('/usr/sbin/debootstrap')) return `no ${base} image, and building it (test/deploy/base-image.sh) needs debootstrap`;
  return undefined;
}

/** Builds the local base image unless it exists (base-image.sh skips it then). */
export async function buildBase(): Promise<void> {
  if (baseImage() !== LOCAL_BASE) return;
  // The Node running this test is the one to copy, whatever `node` is first on npm's PATH.
  const result = await run('env', [`NODE_BIN=${process.execPath}`, 'bash', BASE_SCRIPT, LOCAL_BASE], 20 * 60_000);
  if (result.code !== 0) throw new Error(`base-image.sh failed (${result.code}):\n${result.stdout}${result.stderr}`);
}

/**
 * The registry npm uses here (environment and npmrc files), for the build
 * stage's `npm ci`. Build arguments are kept in the build stage's history, so
 * a URL with credentials in it is refused rather than passed.
 */
export async function npmRegistry(): Promise<string | undefined> {
  const result = await run('npm', ['config', 'get', 'registry']);
  const registry = result.stdout.trim();
  if (result.code !== 0 || !/^https?:\/\//.test(registry)) return undefined;
  const url = new URL(registry);
  if (url.username !== '' || url.password !== '') throw new Error(`npm's registry URL (${url.host}) carries credentials: not passed to docker build`);
  return registry;
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates in NODE_EXTRA_CA_CERTS that Node does not trust by itself,
 * as PEM text (empty when none): what the build's npm must trust to reach the
 * registry through the same network as this machine's npm.
 */
export function extraCaCerts(): string {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file || !existsSync(file)) return '';
  const compact = (pem: string): string => pem.replace(/\s+/g, '');
  const own = new Set(rootCertificates.map(compact));
  return (readFileSync(file, 'utf8').match(PEM) ?? []).filter((pem) => !own.has(compact(pem))).join('\n');
}

/** An image's size in bytes, as `docker image inspect` gives it (all its layers). */
export async function imageSize(image: string): Promise<number> {
  return Number(await docker(['image', 'inspect', '--format', '{{.Size}}', image]));
}

/** Bytes in decimal megabytes, as docker prints sizes. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
