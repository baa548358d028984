/**
 * What the skills loader reports about a folder: data, not exceptions, so one
 * broken file never stops the others from being served.
 */

/** How bad an issue is: errors skip the item, warnings load it anyway, notes are informational. */
export type Severity = 'error' | 'warning' | 'note';

/** One finding about one file. */
export interface Issue {
  severity: Severity;
  /** Stable identifier, e.g. `invalid_yaml`, `name_mismatch`. */
  code: string;
  /** Path relative to the served folder. */
  path: string;
  /** 1-based line, when the finding has one. */
  line?: number;
  message: string;
  /**
   * The folder the path is in, as it was given to the loader, when more than
   * one folder was: `path` alone cannot tell two folders' `SKILL.md` apart.
   */
  folder?: string;
}

/** Formats an issue as `path:line: severity: message (code)`. */
export function formatIssue(issue: Issue): string {
  const where = issue.line === undefined ? issue.path : `${issue.path}:${issue.line}`;
  return `${where}: ${issue.severity}: ${issue.message} (${issue.code})`;
}

/** Findings kept for one file; the rest are counted in one more finding. */
export const MAX_ISSUES_PER_FILE = 20;
/** Findings kept for the files of one folder (130,000 links in one folder are one problem). */
export const MAX_ISSUES_PER_FOLDER = 100;
/** Findings kept for a whole load; the rest are counted in one more finding. */
export const MAX_ISSUES = 1000;

const RANK: Record<Severity, number> = { note: 0, warning: 1, error: 2 };

/**
 * Appends `found` to `issues` one by one: spreading an array of a hostile
 * file's 130,000 findings into `push` overflowed the call stack.
 */
export function addIssues(issues: Issue[], found: readonly Issue[]): void {
  for (const issue of found) issues.push(issue);
}

/** Counts what a cap leaves out, and where its summary goes in the kept list. */
class Dropped {
  count = 0;
  worst: Severity = 'note';
  /** Index of the summary's slot in the kept list; -1 until something is dropped. */
  at = -1;

  drop(issue: Issue, kept: Issue[]): void {
    this.count++;
    if (RANK[issue.severity] > RANK[this.worst]) this.worst = issue.severity;
    if (this.at < 0) {
      this.at = kept.length;
      kept.push(issue); // A placeholder, replaced by the summary.
    }
  }
}

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.');

/**
 * The findings of a load, at most {@link MAX_ISSUES_PER_FILE} per file,
 * {@link MAX_ISSUES_PER_FOLDER} per folder and {@link MAX_ISSUES} in all, in
 * the order found. What is left out is counted in one finding per file or
 * folder (and one overall) with the worst severity it had, so a file with a
 * thousand problems is still named, still fails `check`, and cannot hide the
 * findings of the other files.
 */
export function capIssues(issues: readonly Issue[]): Issue[] {
  const kept: Issue[] = [];
  const files = new Map<string, { kept: number; dropped: Dropped }>();
  const folders = new Map<string, { kept: number; dropped: Dropped }>();
  const count = (map: Map<string, { kept: number; dropped: Dropped }>, key: string) => {
    let entry = map.get(key);
    if (!entry) map.set(key, (entry = { kept: 0, dropped: new Dropped() }));
    return entry;
  };
  for (const issue of issues) {
    const file = count(files, issue.path);
    const folder = count(folders, folderOf(issue.path));
    if (file.kept >= MAX_ISSUES_PER_FILE) file.dropped.drop(issue, kept);
    else if (folder.kept >= MAX_ISSUES_PER_FOLDER) folder.dropped.drop(issue, kept);
    else {
      file.kept++;
      folder.kept++;
      kept.push(issue);
    }
  }
  const summarize = (map: Map<string, { dropped: Dropped }>, where: string) => {
    for (const [path, { dropped }] of map) {
      if (dropped.at >= 0)
        kept[dropped.at] = {
          severity: dropped.worst,
          code: 'too_many_findings',
          path,
          message: `${dropped.count} more findings in this ${where} are not shown`,
        };
    }
  };
  summarize(files, 'file');
  summarize(folders, 'folder');
  if (kept.length <= MAX_ISSUES) return kept;
  const rest = new Dropped();
  const shown = kept.slice(0, MAX_ISSUES);
  for (const issue of kept.slice(MAX_ISSUES)) rest.drop(issue, []);
  shown.push({ severity: rest.worst, code: 'too_many_findings', path: '.', message: `${rest.count} more findings are not shown` });
  return shown;
}
