/**
 * A Claude Code plugin marketplace as served folders: a folder holding
 * `.claude-plugin/marketplace.json` (or GitHub Copilot's
 * `.github/plugin/marketplace.json`, the same shape) lists plugins, each with
 * a `source` (a folder relative to the marketplace root) and the skill
 * folders it brings (`skills`, relative to the plugin's source; without it,
 * the plugin's `skills/` folder). Each becomes a folder of its own, served
 * under the plugin's name (skill-record.ts `namespaceIn`).
 *
 * What is left out, each with a finding rather than a failure: a plugin
 * whose source is remote (`{ "source": "github", ... }`, a URL: fetching
 * other repositories is not this server's to do), a path leaving the
 * marketplace root (`../`, an absolute path, a link pointing out), a plugin
 * name given twice, and a skill folder a plugin before it already listed
 * (served once, under the first plugin, so one folder is one skill).
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, sep } from 'node:path';
import { type ConfinedFs, openConfined } from './confined-fs.js';
import type { Issue } from './issues.js';

/** Where a marketplace lists its plugins, in the order they are looked for. */
export const MARKETPLACE_FILES = ['.claude-plugin/marketplace.json', '.github/plugin/marketplace.json'] as const;

/** Largest marketplace.json read: Anthropic's is 2 KB, awesome-copilot's ~200 KB. */
const MAX_MARKETPLACE_BYTES = 4 * 1024 * 1024;

/** A folder a plugin serves: its absolute path and the plugin's name. */
export interface PluginFolder {
  dir: string;
  namespace: string;
}

/** The plugin folders of the marketplace at `fs`'s root, or undefined when it holds none. */
export interface Marketplace {
  /** The marketplace file found, relative to the root. */
  file: string;
  folders: PluginFolder[];
  issues: Issue[];
}

/** A plugin name usable as a `skill://` authority segment and in a prompt name: the Agent Skills name rule. */
const PLUGIN_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface PluginEntry {
  name?: unknown;
  source?: unknown;
  skills?: unknown;
}

/** Reads the marketplace file of `fs`, if there is one. */
export async function readMarketplace(fs: ConfinedFs): Promise<Marketplace | undefined> {
  for (const file of MARKETPLACE_FILES) {
    const read = await fs.read(file, MAX_MARKETPLACE_BYTES).catch(() => undefined);
    if (read === undefined || !('bytes' in read)) continue;
    const issues: Issue[] = [];
    let plugins: unknown;
    try {
      plugins = (JSON.parse(new TextDecoder().decode(read.bytes)) as { plugins?: unknown }).plugins;
    } catch (error) {
      issues.push({ severity: 'error', code: 'invalid_marketplace', path: file, message: `Not JSON: ${(error as Error).message}` });
      return { file, folders: [], issues };
    }
    if (!Array.isArray(plugins)) {
      issues.push({ severity: 'error', code: 'invalid_marketplace', path: file, message: 'It has no "plugins" list' });
      return { file, folders: [], issues };
    }
    return { file, folders: await pluginFolders(fs.root, file, plugins as PluginEntry[], issues), issues };
  }
  return undefined;
}

