/**
 * `{{name}}` placeholders against the arguments a skill or Markdown prompt
 * file declares (formats/substitute.ts `substituteTemplate` fills them): a
 * placeholder nothing declares renders as nothing, without a word, and a
 * declared argument no placeholder uses asks for a value that goes nowhere.
 * One finding per name, on the line of its first placeholder or of its
 * declaration.
 */
import { templatePlaceholders } from '../formats/substitute.js';
import type { DeclaredArgument } from './arguments.js';
import { type KeyLines, lineCounter } from './frontmatter.js';
import type { Issue } from './issues.js';
import { probableKey } from './key-spelling.js';

/** A text whose body is substituted: SKILL.md, a locale variant, a prompt file. */
export interface TemplateText {
  /** Path relative to the served folder. */
  path: string;
  text: string;
  bodyOffset: number;
}

/**
 * The names `depends-on` points at: an argument that only steers another's
 * suggestions is used. A `depends-on` that names no argument counts for the
 * one it was probably meant for, whose finding (arguments.ts) says so.
 */
function dependedOn(raw: unknown, names: readonly string[]): Set<string> {
  const steering = new Set<string>();
  if (!Array.isArray(raw)) return steering;
  for (const entry of raw as unknown[]) {
    const target = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['depends-on'] : undefined;
    if (typeof target !== 'string') continue;
    steering.add(target);
    const meant = names.includes(target) || names.length > 64 ? undefined : probableKey(target, names);
    if (meant !== undefined) steering.add(meant);
  }
  return steering;
}

/**
 * The findings of `texts` (the first is the one that declares the arguments)
 * against `args`, the arguments as read from the frontmatter's raw
 * `arguments`; `implicit` names values that are passed without a declaration
 * (`locale`, for a skill with locale variants).
 */
export function placeholderIssues(
  texts: readonly TemplateText[],
  args: readonly DeclaredArgument[],
  raw: unknown,
  lines: KeyLines,
  implicit: readonly string[] = [],
): Issue[] {
  const issues: Issue[] = [];
  const declared = new Set([...args.map((a) => a.name), ...implicit]);
  const used = new Set<string>();
  for (const { path, text, bodyOffset } of texts) {
    const lineAt = lineCounter(text);
    for (const { name, at } of templatePlaceholders(text.slice(bodyOffset))) {
      if (used.has(name)) continue;
      used.add(name);
      if (declared.has(name)) continue;
      issues.push({
        severity: 'warning',
        code: 'undeclared_placeholder',
        path,
        line: lineAt(bodyOffset + at),
        message: `"{{${name}}}" names no declared argument, so it renders as nothing: declare "${name}" under "arguments", or write "\\{{${name}}}" to keep it as text`,
      });
    }
  }
  const steering = dependedOn(
    raw,
    args.map((a) => a.name),
  );
  const entries = Array.isArray(raw) ? (raw as unknown[]) : [];
  const first = texts[0];
  if (first === undefined) return issues;
  for (const { name } of args) {
    if (used.has(name) || steering.has(name)) continue;
    const index = entries.findIndex((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>).name === name);
    const line = lines(index < 0 ? ['arguments'] : ['arguments', index, 'name']);
    issues.push({
      severity: 'warning',
      code: 'unused_argument',
      path: first.path,
      ...(line !== undefined ? { line } : {}),
      message: `The argument "${name}" is declared but no "{{${name}}}" uses it: its value goes nowhere`,
    });
  }
  return issues;
}
