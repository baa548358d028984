/**
 * The audiences of the catalogue's objects (load/audience.ts says how a skill
 * declares one): a nested skill is restricted by its own audience and by
 * every skill around it, and a file or folder belongs to the innermost skill
 * holding it, whose audience is the file's (core/audience.ts decides use).
 */
import { audienceOf, restrictTo } from '../../core/audience.js';
import type { SkillRecord } from '../load/skill-record.js';

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
