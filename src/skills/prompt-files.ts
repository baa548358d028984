/**
 * The other prompt formats people already keep, mapped onto the same model:
 *
 * - Markdown prompt files (`prompts/**.md`): frontmatter `name?`,
 *   `description`, `arguments` (skillport's extension); the body with
 *   `{{name}}` placeholders is the prompt.
 * - Claude Code command files (`.claude/commands/**.md`): named by their path
 *   below `commands/` (`frontend/review.md` is `frontend:review`); one
 *   optional argument `arguments` described by `argument-hint`; `$ARGUMENTS`
 *   and `$1`, `$2`... are substituted.
 * - VS Code prompt files (`*.prompt.md`): named by the file; every
 *   `${input:name}` / `${input:name:placeholder}` is a required argument.
 */
import type { DeclaredArgument } from './arguments.js';
import { parseArguments } from './arguments.js';
import { readFrontmatter } from './frontmatter.js';
import type { Issue } from './issues.js';
import type { PromptFileRef } from './scan.js';
import { substituteClaude, substituteTemplate, substituteVsCode, vsCodeInputs } from './substitute.js';

/** A prompt loaded from a prompt file. */
export interface PromptFileRecord {
  name: string;
  rel: string;
  format: PromptFileRef['format'];
  description: string | undefined;
  args: DeclaredArgument[];
  /** The text for `args`; throws OutputLimitError once it passes `maxLength` UTF-16 code units. */
  render(args: Record<string, string>, maxLength?: number): string;
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
  let parsed = await readFrontmatter(text);
  if (!parsed.ok && ref.format === 'claude-command') {
    // Claude Code's docs write `argument-hint: [issue] [priority]` unquoted,
    // which is not valid YAML; read the value as the string it is meant to be.
    const quoted = text.replace(/^(argument-hint:[ \t]*)(\[[^\n]*?)[ \t]*$/m, (_line, key: string, value: string) => `${key}${JSON.stringify(value)}`);
    if (quoted !== text) parsed = await readFrontmatter(quoted);
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
  switch (ref.format) {
    case 'markdown': {
      const { args, issues: found } = parseArguments(data.arguments, ref.rel);
      issues.push(...found);
      return { name: explicitName ?? ref.key, rel: ref.rel, format: ref.format, description, args, render: (values, maxLength) => substituteTemplate(body, values, maxLength) };
    }
    case 'claude-command': {
      const hint = typeof data['argument-hint'] === 'string' ? data['argument-hint'] : undefined;
      const uses = /\$(ARGUMENTS|\d)/.test(body);
      const args: DeclaredArgument[] = uses || hint ? [{ name: 'arguments', description: hint ?? 'Arguments for the command' }] : [];
      return {
        name: ref.key.split('/').join(':'),
        rel: ref.rel,
        format: ref.format,
        description,
        args,
        render: (values, maxLength) => substituteClaude(body, values.arguments ?? '', {}, maxLength),
      };
    }
    case 'vscode': {
      const args = vsCodeInputs(body).map(({ name, placeholder }) => {
        const argument: DeclaredArgument = { name, required: true };
        if (placeholder !== undefined) argument.description = placeholder;
        return argument;
      });
      return { name: explicitName ?? ref.key, rel: ref.rel, format: ref.format, description, args, render: (values, maxLength) => substituteVsCode(body, values, maxLength) };
    }
  }
}
