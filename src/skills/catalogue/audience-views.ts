/**
 * A catalogue as each caller may see it: the skills, completions and files
 * of the audiences a principal belongs to (core/audience.ts). Made on first
 * use per audience set and kept with the catalogue (a few sets in practice,
 * 64 at most each); a catalogue without restricted skills answers with its
 * own views and keeps nothing.
 */
import { audienceKey, audienceOf, mayUse } from '../../core/audience.js';
import type { Principal } from '../../core/context.js';
import { type CompletionIndex, createCompletionIndex } from '../../core/rank.js';
import type { SkillFileRecord, SkillRecord } from '../load/skill-record.js';
import type { PromptEntry } from './entries.js';
import type { Owners } from './owners.js';
import { SkillDirectory } from './skill-directory.js';

/** What the views are cut from: the catalogue's own, unrestricted views. */
interface Whole {
  readonly skills: readonly SkillRecord[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly topSkills: ReadonlyMap<string, SkillRecord>;
  readonly skillDirectory: SkillDirectory;
  readonly skillCompletions: CompletionIndex;
  readonly owners: Owners;
  pathCompletions(skill: SkillRecord): CompletionIndex;
}

/** Most views of one kind kept; the oldest goes first. */
const KEPT = 64;

/** Keeps `value` under `key`, the oldest entry making room. */
function keep<V>(views: Map<string, V>, key: string, value: V): V {
  if (views.size >= KEPT) views.delete(views.keys().next().value as string);
  views.set(key, value);
  return value;
}

export class AudienceViews {
  readonly #whole: Whole;
  /** Directories per audience set, for the skill tools. */
  readonly #directories = new Map<string, SkillDirectory>();
  readonly #completions = new Map<string, CompletionIndex>();
  /** Per skill: whether it holds files of a restricted skill nested in it. */
  readonly #holdsRestricted = new Map<SkillRecord, boolean>();
  /** Per audience set, the files and path completions of each skill holding restricted ones. */
  readonly #files = new Map<string, Map<SkillRecord, { files: readonly SkillFileRecord[]; paths?: CompletionIndex }>>();

  constructor(whole: Whole) {
    this.#whole = whole;
  }

  /** The key of the audience set `principal` sees: undefined when it sees the whole (no principal, or nothing restricted). */
  #keyOf(principal: Principal | undefined): string | undefined {
    return principal === undefined || !this.#whole.owners.restricted ? undefined : audienceKey(principal);
  }

  skillDirectoryFor(principal: Principal | undefined): SkillDirectory {
    const whole = this.#whole;
    const key = this.#keyOf(principal);
    if (key === undefined) return whole.skillDirectory;
    return (
      this.#directories.get(key) ??
      keep(this.#directories, key, new SkillDirectory({ skills: whole.skills.filter((skill) => mayUse(skill, principal)), promptsByName: whole.promptsByName }))
    );
  }

  skillCompletionsFor(principal: Principal | undefined): CompletionIndex {
    const whole = this.#whole;
    const key = this.#keyOf(principal);
    if (key === undefined) return whole.skillCompletions;
    return (
      this.#completions.get(key) ??
      keep(this.#completions, key, createCompletionIndex([...whole.topSkills.values()].filter((skill) => mayUse(skill, principal)).map((skill) => skill.path)))
    );
  }

  mayRead(uri: string, principal: Principal | undefined): boolean {
    if (principal === undefined || !this.#whole.owners.restricted) return true;
    const owner = this.#whole.owners.ownerOf(uri);
    return owner === undefined || mayUse(owner, principal);
  }

  restricted(uri: string): boolean {
    const owners = this.#whole.owners;
    if (!owners.restricted) return false;
    const owner = owners.ownerOf(uri);
    return owner !== undefined && audienceOf(owner) !== undefined;
  }

  filesFor(skill: SkillRecord, principal: Principal | undefined): readonly SkillFileRecord[] {
    return this.#fileView(skill, principal)?.files ?? skill.files;
  }

  pathCompletionsFor(skill: SkillRecord, principal: Principal | undefined): CompletionIndex {
    const view = this.#fileView(skill, principal);
    if (!view) return this.#whole.pathCompletions(skill);
    view.paths ??= createCompletionIndex(view.files.map((f) => f.inSkill));
    return view.paths;
  }

  /** What `principal` may use of a skill holding a restricted nested skill's files; undefined when that is all of them. */
  #fileView(skill: SkillRecord, principal: Principal | undefined): { files: readonly SkillFileRecord[]; paths?: CompletionIndex } | undefined {
    const key = this.#keyOf(principal);
    if (key === undefined || !this.#holds(skill)) return undefined;
    const bySkill = this.#files.get(key) ?? keep(this.#files, key, new Map());
    let view = bySkill.get(skill);
    if (!view) {
      view = { files: skill.files.filter((file) => this.mayRead(file.uri, principal)) };
      bySkill.set(skill, view);
    }
    return view;
  }

  /** Whether `skill` holds files of a restricted skill nested in it. */
  #holds(skill: SkillRecord): boolean {
    let holds = this.#holdsRestricted.get(skill);
    if (holds === undefined) {
      const owners = this.#whole.owners;
      holds = skill.files.some((file) => {
        const owner = owners.ownerOf(file.uri);
        return owner !== undefined && owner !== skill && audienceOf(owner) !== undefined;
      });
      this.#holdsRestricted.set(skill, holds);
    }
    return holds;
  }
}
