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
