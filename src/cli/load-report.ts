/**
 * What a command says about the folder it read, besides its own output: the
 * load findings of broken skills (which a catalogue leaves out without a
 * word), why a named skill is not served, and a source that holds nothing
 * at all, which is most often the wrong folder rather than an empty one.
 */
import { join } from 'node:path';
import { type Catalogue, formatIssue, type Issue, redactSource } from '../skills.js';

/** A finding as shown: its path joined to its folder when several were given, so two folders' `x/SKILL.md` differ. */
export function shownIssue(issue: Issue): string {
  return formatIssue(issue.folder === undefined ? issue : { ...issue, path: join(issue.folder, issue.path) });
}

/** The findings worth a line on stderr (errors and warnings; notes are `check`'s), in the loader's order. */
export function loadFindings(catalogue: Catalogue): Issue[] {
  return catalogue.issues.filter((issue) => issue.severity !== 'note');
}

/** The last segments of a finding's path that could have named a prompt: a skill's folder, a prompt file's stem. */
function namesOf(path: string): string[] {
  const segments = path.split('/');
  const file = segments.at(-1) ?? '';
  // SKILL.md and its locale variants (SKILL.fr.md) name their folder's skill; the folder itself is '' at the root.
  if (/^SKILL(?:\.[^./]+)?\.md$/i.test(file)) return segments.length > 1 ? [segments.at(-2) ?? ''] : [];
  const stem = file.split('.')[0] ?? '';
  return stem === '' ? [] : [stem];
}

/**
 * The findings of the skill or prompt file `name` would have been, when it is
 * not served: matched by its folder's name (a broken SKILL.md has no name to
 * go by) or a prompt file's stem; a plugin's `plugin:skill` by its skill part.
 */
export function findingsOf(name: string, catalogue: Catalogue): Issue[] {
  const bare = name.slice(name.lastIndexOf(':') + 1);
  // A marketplace's plugin folders are places of their own: the skill's folder is then the issue's folder.
  const pathOf = (issue: Issue) => (issue.folder === undefined ? issue.path : join(issue.folder, issue.path).replaceAll('\\', '/'));
  return loadFindings(catalogue).filter((issue) => namesOf(pathOf(issue)).some((candidate) => candidate === name || candidate === bare));
}

/** What is said of a source that holds nothing to serve. */
export const HOLDS_NOTHING = 'no skills (a folder with SKILL.md) and no prompt files: is it the right folder?';

/**
 * The sources, as shown, that hold nothing to serve: no skill and no prompt
 * file, not even a broken one (whose findings say more). All of them when
 * nothing at all was found (a git or index source too); among several
 * folders, each one the catalogue found empty. The bundled skills (no folder
 * given) are never empty.
 */
export function emptySources(catalogue: Catalogue, folders: readonly string[]): string[] {
  if (catalogue.prompts.length > 0 || catalogue.skills.length > 0 || loadFindings(catalogue).length > 0) {
    return folders.length > 1 ? catalogue.emptyFolders.map(redactSource) : [];
  }
  return folders.map(redactSource);
}

/** The warning for sources that hold nothing to serve, if they do not. */
export function emptyWarning(catalogue: Catalogue, folders: readonly string[]): string | undefined {
  const empty = emptySources(catalogue, folders);
  return empty.length === 0 ? undefined : `${empty.join(', ')} ${empty.length === 1 ? 'holds' : 'hold'} ${HOLDS_NOTHING}`;
}
