/**
 * Whether the MCP Skills extension can carry a skill. A host validates every
 * `skills/list` entry against the extension's rules (SEP-2640 §The Skill
 * entry, which takes the Agent Skills limits) and refuses an entry, or with
 * some clients the whole listing, that breaks one. A skill that breaks one is
 * left out of the extension and served only as a prompt and as resources.
 * The predicates are load/validate.ts's, whose finding about the key at fault
 * says so: a skill left out here always has that finding, and no other.
 */
import { fitsCompatibility, fitsDescription, fitsMetadata, NAME_PATTERN } from '../load/validate.js';

/** Whether the extension can carry a skill with this frontmatter. */
export function fitsExtension(frontmatter: Readonly<Record<string, unknown>>): boolean {
  const { name, description, compatibility, metadata } = frontmatter;
  return typeof name === 'string' && NAME_PATTERN.test(name) && fitsDescription(description) && fitsCompatibility(compatibility) && fitsMetadata(metadata);
}
