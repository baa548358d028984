/**
 * A skill's findings: the load issues (load/issues.ts) of the files inside
 * its folder and in no skill nested deeper, so a finding about a restricted
 * nested skill is never shown with the skill that holds it.
 */
import type { Issue } from '../load/issues.js';
import type { SkillRecord } from '../load/skill-record.js';

/** Whether `path` (relative to the served folder) is inside the folder `dir` ('' holds everything). */
function inside(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** The issues whose innermost enclosing skill folder, among `skills`, is `skill`'s. */
export function findingsOf(skill: SkillRecord, skills: readonly SkillRecord[], issues: readonly Issue[]): Issue[] {
  const deeper = skills.filter((other) => other !== skill && other.dir !== skill.dir && inside(other.dir, skill.dir));
  return issues.filter((issue) => inside(issue.path, skill.dir) && !deeper.some((other) => inside(issue.path, other.dir)));
}
