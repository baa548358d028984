/**
 * Finds what a served folder holds: skill folders (a `SKILL.md`, also the
 * lower-case `skill.md`), prompt files in the other formats people keep
 * (`prompts/**.md`, Claude Code `.claude/commands/**.md`, VS Code
 * `*.prompt.md`) and shared `references/*.md`. The walk is confined to the
 * folder, skips `.git`, `node_modules` and other hidden folders, follows
 * symbolic links only inside the folder, never visits a directory twice, and
 * stops at a depth and an entry count.
 */

import { formatOf, type PromptFileRef } from '../formats/index.js';
import type { ConfinedFs, Refusal, WalkEntry } from './confined-fs.js';
import type { Issue } from './issues.js';
import { isSkippedFolder } from './skipped.js';

/** How the walk reports what it skipped. */
const REFUSALS: Record<Refusal, { code: string; message: string }> = {
  outside: { code: 'outside_folder', message: 'Skipped: it points outside the served folder' },
  'not-regular': { code: 'not_regular', message: 'Skipped: not a regular file or directory' },
  missing: { code: 'not_regular', message: 'Skipped: it cannot be opened (a broken link, or it went away)' },
  'bad-name': { code: 'invalid_file_name', message: 'Skipped: the name is not valid UTF-8, so no URI can name it' },
  'too-large': { code: 'too_large', message: 'Skipped: larger than the size limit' },
};

/** A skill folder the scan found. */
export interface ScannedSkill {
  /** The folder relative to the served folder ('' when the folder itself is the skill). */
  dir: string;
  /** Its SKILL.md. */
  file: WalkEntry;
  /** The entries inside it, SKILL.md included (a nested skill's entries belong to its ancestors too). */
  entries: WalkEntry[];
}

export interface ScanResult {
  /** Skill folders, shallowest first. */
  skills: ScannedSkill[];
  promptFiles: PromptFileRef[];
  /** Shared reference documents: `references/*.md` at the top of the folder. */
  sharedReferences: string[];
  issues: Issue[];
}

export interface ScanLimits {
  maxDepth: number;
  maxEntries: number;
  /**
   * Bytes of the largest file served; a larger one is left out of the catalogue
   * (a finding says so) rather than listed and then refused on read. Default
   * 16 MiB, the server's `maxResourceBytes` and the Skills extension's budget
   * for a whole skill.
   */
  maxFileBytes?: number;
}

export const DEFAULT_LIMITS: ScanLimits = { maxDepth: 12, maxEntries: 200_000, maxFileBytes: 16 * 1024 * 1024 };

/**
 * Walks `fs` and sorts what it finds. Entries are sorted into their skills,
 * prompt files and shared references as the walk lists them; nothing else is
 * kept, so a large folder holds no index of every path while its skills load.
 */
export async function scanFolder(fs: ConfinedFs, limits: ScanLimits = DEFAULT_LIMITS): Promise<ScanResult> {
  const issues: Issue[] = [];
  const visited = new Set<string>([fs.root]);
  const skills: ScannedSkill[] = [];
  const promptFiles: PromptFileRef[] = [];
  const sharedReferences: string[] = [];
  let count = 0;
  let truncated = false;

  /** Walks one folder; `owners` are the skill folders it is inside. */
  async function walk(relDir: string, absDir: string, depth: number, owners: readonly ScannedSkill[]): Promise<void> {
    if (truncated) return;
    const { entries: children, refused } = await fs.list(relDir, absDir);
    for (const { rel, reason } of refused) {
      issues.push({
        severity: 'warning',
        ...REFUSALS[reason],
        path: rel,
      });
    }
    const skillFile =
      children.find((c) => c.kind === 'file' && (c.rel.endsWith('/SKILL.md') || c.rel === 'SKILL.md')) ??
      children.find((c) => c.kind === 'file' && (c.rel.endsWith('/skill.md') || c.rel === 'skill.md'));
    if (skillFile) {
      const skill: ScannedSkill = { dir: relDir, file: skillFile, entries: [] };
      skills.push(skill);
      owners = [...owners, skill];
    }
    const subdirectories: WalkEntry[] = [];
    for (const child of children) {
      if (++count > limits.maxEntries) {
        truncated = true;
        issues.push({ severity: 'error', code: 'too_many_files', path: relDir, message: `Stopped after ${limits.maxEntries} entries` });
        return;
      }
      const name = child.rel.slice(child.rel.lastIndexOf('/') + 1);
      if (child.kind === 'directory' && isSkippedFolder(name)) continue;
      // A list starts as a one-entry array, not an empty one grown by push: a
      // lone SKILL.md (most skills) then takes one slot, not the 17 a push reserves.
      for (const owner of owners) {
        if (owner.entries.length === 0) owner.entries = [child];
        else owner.entries.push(child);
      }
      if (child.kind === 'file') {
        if (owners.length > 0) continue;
        if (/^references\/[^/]+\.md$/.test(child.rel)) sharedReferences.push(child.rel);
        else {
          const ref = formatOf(child.rel);
          if (ref) promptFiles.push(ref);
        }
        continue;
      }
      if (visited.has(child.abs)) continue;
      visited.add(child.abs);
      if (depth + 1 > limits.maxDepth) {
        issues.push({ severity: 'warning', code: 'too_deep', path: child.rel, message: `Skipped: deeper than ${limits.maxDepth} levels` });
        continue;
      }
      subdirectories.push(child);
    }
    // One folder after another: the reads are synchronous, so reading siblings
    // "concurrently" only kept a pending walk per folder alive at once.
    for (const child of subdirectories) await walk(child.rel, child.abs, depth + 1, owners);
  }

  await walk('', fs.root, 0, []);

  // Catalogues take skills shallowest first (the first to claim a name keeps it), then by path.
  const byPath = (a: { rel: string } | string, b: { rel: string } | string): number => {
    const x = typeof a === 'string' ? a : a.rel;
    const y = typeof b === 'string' ? b : b.rel;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  promptFiles.sort(byPath);
  sharedReferences.sort(byPath);
  skills.sort((x, y) => x.dir.split('/').length - y.dir.split('/').length || (x.dir < y.dir ? -1 : x.dir > y.dir ? 1 : 0));
  return { skills, promptFiles, sharedReferences, issues };
}
