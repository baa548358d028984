/**
 * The texts the skill tools show a model: `load_skill`'s description (the
 * skills, name and first sentence), a search's answer, a loaded skill's other
 * files, and the failures for a name or path that names nothing. Each listing
 * is bounded in bytes, whatever the folder holds.
 */
import type { CompletionIndex } from '../../core/rank.js';
import type { DirectoryEntry, SkillDirectory } from '../catalogue/skill-directory.js';
import type { SkillFileRecord, SkillRecord } from '../load/skill-record.js';

/**
 * Most UTF-8 bytes of `load_skill`'s description, of a search's answer and of
 * a skill's file list: about a thousand tokens. A tool's description goes to
 * the model on every turn of every conversation, used or not, beside the
 * host's other tools and other servers' tools; 4 KB lists some 30 skills of
 * typical length, enough for a folder of one team's skills, and past that the
 * model searches. The listing is cut at a whole line, never inside one.
 */
export const LISTING_MAX_BYTES = 4096;

/** Most skills a search answers with, and most names the failure for an unknown one suggests. */
const MAX_MATCHES = 20;
const MAX_SUGGESTIONS = 5;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A name, path or query as the caller gave it, quoted, and cut short: it is echoed, and the answer stays bounded. */
function quote(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

function line(entry: DirectoryEntry): string {
  const summary = entry.prompt.description;
  return summary ? `- ${entry.prompt.name}: ${summary}\n` : `- ${entry.prompt.name}\n`;
}

/** How many of `lines` fit, whole, in `budget` bytes (stopping at the first that does not). */
function fitting(lines: Iterable<string>, budget: number): { text: string; count: number } {
  let text = '';
  let used = 0;
  let count = 0;
  for (const next of lines) {
    const size = bytes(next);
    if (used + size > budget) break;
    text += next;
    used += size;
    count++;
  }
  return { text, count };
}

function* linesOf(entries: readonly DirectoryEntry[]): Generator<string> {
  for (const entry of entries) yield line(entry);
}

const INTRO =
  'Loads an Agent Skill: instructions for one kind of task, written for you to follow. ' +
  "When a task matches a skill below, call load_skill with the skill's name before starting, and follow what it returns; " +
  "it also names the skill's other files (references, scripts, templates), which read_skill_file returns. " +
  'If a skill needs arguments, load_skill says which.';

const cutHeader = (shown: number, total: number): string =>
  `\n\nSkills (${shown} of ${total}; to find the others, call load_skill with query: words from the task, matched against skill names, descriptions and headings):\n`;

/** `load_skill`'s description: what it is for, then as many skills as fit in {@link LISTING_MAX_BYTES}. */
export function describeSkills(directory: SkillDirectory): string {
  const { entries } = directory;
  if (entries.length === 0) return `${INTRO}\n\nNo skills are served at the moment.`;
  const whole = `${INTRO}\n\nSkills:\n`;
  const all = fitting(linesOf(entries), LISTING_MAX_BYTES - bytes(whole));
  if (all.count === entries.length) return `${whole}${all.text}`.trimEnd();
  // The header names how many are shown: made as long as it can get, it leaves the lines a safe budget.
  const some = fitting(linesOf(entries), LISTING_MAX_BYTES - bytes(INTRO) - bytes(cutHeader(entries.length, entries.length)));
  return `${INTRO}${cutHeader(some.count, entries.length)}${some.text}`.trimEnd();
}

/** The answer to `load_skill` with a query: the best matches that fit, or what to try instead. */
export function searchAnswer(directory: SkillDirectory, query: string): string {
  const matches = directory.search(query);
  if (matches.length === 0) {
    return `No skill matches ${quote(query)} (${directory.entries.length} skills are served). Try other words from the task.`;
  }
  const header = (shown: number): string =>
    `${shown === matches.length ? matches.length : `The best ${shown} of ${matches.length}`} skill${matches.length === 1 ? '' : 's'} matching ${quote(query)}, best first; call load_skill with one's name to load it:\n`;
  const listed = fitting(linesOf(matches.slice(0, MAX_MATCHES)), LISTING_MAX_BYTES - bytes(header(matches.length)));
  return `${header(listed.count)}${listed.text}`.trimEnd();
}

/**
 * What `load_skill` says after a skill's text: the skill's other files (of
 * `files`, those the caller may use), each by the path read_skill_file takes
 * and the `skill://` URI of the same file as a resource. Undefined when
 * SKILL.md is its only file.
 */
export function fileList(skill: SkillRecord, files: readonly SkillFileRecord[] = skill.files): string | undefined {
  const others = files.filter((file) => file !== skill.file);
  if (others.length === 0) return undefined;
  const header = (shown: number): string =>
    `${shown === others.length ? 'Files' : `${shown} of the ${others.length} files`} of the skill ${JSON.stringify(skill.promptName)}: ` +
    `read one with read_skill_file (skill ${JSON.stringify(skill.promptName)} and its path); each is also the resource at its URI.` +
    (shown === others.length ? '\n' : ' A path that names no file is answered with the paths that start with it.\n');
  function* lines(): Generator<string> {
    for (const file of others) yield `- ${file.inSkill} (${file.uri}, ${file.mimeType}, ${file.size} bytes)\n`;
  }
  const listed = fitting(lines(), LISTING_MAX_BYTES - bytes(header(0)));
  return `${header(listed.count)}${listed.text}`.trimEnd();
}

/** The failure for a name that is no loadable skill, with the names closest to it. */
export function unknownSkill(directory: SkillDirectory, name: string): string {
  const close = directory
    .search(name)
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.prompt.name);
  const hint = close.length > 0 ? ` Closest: ${close.join(', ')}.` : ' Call load_skill with query to search the skills.';
  return `No skill is named ${quote(name)}.${hint}`;
}

/**
 * The failure for a path that is no file of the skill, with the paths that
 * start with it (a folder's files, for `references/`), then those that hold
 * it or come close, as many as fit in {@link LISTING_MAX_BYTES}.
 */
export function unknownFile(paths: CompletionIndex, skill: SkillRecord, path: string): string {
  const head = `The skill ${JSON.stringify(skill.promptName)} has no file ${quote(path)}.`;
  const close = paths.complete(path).values;
  if (close.length === 0) return head;
  const intro = ' Its closest paths:\n';
  function* lines(): Generator<string> {
    for (const value of close) yield `- ${value}\n`;
  }
  return `${head}${intro}${fitting(lines(), LISTING_MAX_BYTES - bytes(head) - bytes(intro)).text}`.trimEnd();
}
