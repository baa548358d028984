/**
 * A clean clone of the committed tree, for tests of what a new user gets from
 * `git clone`: no dist/, no untracked files, nothing beside it (no
 * ../shared). It reuses this checkout's node_modules through a symlink, since
 * reinstalling would test the registry rather than the repository.
 * Uncommitted changes are deliberately not in it.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './_stdio-client.js';

/** Clones HEAD into `parent`/skillport and links node_modules; `parent` should be an empty temp folder. */
export function cleanClone(parent: string): string {
  const dir = join(parent, 'skillport');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  // --no-local: copy objects through git's own transport, as a clone from a server would.
  execFileSync('git', ['clone', '--quiet', '--no-local', '--no-checkout', ROOT, dir]);
  execFileSync('git', ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', head], { cwd: dir });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * The environment for a child test run that must not inherit this run's
 * choices: the schema variables (CI sets SKILLPORT_REQUIRE_SCHEMAS) and the
 * variables vitest sets for its own workers.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'MCP_SCHEMA_DIR' || key === 'SKILLPORT_REQUIRE_SCHEMAS' || key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}
