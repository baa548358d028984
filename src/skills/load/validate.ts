/**
 * The Agent Skills format rules the loader and `skillport check` apply
 * (the Agent Skills specification, agentskills.io/specification): lenient on
 * load, strict in the report. One finding per mistake, on the line of the
 * key at fault: a name that breaks several rules is one finding, and a rule
 * whose breach also keeps the skill out of the Skills extension says so in
 * that finding (catalogue/extension.ts applies the same predicates).
 */
import { audienceIssue, declaredAudience } from './audience.js';
import { type KeyLines, lineOf } from './frontmatter.js';
import type { Issue } from './issues.js';
import { probableKey } from './key-spelling.js';

/** The six keys the Agent Skills format defines. */
export const STANDARD_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** Keys other tools add, and who adds them, so `check` can say where a key comes from. */
export const KNOWN_EXTENSION_KEYS: Record<string, string> = {
  arguments: 'skillport (prompt arguments)',
  'argument-hint': 'Claude Code',
  'disable-model-invocation': 'Claude Code',
  'user-invocable': 'Claude Code',
  model: 'Claude Code',
  context: 'Claude Code',
  agent: 'Claude Code',
  hooks: 'Claude Code',
  version: 'Claude Code (plugin skills)',
};

/** Every key `check` knows, for telling a misspelled key from someone's own. */
const KNOWN_KEYS: readonly string[] = [...STANDARD_KEYS, ...Object.keys(KNOWN_EXTENSION_KEYS)];

/** The name rule in its ASCII form, as the Skills extension's conformance checks use it. */
export const NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const NAME_CHARACTERS = /^[a-z0-9-]+$/;

/** Characters as the Agent Skills limits count them: code points, not UTF-16 units. */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The Skills extension's limits on a description (SEP-2640 §The Skill entry: 1-1024 characters). */
export const fitsDescription = (value: unknown): boolean => typeof value === 'string' && value !== '' && codePoints(value) <= 1024;
/** ... on `compatibility`, when given: 1-500 characters. */
export const fitsCompatibility = (value: unknown): boolean => value === undefined || (typeof value === 'string' && value !== '' && codePoints(value) <= 500);
/** ... on `metadata`, when given: strings to strings. */
export const fitsMetadata = (value: unknown): boolean =>
  value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string'));

/** What each finding that also keeps a skill out of the Skills extension adds. */
const LEFT_OUT = '; until that is fixed, the skill is left out of the Skills extension (skills/list, skills/get) and served only as a prompt and as resources';

type Push = (severity: Issue['severity'], code: string, key: string, message: string) => void;

/** The one finding about a `name` that is there: the rules it breaks, or the folder it differs from. */
function checkName(name: string, folder: string, push: Push): void {
  if (name === '.' || name === '..') {
    // The name is a URI segment (skill://<name>/...): a dot segment would be resolved away.
    push('error', 'invalid_name', 'name', `The name "${name}" cannot name a skill: it is a relative path segment`);
    return;
  }
  const broken: string[] = [];
  if (name.length > 64) broken.push(`has ${codePoints(name)} characters, more than 64`);
  if (!NAME_CHARACTERS.test(name)) broken.push('has characters other than lowercase letters, digits and hyphens');
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) broken.push('has a hyphen at an end or two in a row');
  if (broken.length === 0) {
    if (name !== folder) push('warning', 'name_mismatch', 'name', `The name "${name}" differs from its folder "${folder}"`);
    return;
  }
  const code = broken.length === 1 && name.length > 64 ? 'name_too_long' : 'invalid_name';
  const hint = name !== folder && NAME_PATTERN.test(folder) ? ` (the folder's name, "${folder}", would do)` : '';
  push('warning', code, 'name', `The name "${name}" ${broken.join('; it ')}${hint}${LEFT_OUT}`);
}

