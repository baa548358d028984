/**
 * Finds what a served folder holds: skill folders (a `SKILL.md`, also the
 * lower-case `skill.md`), prompt files in the other formats people keep
 * (`prompts/**.md`, Claude Code `.claude/commands/**.md`, VS Code
 * `*.prompt.md`) and shared `references/*.md`. The walk is confined to the
 * folder, skips `.git`, `node_modules` and other hidden folders, follows
 * symbolic links only inside the folder, never visits a directory twice, and
 * stops at a depth and an entry count.
 */
import type { ConfinedFs, WalkEntry } from './confined-fs.js';
import type { Issue } from './issues.js';

/** The prompt file formats besides skills. */
export type PromptFormat = 'markdown' | 'claude-command' | 'vscode';

/** A prompt file found by the scan. */
export interface PromptFileRef {
  rel: string;
  format: PromptFormat;
  /** For Claude commands: the path below `commands/`, without `.md`. */
  key: string;
}

export interface ScanResult {
  /** Every file and directory found, by relative path. */
  entries: Map<string, WalkEntry>;
  /** Relative paths of skill folders, shallowest first. */
  skillDirs: string[];
  /** Relative path of each skill folder's SKILL.md. */
  skillFiles: Map<string, string>;
  /** The entries inside each skill folder (a nested skill's entries belong to its ancestors too). */
  bySkill: Map<string, WalkEntry[]>;
  promptFiles: PromptFileRef[];
  /** Shared reference documents: `references/*.md` at the top of the folder. */
  sharedReferences: string[];
  issues: Issue[];
}

export interface ScanLimits {
  maxDepth: number;
  maxEntries: number;
}

export const DEFAULT_LIMITS: ScanLimits = { maxDepth: 12, maxEntries: 200_000 };

const SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn']);
const HIDDEN_ALLOWED = new Set(['.claude', '.github', '.cursor']);

function formatOf(rel: string): PromptFileRef | undefined {
  const parts = rel.split('/');
  const file = parts[parts.length - 1] as string;
  if (file.endsWith('.prompt.md')) return { rel, format: 'vscode', key: file.slice(0, -'.prompt.md'.length) };
  if (!file.endsWith('.md')) return undefined;
  const commands = parts.findIndex((p, i) => p === 'commands' && parts[i - 1] === '.claude');
  if (commands >= 0) return { rel, format: 'claude-command', key: parts.slice(commands + 1).join('/').slice(0, -3) };
  if (parts.slice(0, -1).includes('prompts')) return { rel, format: 'markdown', key: file.slice(0, -3) };
  return undefined;
}

/** Walks `fs` and sorts what it finds. */
export async function scanFolder(fs: ConfinedFs, limits: ScanLimits = DEFAULT_LIMITS): Promise<ScanResult> {
  const entries = new Map<string, WalkEntry>();
  const issues: Issue[] = [];
  const visited = new Set<string>([fs.root]);
  const skillDirs: string[] = [];
  const skillFiles = new Map<string, string>();
  let count = 0;
  let truncated = false;

  async function walk(relDir: string, absDir: string, depth: number): Promise<void> {
    if (truncated) return;
    const { entries: children, refused } = await fs.list(relDir, absDir);
    for (const { rel, reason } of refused) {
      issues.push({
        severity: 'warning',
        code: reason === 'outside' ? 'outside_folder' : 'not_regular',
        path: rel,
        message: reason === 'outside' ? 'Skipped: it points outside the served folder' : 'Skipped: not a regular file or directory',
      });
    }
    const skillFile = children.find((c) => c.kind === 'file' && (c.rel.endsWith('/SKILL.md') || c.rel === 'SKILL.md'))
      ?? children.find((c) => c.kind === 'file' && (c.rel.endsWith('/skill.md') || c.rel === 'skill.md'));
    if (skillFile) {
      skillDirs.push(relDir);
      skillFiles.set(relDir, skillFile.rel);
    }
    const subdirectories: WalkEntry[] = [];
    for (const child of children) {
      if (++count > limits.maxEntries) {
        truncated = true;
        issues.push({ severity: 'error', code: 'too_many_files', path: relDir, message: `Stopped after ${limits.maxEntries} entries` });
        return;
      }
      const name = child.rel.slice(child.rel.lastIndexOf('/') + 1);
      if (child.kind === 'directory' && (SKIPPED.has(name) || (name.startsWith('.') && !HIDDEN_ALLOWED.has(name)))) continue;
      entries.set(child.rel, child);
      if (child.kind === 'directory') {
        if (visited.has(child.abs)) continue;
        visited.add(child.abs);
        if (depth + 1 > limits.maxDepth) {
          issues.push({ severity: 'warning', code: 'too_deep', path: child.rel, message: `Skipped: deeper than ${limits.maxDepth} levels` });
          continue;
        }
        subdirectories.push(child);
      }
    }
    // One folder after another: the reads are synchronous, so reading siblings
    // "concurrently" only kept a pending walk per folder alive at once.
    for (const child of subdirectories) await walk(child.rel, child.abs, depth + 1);
  }

  await walk('', fs.root, 0);

  const promptFiles: PromptFileRef[] = [];
  const sharedReferences: string[] = [];
  const skillSet = new Set(skillDirs);
  const inSkill = (rel: string): boolean => {
    for (let dir = rel; dir !== ''; ) {
      dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
      if (skillSet.has(dir)) return true;
    }
    return false;
  };
  for (const entry of entries.values()) {
    if (entry.kind !== 'file' || inSkill(entry.rel)) continue;
    if (/^references\/[^/]+\.md$/.test(entry.rel)) {
      sharedReferences.push(entry.rel);
      continue;
    }
    const ref = formatOf(entry.rel);
    if (ref) promptFiles.push(ref);
  }
  // The walk reads folders concurrently: sort everything it found so catalogues are deterministic.
  const byPath = (a: { rel: string } | string, b: { rel: string } | string): number => {
    const x = typeof a === 'string' ? a : a.rel;
    const y = typeof b === 'string' ? b : b.rel;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  promptFiles.sort(byPath);
  sharedReferences.sort(byPath);
  skillDirs.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
  // Group entries by owning skill, walking up each entry's ancestors once:
  // linear in entries times depth, not entries times skills.
  const bySkill = new Map<string, WalkEntry[]>(skillDirs.map((dir) => [dir, []]));
  for (const entry of entries.values()) {
    let dir = entry.rel;
    while (dir !== '') {
      dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
      bySkill.get(dir)?.push(entry);
    }
  }
  return { entries, skillDirs, skillFiles, bySkill, promptFiles, sharedReferences, issues };
}
