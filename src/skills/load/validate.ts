/**
 * The Agent Skills format rules the loader and `skillport check` apply
 * (the Agent Skills specification, agentskills.io/specification): lenient on
 * load, strict in the report.
 */
import { audienceIssue, declaredAudience } from './audience.js';
import type { KeyLines } from './frontmatter.js';
import type { Issue } from './issues.js';

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

/** The name rule in its ASCII form, as the Skills extension's conformance checks use it. */
export const NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * Checks a skill's frontmatter; `folder` is the skill folder's name. With
 * `lines` (see keyLines), a finding about a key carries the key's line; one
 * about a key that is not there (no `name`) carries none.
 */
export function validateSkillFrontmatter(data: Record<string, unknown>, folder: string, path: string, lines?: KeyLines): Issue[] {
  const issues: Issue[] = [];
  const push = (severity: Issue['severity'], code: string, key: string, message: string): void => {
    const line = lines?.([key]);
    issues.push(line === undefined ? { severity, code, path, message } : { severity, code, path, line, message });
  };
  const { name, description } = data;
  if (typeof name !== 'string' || name === '') push('error', 'missing_name', 'name', 'The frontmatter has no "name"');
  else if (name === '.' || name === '..') {
    // The name is a URI segment (skill://<name>/...): a dot segment would be resolved away.
    push('error', 'invalid_name', 'name', `The name "${name}" cannot name a skill: it is a relative path segment`);
  } else {
    if (name.length > 64) push('warning', 'name_too_long', 'name', `The name "${name}" is longer than 64 characters`);
    if (!NAME_PATTERN.test(name)) {
      push('warning', 'invalid_name', 'name', `The name "${name}" must use lowercase letters, digits and single hyphens, not at either end`);
    }
    if (name !== folder) push('warning', 'name_mismatch', 'name', `The name "${name}" differs from its folder "${folder}"`);
  }
  if (typeof description !== 'string' || description.trim() === '') {
    push('error', 'missing_description', 'description', 'The frontmatter has no "description"');
  } else if (description.length > 1024) {
    push('warning', 'description_too_long', 'description', `The description has ${description.length} characters; the limit is 1024`);
  }
  if (data.compatibility !== undefined && (typeof data.compatibility !== 'string' || data.compatibility.length > 500)) {
    push('warning', 'invalid_compatibility', 'compatibility', '"compatibility" must be a string of at most 500 characters');
  }
  if (data.metadata !== undefined) {
    const metadata = data.metadata;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((v) => typeof v !== 'string')) {
      push('warning', 'invalid_metadata', 'metadata', '"metadata" must map strings to strings');
    }
  }
  const { problem } = declaredAudience(data);
  if (problem) issues.push(audienceIssue(problem, path, lines?.(['metadata'])));
  if (data['allowed-tools'] !== undefined && typeof data['allowed-tools'] !== 'string') {
    push('warning', 'invalid_allowed_tools', 'allowed-tools', '"allowed-tools" must be a space-separated string');
  }
  if (data.license !== undefined && typeof data.license !== 'string') push('warning', 'invalid_license', 'license', '"license" must be a string');
  for (const key of Object.keys(data)) {
    if ((STANDARD_KEYS as readonly string[]).includes(key)) continue;
    const owner = KNOWN_EXTENSION_KEYS[key];
    push('note', 'extension_key', key, owner ? `"${key}" is an extension of ${owner}, not an Agent Skills key` : `"${key}" is not an Agent Skills key`);
  }
  return issues;
}
