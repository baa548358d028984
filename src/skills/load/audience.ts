/**
 * Skills per audience: a skill or prompt file says who may use it in its
 * frontmatter, as `metadata.audience`, a string of audience names separated
 * by spaces or commas (`metadata` maps strings to strings in the Agent
 * Skills format, so a string keeps the skill valid everywhere):
 *
 *   metadata:
 *     audience: team-a team-b
 *
 * The server maps a caller's token to audiences (its scopes, or a claim such
 * as `groups`); core/audience.ts decides what a caller may use. A nested
 * skill is restricted by its own audience and by every skill around it; a
 * file or folder belongs to the innermost skill holding it. A malformed
 * declaration restricts to no one (closed, not open) and `check` reports it.
 * What the catalogue does with a declaration: catalogue/owners.ts.
 */
import type { Issue } from './issues.js';

const NAMES = /[\s,]+/;

/** The audience a frontmatter declares: undefined for none, a list (empty when malformed), and what is wrong with it. */
export function declaredAudience(data: Record<string, unknown>): { audience: string[] | undefined; problem?: string } {
  const metadata = data.metadata;
  if (typeof metadata !== 'object' || metadata === null || !Object.hasOwn(metadata, 'audience')) return { audience: undefined };
  const value = (metadata as Record<string, unknown>).audience;
  const names = typeof value === 'string' ? value.split(NAMES).filter(Boolean) : [];
  if (names.length > 0) return { audience: names };
  return {
    audience: [],
    problem: '"metadata.audience" must be a string of audience names separated by spaces or commas; until it is, no authenticated caller sees this',
  };
}

/** The issue `check` reports for a malformed declaration in `path`. */
export function audienceIssue(problem: string, path: string, line: number | undefined): Issue {
  return line === undefined
    ? { severity: 'error', code: 'invalid_audience', path, message: problem }
    : { severity: 'error', code: 'invalid_audience', path, line, message: problem };
}
