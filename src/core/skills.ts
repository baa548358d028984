/**
 * The neutral side of the MCP Skills extension (SEP-2640,
 * `io.modelcontextprotocol/skills`): a skill is a `SKILL.md` URI, its
 * frontmatter as data, and the complete manifest of its files with sizes and
 * SHA-256 digests, so a host can verify what it later reads.
 */
import type { Awaitable } from './context.js';
import type { Resource } from './model.js';

/** One file of a skill, as listed in its manifest. */
export interface SkillFile {
  uri: string;
  /** `sha256:` followed by 64 lowercase hex digits of the raw bytes. */
  digest: string;
  /** Byte length of the raw content. */
  size: number;
}

/** A skill as `skills/list` and `skills/get` describe it. */
export interface SkillEntry {
  /** The `SKILL.md` URI; its last path segment before `/SKILL.md` is the skill's name. */
  uri: string;
  /** The whole YAML frontmatter of `SKILL.md`, as written. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** Every file of the skill, `SKILL.md` included, or "dynamic" for generated content. */
  resources: SkillFile[] | 'dynamic';
}

/** A source of skills for the Skills extension. */
export interface SkillsProvider {
  listSkills(): Awaitable<readonly SkillEntry[]>;
  /** The entry whose `uri` is `uri`, also for skills a listing leaves out; undefined when none. */
  getSkill(uri: string): Awaitable<SkillEntry | undefined>;
  /**
   * Direct children of a directory resource (`inode/directory`); undefined
   * when `uri` is not a directory this provider serves. Present only when
   * the provider supports `resources/directory/read`. The engine keeps the
   * listing's version and audience views by the array (core/paginate.ts,
   * core/audience.ts): return the same array while the listing is the same,
   * and a new one, never an array changed in place, when it changes.
   */
  readDirectory?(uri: string): Awaitable<readonly Resource[] | undefined>;
  /** Present when skills can change. */
  watch?(listener: () => void): () => void;
}