/** `path` (posix, relative to `base`) normalised, or undefined when it leaves the marketplace root or is absolute. */
function inside(base: string, path: string): string | undefined {
  if (path.includes('\\') || path.includes('\0') || isAbsolute(path) || posix.isAbsolute(path)) return undefined;
  const joined = posix.normalize(posix.join(base, path));
  if (joined === '..' || joined.startsWith('../')) return undefined;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** The real folder at `rel` under `root`, or why it cannot be served. */
async function realFolder(root: string, rel: string): Promise<{ dir: string } | { reason: string }> {
  const path = rel === '' ? root : join(root, ...rel.split('/'));
  const info = await lstat(path).catch(() => undefined);
  if (!info) return { reason: 'no such folder' };
  const real = await realpath(path).catch(() => undefined);
  // A link (of the folder or of a folder above it) may point anywhere: only a folder that is really inside is served.
  if (real === undefined || (real !== root && !real.startsWith(root + sep))) return { reason: 'it lies outside the marketplace folder' };
  if (!(await lstat(real)).isDirectory()) return { reason: 'not a folder' };
  return { dir: real };
}

/** Each listed plugin's skill folders, with findings for what is left out. */
async function pluginFolders(root: string, file: string, plugins: readonly PluginEntry[], issues: Issue[]): Promise<PluginFolder[]> {
  const folders: PluginFolder[] = [];
  const names = new Set<string>();
  const taken = new Map<string, string>();
  const finding = (code: string, message: string) => issues.push({ severity: 'warning', code, path: file, message });
  for (const [index, plugin] of plugins.entries()) {
    const name = typeof plugin?.name === 'string' ? plugin.name : undefined;
    const label = name === undefined ? `plugins[${index}]` : `the plugin "${name}"`;
    if (name === undefined || !PLUGIN_NAME.test(name)) {
      finding('invalid_plugin_name', `${label}: a plugin name is 1-64 of a-z, 0-9 and single hyphens; not served`);
      continue;
    }
    if (names.has(name)) {
      finding('duplicate_plugin', `${label} is listed twice; the first is served`);
      continue;
    }
    names.add(name);
    const source = plugin.source ?? './';
    // A remote source (`{ source: "github", repo }`, `{ source: "url", url }`, a URL string) is another repository.
    if (typeof source !== 'string' || source.includes('://') || source.startsWith('git@')) {
      finding('remote_plugin_source', `${label} comes from another repository; only plugins inside the marketplace are served`);
      continue;
    }
    const base = inside('', source);
    if (base === undefined) {
      finding('outside_marketplace', `${label}: its source ${JSON.stringify(source)} lies outside the marketplace folder; not served`);
      continue;
    }
    const listed = Array.isArray(plugin.skills) ? plugin.skills : plugin.skills === undefined ? undefined : [];
    const wanted = listed === undefined ? [posix.join(base, 'skills')] : listed.map((s) => (typeof s === 'string' ? inside(base, s) : undefined));
    for (const [at, rel] of wanted.entries()) {
      const shown = listed === undefined ? `${base === '' ? '' : `${base}/`}skills` : JSON.stringify(listed[at]);
      if (rel === undefined) {
        finding('outside_marketplace', `${label}: the skill folder ${shown} lies outside the marketplace folder; not served`);
        continue;
      }
      const found = await realFolder(root, rel);
      if ('reason' in found) {
        // A plugin with no skills/ folder brings no skills (agents, hooks, commands): nothing to say.
        if (listed !== undefined || found.reason !== 'no such folder') finding('plugin_skill_missing', `${label}: the skill folder ${shown}: ${found.reason}`);
        continue;
      }
      const first = taken.get(found.dir);
      if (first !== undefined) {
        finding('duplicate_plugin_skill', `${label} lists ${shown}, which the plugin "${first}" already serves; served once, as the first's`);
        continue;
      }
      taken.set(found.dir, name);
      folders.push({ dir: found.dir, namespace: name });
    }
  }
  return folders;
}

/** A folder to read: one given, or a plugin's skill folder of a marketplace given (load/marketplace.ts). */
export interface Place {
  dir: string;
  fs: ConfinedFs;
  /** The plugin whose folder it is. */
  namespace?: string;
}

/**
 * The folders to read: each given folder, but a marketplace (a folder with
 * `.claude-plugin/marketplace.json`) is the folders of its plugins' skills,
 * and its own findings are said first.
 */
export async function placesOf(dirs: readonly string[], issues: Issue[]): Promise<{ places: Place[]; first: ConfinedFs | undefined }> {
  const roots = await Promise.all(dirs.map((dir) => openConfined(dir)));
  const places: Place[] = [];
  for (const [index, fs] of roots.entries()) {
    const dir = dirs[index] as string;
    const market = await readMarketplace(fs);
    if (market === undefined) {
      places.push({ dir, fs });
      continue;
    }
    for (const issue of market.issues) issues.push(dirs.length > 1 ? { ...issue, folder: dir } : issue);
    for (const folder of market.folders) places.push({ dir: folder.dir, fs: await openConfined(folder.dir), namespace: folder.namespace });
  }
  return { places, first: roots[0] };
}
