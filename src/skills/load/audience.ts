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
 */
import { audienceOf, restrictTo } from '../../core/audience.js';
import type { Issue } from './issues.js';
import type { SkillRecord } from './skill-record.js';

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

/** Restricts `skill` by its own declaration and that of the skill around it (which is restricted first). */
export function restrictSkill(skill: SkillRecord, own: readonly string[] | undefined, outer: SkillRecord | undefined): void {
  const around = outer ? audienceOf(outer) : undefined;
  const audience = own === undefined ? around : around === undefined ? own : own.filter((name) => around.includes(name));
  restrictTo(skill, audience);
}

/** The innermost skill whose folder holds each URI, by the skills' URI bases. */
export class Owners {
  readonly #byBase: ReadonlyMap<string, SkillRecord>;
  readonly restricted: boolean;

  constructor(skills: readonly SkillRecord[]) {
    this.#byBase = new Map(skills.map((skill) => [skill.uri.slice(0, -'/SKILL.md'.length), skill]));
    this.restricted = skills.some((skill) => audienceOf(skill) !== undefined);
  }

  ownerOf(uri: string): SkillRecord | undefined {
    for (let end = uri.length; end > 0; end = uri.lastIndexOf('/', end - 1)) {
      const owner = this.#byBase.get(uri.slice(0, end));
      if (owner) return owner;
    }
    return undefined;
  }

  /** Gives `item` (a resource, a listing) the audience of the skill that holds `uri`. */
  restrict<T extends object>(item: T, uri: string): T {
    if (!this.restricted) return item;
    const owner = this.ownerOf(uri);
    return owner ? restrictTo(item, audienceOf(owner)) : item;
  }
}
