/**
 * deploy/'s files, read for the tests: every Kubernetes manifest (each YAML
 * document, with its file), compose.yaml (merge keys resolved, as compose
 * does), the env file example, and the nginx configuration as text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../_stdio-client.js';

export const DEPLOY = join(ROOT, 'deploy');
export const KUBERNETES = join(DEPLOY, 'kubernetes');

/** A Kubernetes object as written: only what the tests read is typed. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
  [key: string]: unknown;
}

/** Every document of every .yaml file in deploy/kubernetes/, with the file it came from. */
export function kubernetesManifests(): Array<{ file: string; manifest: Manifest }> {
  const out: Array<{ file: string; manifest: Manifest }> = [];
  for (const file of readdirSync(KUBERNETES).filter((name) => name.endsWith('.yaml'))) {
    for (const document of parseAllDocuments(readFileSync(join(KUBERNETES, file), 'utf8'))) {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
      out.push({ file, manifest: document.toJS() as Manifest });
    }
  }
  return out;
}

/** The one manifest of `kind` (and `name`, if given); throws unless exactly one. */
export function manifestOf(kind: string, name?: string): Manifest {
  const found = kubernetesManifests().filter(({ manifest }) => manifest.kind === kind && (name === undefined || manifest.metadata?.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ''} in deploy/kubernetes/, found ${found.length}`);
  return (found[0] as { manifest: Manifest }).manifest;
}

/** A compose service, as far as the tests read it. */
export interface ComposeService {
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  volumes?: string[];
}

export function compose(): { services: Record<string, ComposeService> } {
  // Compose resolves YAML merge keys (`<<: *skillport`); so does `merge`.
  return parse(readFileSync(join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true });
}

/** The variable names of an env file (`NAME=value` lines; comments and blanks skipped). */
export function envFileNames(file: string): string[] {
  return readFileSync(join(DEPLOY, file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.slice(0, line.indexOf('=')));
}

/** An nginx file of deploy/nginx/, comments removed. */
export function nginxText(file: string): string {
  return readFileSync(join(DEPLOY, 'nginx', file), 'utf8').replace(/#[^\n]*/g, '');
}
