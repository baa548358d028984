/**
 * Installs skills to disk: each chosen skill's files, verified by its source
 * (from a catalogue: read through the folder's confinement and checked
 * against the SHA-256 the catalogue recorded), written as `<target>/<name>/`
 * (write-skill.ts). Whatever the source (a folder, a git checkout, an
 * unpacked index, an MCP server), what is written is what was verified: a
 * file that changed since it was listed, or whose bytes do not match its
 * digest, stops that skill's install.
 */
import type { Catalogue } from '../catalogue/catalogue.js';
import { digestOf, type SkillRecord } from '../load/skill-record.js';
import { SkillExistsError, type SkillFile, type Written, writeSkill } from './write-skill.js';

export { SkillExistsError, type SkillFile } from './write-skill.js';

/** A skill to install: its name (the folder it becomes) and how to get its verified files. */
export interface InstallableSkill {
  readonly name: string;
  files(): Promise<SkillFile[]>;
}

/** Progress of an install, told before each skill and after it. */
export interface InstallProgress {
  /** The skill being installed. */
  readonly name: string;
  /** Skills done so far, and in all. */
  readonly done: number;
  readonly total: number;
  /** Bytes written so far. */
  readonly bytes: number;
}

export interface InstallOptions {
  /** Replace a skill's folder that is already there. */
  force?: boolean;
  onProgress?(progress: InstallProgress): void;
}

/** The outcome for one skill. */
export interface InstallOutcome {
  readonly name: string;
  /** Where it is (or would have been) written. */
  readonly dir: string;
  /** `created` or `replaced`; `exists` when it was there and not forced; `failed` with {@link error}. */
  readonly status: Written | 'exists' | 'failed';
  readonly files: number;
  readonly bytes: number;
  readonly error?: string;
}

/**
 * The skills `names` choose among `skills`, in the order given (every skill,
 * in their order, when none are given). Throws for a name missing, naming the
 * ones there are, so a typo is not a silent no-op. Where two skills share a
 * name, the first is the one served, so the one chosen.
 */
export function chooseByName<T extends { readonly name: string }>(skills: readonly T[], names: readonly string[]): T[] {
  const byName = new Map<string, T>();
  for (const skill of skills) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  if (names.length === 0) return [...byName.values()];
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    const known = [...byName.keys()].sort().join(', ') || 'none';
    throw new Error(`no skill named ${missing.map((n) => `"${n}"`).join(', ')} in this source (it has: ${known})`);
  }
  return [...new Set(names)].map((name) => byName.get(name) as T);
}

/** The skills of `catalogue` that `names` choose (see {@link chooseByName}), each read and verified when installed. */
export function chooseSkills(catalogue: Catalogue, names: readonly string[]): InstallableSkill[] {
  return chooseByName(catalogue.skills, names).map((skill) => ({ name: skill.name, files: () => verifiedFiles(catalogue, skill) }));
}

/** A skill's files, read through the catalogue's confined folders and verified. */
export async function verifiedFiles(catalogue: Catalogue, skill: SkillRecord): Promise<SkillFile[]> {
  const files: SkillFile[] = [];
  for (const record of skill.files) {
    const entry = catalogue.files.get(record.uri);
    if (entry === undefined) throw new Error(`${skill.name}: ${record.inSkill} is not served`);
    const read = await entry.fs.read(record.rel);
    if ('refused' in read) throw new Error(`${skill.name}: cannot read ${record.inSkill} (${read.refused})`);
    // The bytes must be those the catalogue listed (and an index source verified): a file changed since is not installed half-new.
    if (digestOf(read.bytes) !== record.digest) throw new Error(`${skill.name}: ${record.inSkill} changed since it was loaded, or its digest does not match`);
    files.push({ path: record.inSkill, bytes: read.bytes, ...(read.executable ? { executable: true } : {}) });
  }
  return files;
}

/** Installs one skill; never throws for the skill's own failure, which its outcome says. */
async function installOne(skill: InstallableSkill, target: string, force: boolean): Promise<InstallOutcome> {
  const dir = `${target.endsWith('/') ? target : `${target}/`}${skill.name}`;
  let files: SkillFile[] = [];
  try {
    files = await skill.files();
    const status = await writeSkill(target, skill.name, files, force);
    return { name: skill.name, dir, status, files: files.length, bytes: sizeOf(files) };
  } catch (error) {
    const status = error instanceof SkillExistsError ? 'exists' : 'failed';
    return { name: skill.name, dir, status, files: files.length, bytes: 0, error: (error as Error).message };
  }
}

function sizeOf(files: readonly SkillFile[]): number {
  return files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
}

/**
 * Installs `skills` under `target`, one after another (one skill's failure
 * does not stop the others), and returns each one's outcome in order.
 */
export async function installSkills(skills: readonly InstallableSkill[], target: string, options: InstallOptions = {}): Promise<InstallOutcome[]> {
  const outcomes: InstallOutcome[] = [];
  let bytes = 0;
  for (const skill of skills) {
    options.onProgress?.({ name: skill.name, done: outcomes.length, total: skills.length, bytes });
    const outcome = await installOne(skill, target, options.force === true);
    bytes += outcome.bytes;
    outcomes.push(outcome);
  }
  options.onProgress?.({ name: '', done: outcomes.length, total: skills.length, bytes });
  return outcomes;
}
