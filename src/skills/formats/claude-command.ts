/**
 * Claude Code command files (`.claude/commands/**.md`): named by their path
 * below `commands/` (`frontend/review.md` is `frontend:review`); one optional
 * argument `arguments` described by `argument-hint`; `$ARGUMENTS` and `$1`,
 * `$2`... are substituted.
 */
import { trimEndOf } from '../../util/trim.js';
import type { DeclaredArgument } from '../load/arguments.js';
import type { PromptFormat } from './format.js';
import { substituteClaude } from './substitute.js';

// Greedy to the end of the line, trimmed after: a lazy value before `[ \t]*$` is quadratic.
const UNQUOTED_HINT = /^(argument-hint:[ \t]*)(\[[^\n]*)$/m;

export const claudeCommand: PromptFormat = {
  name: 'claude-command',
  detect(parts) {
    const commands = parts.findIndex((p, i) => p === 'commands' && parts[i - 1] === '.claude');
    if (commands < 0 || !(parts[parts.length - 1] as string).endsWith('.md')) return undefined;
    return parts
      .slice(commands + 1)
      .join('/')
      .slice(0, -3);
  },
  // Claude Code's docs write `argument-hint: [issue] [priority]` unquoted,
  // which is not valid YAML; read the value as the string it is meant to be.
  repair(text) {
    const quoted = text.replace(UNQUOTED_HINT, (_line, key: string, value: string) => `${key}${JSON.stringify(trimEndOf(value, ' \t\r'))}`);
    return quoted === text ? undefined : quoted;
  },
  load({ ref, data, body }) {
    const hint = typeof data['argument-hint'] === 'string' ? data['argument-hint'] : undefined;
    const uses = /\$(ARGUMENTS|\d)/.test(body);
    const args: DeclaredArgument[] = uses || hint ? [{ name: 'arguments', description: hint ?? 'Arguments for the command' }] : [];
    return { name: ref.key.split('/').join(':'), args, render: (values, maxLength) => substituteClaude(body, values.arguments ?? '', {}, maxLength) };
  },
};
