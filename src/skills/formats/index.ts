/**
 * The prompt file formats besides skills, in the order they are asked to
 * claim a file (a `.prompt.md` in `prompts/` is VS Code's). To add one: a
 * file here implementing {@link PromptFormat}, listed below. Only a `.md`
 * file outside every skill folder, not a top-level `references/*.md` and
 * not a folder's documentation reaches a format's `detect` (load/scan.ts,
 * {@link formatOf}); a format of other files starts by widening that gate.
 */
import { claudeCommand } from './claude-command.js';
import type { PromptFileRef, PromptFormat } from './format.js';
import { markdown } from './markdown.js';
import { vscode } from './vscode.js';

export type { PromptFileRef, PromptFormat, PromptShape, PromptSource } from './format.js';

export const FORMATS: readonly PromptFormat[] = [vscode, claudeCommand, markdown];

/**
 * What a folder of prompts keeps beside them to document itself, not to be
 * run: `prompts/README.md` is the folder's documentation, not a prompt named
 * README. Compared case-insensitively, without `.md`.
 */
const DOCUMENTATION = new Set(['readme', 'changelog', 'contributing', 'license', 'code_of_conduct', 'security']);

/** The format that claims the file at `rel`, if any. */
export function formatOf(rel: string): PromptFileRef | undefined {
  const parts = rel.split('/');
  const file = parts[parts.length - 1] as string;
  if (!file.endsWith('.md') || DOCUMENTATION.has(file.slice(0, -3).toLowerCase())) return undefined;
  for (const format of FORMATS) {
    const key = format.detect(parts);
    if (key !== undefined) return { rel, format: format.name, key };
  }
  return undefined;
}

/** A format by name. */
export function formatNamed(name: string): PromptFormat | undefined {
  return FORMATS.find((f) => f.name === name);
}
