/**
 * Loads a prompt file in one of the formats people already keep (see
 * formats/): what they share is done here — the frontmatter, the description
 * (the frontmatter's, else the first line of text), the text after the
 * frontmatter — and the format makes the prompt's name, arguments and
 * rendering of it.
 */

import { formatNamed, type PromptFileRef } from '../formats/index.js';
import type { DeclaredArgument } from './arguments.js';
import { audienceIssue, declaredAudience } from './audience.js';
import { keyLines, readFrontmatter } from './frontmatter.js';
import type { Issue } from './issues.js';

/** A prompt loaded from a prompt file. */
export interface PromptFileRecord {
  name: string;
  rel: string;
  format: string;
  description: string | undefined;
  args: DeclaredArgument[];
  /** The text for `args`; throws OutputLimitError once it passes `maxLength` UTF-16 code units. */
  render(args: Record<string, string>, maxLength?: number): string;
  /** Who may use it (`metadata.audience`, audience.ts); undefined: everyone. */
  audience: string[] | undefined;
}

function firstLine(body: string): string | undefined {
  const line = body
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return line;
}

// Anchored, and each repetition must end at a newline: linear in the blank run's length.
const LEADING_BLANK_LINES = /^(?:[ \t]*\r?\n)+/;

/** Maps one prompt file; undefined (with issues) when it cannot be served. */
export async function loadPromptFile(ref: PromptFileRef, text: string, issues: Issue[]): Promise<PromptFileRecord | undefined> {
  const format = formatNamed(ref.format);
  if (!format) throw new TypeError(`Unknown prompt file format "${ref.format}"`);
  let parsed = await readFrontmatter(text);
  if (!parsed.ok && format.repair) {
    const repaired = format.repair(text);
    if (repaired !== undefined) parsed = await readFrontmatter(repaired);
  }
  if (!parsed.ok) {
    issues.push({ severity: 'error', code: parsed.code, path: ref.rel, line: parsed.line, message: parsed.message });
    return undefined;
  }
  const { data } = parsed.value;
  // The blank line that separates frontmatter from the text is layout, not part of the prompt.
  const body = parsed.value.body.replace(LEADING_BLANK_LINES, '');
  const description = typeof data.description === 'string' ? data.description : firstLine(body);
  const explicitName = typeof data.name === 'string' && data.name.trim() !== '' ? data.name.trim() : undefined;
  const lines = keyLines(text);
  const shape = format.load({ ref, text, data, body, explicitName, lines, issues });
  const { audience, problem } = declaredAudience(data);
  if (problem) issues.push(audienceIssue(problem, ref.rel, lines(['metadata'])));
  return { ...shape, rel: ref.rel, format: ref.format, description, audience };
}