/** The finding for a required key that is not there, on the line of a key that was probably meant for it. */
function missing(key: 'name' | 'description', data: Record<string, unknown>, typos: Map<string, string>, push: Push): void {
  const code = `missing_${key}`;
  const meant = [...typos].find(([, known]) => known === key)?.[0];
  // Reported here, so not again as a key of its own.
  if (meant !== undefined) {
    typos.set(meant, '');
    push('error', code, meant, `The frontmatter has no "${key}": "${meant}" is probably it, misspelled`);
  } else if (data[key] !== undefined) push('error', code, key, `"${key}" must be a text that is not empty`);
  else push('error', code, key, `The frontmatter has no "${key}"`);
}

/**
 * Checks a skill's frontmatter; `folder` is the skill folder's name. With
 * `lines` (see keyLines), a finding about a key carries the key's line; one
 * about a key that is not there (no `name`) carries none.
 */
export function validateSkillFrontmatter(data: Record<string, unknown>, folder: string, path: string, lines?: KeyLines): Issue[] {
  const issues: Issue[] = [];
  const push: Push = (severity, code, key, message) => {
    const line = lines?.([key]);
    issues.push(line === undefined ? { severity, code, path, message } : { severity, code, path, line, message });
  };
  // Keys nobody defines that are one slip from one that is: `descripton`.
  const typos = new Map<string, string>();
  for (const key of Object.keys(data)) {
    const known = KNOWN_KEYS.includes(key) ? undefined : probableKey(key, KNOWN_KEYS);
    if (known !== undefined) typos.set(key, known);
  }
  const { name, description } = data;
  if (typeof name !== 'string' || name === '') missing('name', data, typos, push);
  else checkName(name, folder, push);
  if (typeof description !== 'string' || description.trim() === '') missing('description', data, typos, push);
  else if (!fitsDescription(description)) {
    push('warning', 'description_too_long', 'description', `The description has ${codePoints(description)} characters, more than 1024${LEFT_OUT}`);
  }
  if (!fitsCompatibility(data.compatibility)) {
    push('warning', 'invalid_compatibility', 'compatibility', `"compatibility" must be a string of 1-500 characters${LEFT_OUT}`);
  }
  if (!fitsMetadata(data.metadata)) push('warning', 'invalid_metadata', 'metadata', `"metadata" must map strings to strings${LEFT_OUT}`);
  const { problem } = declaredAudience(data);
  if (problem) issues.push(audienceIssue(problem, path, lines?.(['metadata'])));
  if (data['allowed-tools'] !== undefined && typeof data['allowed-tools'] !== 'string') {
    push('warning', 'invalid_allowed_tools', 'allowed-tools', '"allowed-tools" must be a space-separated string');
  }
  if (data.license !== undefined && typeof data.license !== 'string') push('warning', 'invalid_license', 'license', '"license" must be a string');
  for (const key of Object.keys(data)) {
    if ((STANDARD_KEYS as readonly string[]).includes(key)) continue;
    const owner = KNOWN_EXTENSION_KEYS[key];
    const known = typos.get(key);
    // '' is a key already reported, as the required key it was meant to be.
    if (known === '') continue;
    if (known !== undefined) push('warning', 'misspelled_key', key, `"${key}" is not a key skillport reads: probably "${known}", misspelled`);
    else push('note', 'extension_key', key, owner ? `"${key}" is an extension of ${owner}, not an Agent Skills key` : `"${key}" is not an Agent Skills key`);
  }
  return issues;
}

// A frontmatter block that does not open the file: a `---` line, then a key a skill needs.
const LATE_BLOCK = /^---[ \t]*\r?\n(?:name|description)[ \t]*:/m;

/** The one finding for a SKILL.md without frontmatter: what it needs, or that its block must open the file. */
export function noFrontmatter(text: string, path: string): Issue {
  const late = LATE_BLOCK.exec(text);
  if (late) {
    const line = lineOf(text, late.index);
    return {
      severity: 'error',
      code: 'no_frontmatter',
      path,
      line,
      message: `The frontmatter must open the file: its "---" line is line ${line}, and nothing may come before it`,
    };
  }
  const message = 'The file has no frontmatter: it must start with a "---" line, then "name:" and "description:" lines, then "---"';
  return { severity: 'error', code: 'no_frontmatter', path, line: 1, message };
}
