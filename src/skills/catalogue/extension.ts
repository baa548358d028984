/**
 * Whether the MCP Skills extension can carry a skill. A host validates every
 * `skills/list` entry against the extension's rules (SEP-2640 §The Skill
 * entry, which takes the Agent Skills limits) and refuses an entry, or with
 * some clients the whole listing, that breaks one. A skill that breaks one is
 * left out of the extension and served only as a prompt and as resources.
 */
import { NAME_PATTERN } from '../load/validate.js';

/** Characters as the Agent Skills limits count them: code points, not UTF-16 units. */
function codePoints(text: string): number {
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

const isStringMap = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

/** The extension's rules a skill's frontmatter breaks; empty when the extension can carry it. */
export function extensionProblems(frontmatter: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const { name, description, compatibility, metadata } = frontmatter;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) problems.push('the name is not 1-64 lowercase letters, digits and single hyphens');
  if (typeof description !== 'string' || description === '' || codePoints(description) > 1024) {
    problems.push(`the description has ${typeof description === 'string' ? codePoints(description) : 0} characters, not 1-1024`);
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility === '' || codePoints(compatibility) > 500)) {
    problems.push('"compatibility" is not a string of 1-500 characters');
  }
  if (metadata !== undefined && !isStringMap(metadata)) problems.push('"metadata" does not map strings to strings');
  return problems;
}
