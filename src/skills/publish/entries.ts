/**
 * Which skills of a catalogue the discovery index can list, and as what
 * (Agent Skills Discovery v0.2.0 §Discovery Index): a name that follows the
 * Agent Skills rule (1-64 of a-z, 0-9 and hyphens, no leading, trailing or
 * double hyphen: §URI Structure), one skill per name, a description of at
 * most 1,024 characters. What cannot be listed is left out, or cut, and said
 * as a finding: never served broken.
 */
import type { Catalogue } from '../catalogue/catalogue.js';
import type { Issue } from '../load/issues.js';
import type { SkillRecord } from '../load/skill-record.js';
import { NAME_PATTERN } from '../load/validate.js';

/** §Discovery Index, skill entry `description`: at most this many characters (the Agent Skills limit). */
export const MAX_DESCRIPTION = 1024;

/** A skill the index may list: its name there and its description, cut to the limit. */
export interface Candidate {
  readonly skill: SkillRecord;
  readonly name: string;
  readonly description: string;
}

/** Whether `name` is a valid Agent Skills name (§URI Structure). */
export function isSkillName(name: string): boolean {
  return name.length <= 64 && NAME_PATTERN.test(name);
}

/**
 * `text` cut to {@link MAX_DESCRIPTION} UTF-16 code units (what clients
 * measure), ending in an ellipsis, never between the two halves of a
 * surrogate pair.
 */
export function cutDescription(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  let end = MAX_DESCRIPTION - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

function finding(skill: SkillRecord, code: string, message: string): Issue {
  return { severity: 'warning', code, path: skill.file.rel, message };
}

/**
 * The skills of `catalogue` the index may list, by name, and what was left
 * out or cut. A name two skills take (a nested skill and a top one) is the
 * first's in catalogue order.
 */
export function candidatesOf(catalogue: Catalogue): { candidates: Candidate[]; findings: Issue[] } {
  const candidates: Candidate[] = [];
  const findings: Issue[] = [];
  const taken = new Set<string>();
  for (const skill of catalogue.skills) {
    const name = skill.name;
    if (!isSkillName(name)) {
      findings.push(
        finding(
          skill,
          'index_invalid_name',
          `"${name}" is not a valid Agent Skills name (1-64 of a-z, 0-9 and "-", no leading, trailing or double "-"): left out of the discovery index`,
        ),
      );
      continue;
    }
    if (taken.has(name)) {
      findings.push(finding(skill, 'index_duplicate_name', `another skill is listed as "${name}" in the discovery index: this one is left out`));
      continue;
    }
    if (skill.description.trim() === '') {
      findings.push(finding(skill, 'index_no_description', `"${name}" has no description, which every discovery index entry needs: left out`));
      continue;
    }
    taken.add(name);
    const description = cutDescription(skill.description);
    if (description !== skill.description) {
      findings.push(finding(skill, 'index_description_cut', `the description has more than ${MAX_DESCRIPTION} characters: the discovery index lists it cut`));
    }
    candidates.push({ skill, name, description });
  }
  candidates.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { candidates, findings };
}
