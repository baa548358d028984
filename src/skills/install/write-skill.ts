/**
 * Writes one skill's files to `<target>/<name>/`, the layout hosts read
 * (`.claude/skills/`, `.github/skills/`, `.agents/skills/`). The files are
 * written to a fresh folder beside the target and renamed into place, so a
 * host never reads half a skill and a failed write leaves what was there.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One file to write: its path inside the skill (`/`-separated) and its bytes, already verified. */
export interface SkillFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Written 0755 rather than 0644 (a skill's scripts stay runnable). */
  readonly executable?: boolean;
}

/** What became of a skill's folder. */
export type Written = 'created' | 'replaced';

/** A skill's folder exists and `force` was not given. */
export class SkillExistsError extends Error {
  override name = 'SkillExistsError';
}

/**
 * Whether `segment` may be one component of a path written under the target:
 * never empty, `.`, `..`, hidden by a leading dot at the skill's root, nor
 * holding a separator or a NUL. The loaders already confine what they read;
 * this keeps the writer safe on its own, whatever source gave the paths.
 */
function safeSegment(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !segment.includes('\\') && !segment.includes('\0');
}

/** Throws unless `path` is relative and stays inside the skill's folder. */
export function checkFilePath(path: string): void {
  if (path.startsWith('/') || !path.split('/').every(safeSegment)) throw new Error(`refusing to write "${path}": not a plain relative path`);
}

/** Throws unless `name` is one plain folder name (not `.x`, which hosts skip). */
export function checkSkillFolderName(name: string): void {
  if (!safeSegment(name) || name.includes('/') || name.startsWith('.')) throw new Error(`refusing to install "${name}": not a plain folder name`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Writes `files` into the fresh folder `dir`. */
async function writeAll(dir: string, files: readonly SkillFile[]): Promise<void> {
  for (const file of files) {
    checkFilePath(file.path);
    const to = join(dir, ...file.path.split('/'));
    await mkdir(dirname(to), { recursive: true });
    // wx: the folder is new, so a file that is already there means two entries claimed one path.
    await writeFile(to, file.bytes, { flag: 'wx', mode: file.executable ? 0o755 : 0o644 });
  }
}

/**
 * Writes `files` as `<target>/<name>/` and returns whether the folder was
 * created or replaced. An existing folder (or file, or link: never followed)
 * is replaced only with `force`; it is moved aside first and removed once the
 * new one is in place, and put back if that fails.
 */
export async function writeSkill(target: string, name: string, files: readonly SkillFile[], force: boolean): Promise<Written> {
  checkSkillFolderName(name);
  const final = join(target, name);
  const present = await exists(final);
  if (present && !force) throw new SkillExistsError(`${final} exists (use --force to replace it)`);
  await mkdir(target, { recursive: true });
  const fresh = await mkdtemp(join(target, `.${name}.skillport-`));
  try {
    await writeAll(fresh, files);
    if (!present) {
      await rename(fresh, final);
      return 'created';
    }
    const aside = join(target, `.${name}.skillport-old-${randomBytes(6).toString('hex')}`);
    await rename(final, aside);
    try {
      await rename(fresh, final);
    } catch (error) {
      await rename(aside, final);
      throw error;
    }
    await rm(aside, { recursive: true, force: true });
    return 'replaced';
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    throw error;
  }
}
