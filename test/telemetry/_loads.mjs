// Records every module URL a Node process resolves, one per line, in the
// file LOADS_FILE names: `node --import ./_loads.mjs ...`. The hooks run on
// Node's loader thread (module.register), so this module registers itself
// on the main thread and records on the other.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let file;

if (isMainThread) register(import.meta.url, { data: process.env.LOADS_FILE });

export function initialize(data) {
  file = data;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
