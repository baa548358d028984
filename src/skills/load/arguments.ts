/**
 * skillport's frontmatter extension for prompt arguments:
 *
 * ```yaml
 * arguments:
 *   - name: language
 *     description: Programming language
 *     required: true
 *     values: [go, python, rust]
 *   - name: variant
 *     depends-on: language
 *     values: { english: [en-GB, en-US], french: [fr-FR] }
 * ```
 *
 * A fixed `values` list completes ranked (prefix, substring, fuzzy); with
 * `depends-on`, `values` maps the other argument's value to a list, so the
 * suggestions follow what was already chosen (completion `context.arguments`).
 */
import type { CompletionSource } from '../../core/completers.js';
import { type CompletionIndex, createCompletionIndex } from '../../core/rank.js';
import type { KeyLines, KeyPath } from './frontmatter.js';
import type { Issue } from './issues.js';

/** One declared argument. */
export interface DeclaredArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  complete?: CompletionSource;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number');
}

/**
 * Reads the `arguments` frontmatter key; bad entries are reported and skipped.
 * With `lines` (see keyLines), each finding carries the line of what it is about.
 */
export function parseArguments(value: unknown, path: string, lines?: KeyLines): { args: DeclaredArgument[]; issues: Issue[] } {
  const issues: Issue[] = [];
  const args: DeclaredArgument[] = [];
  if (value === undefined) return { args, issues };
  const report = (at: KeyPath, message: string): void => {
    const line = lines?.(at);
    issues.push(
      line === undefined
        ? { severity: 'error', code: 'invalid_arguments', path, message }
        : { severity: 'error', code: 'invalid_arguments', path, line, message },
    );
  };
  if (!Array.isArray(value)) {
    report(['arguments'], '"arguments" must be a list of { name, description, required, values }');
    return { args, issues };
  }
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      report(['arguments', index], `arguments[${index}] must be a mapping`);
      continue;
    }
    const raw = entry as Record<string, unknown>;
    if (typeof raw.name !== 'string' || !NAME.test(raw.name)) {
      report(['arguments', index, 'name'], `arguments[${index}] needs a "name" of letters, digits, "_" or "-"`);
      continue;
    }
    if (args.some((a) => a.name === raw.name)) {
      report(['arguments', index, 'name'], `The argument "${raw.name}" is declared twice`);
      continue;
    }
    const argument: DeclaredArgument = { name: raw.name };
    if (typeof raw.title === 'string') argument.title = raw.title;
    if (typeof raw.description === 'string') argument.description = raw.description;
    if (raw.required === true) argument.required = true;
    const dependsOn = raw['depends-on'];
    if (raw.values !== undefined) {
      if (typeof dependsOn === 'string') {
        const table = raw.values;
        if (typeof table !== 'object' || table === null || Array.isArray(table) || !Object.values(table).every(isStringList)) {
          report(['arguments', index, 'values'], `arguments[${index}].values must map each "${dependsOn}" value to a list when "depends-on" is set`);
          continue;
        }
        const lists = new Map(Object.entries(table as Record<string, unknown[]>).map(([key, list]) => [key.toLowerCase(), list.map(String)]));
        // Each list is indexed once, on its first completion, not per request
        // (ranking a 100,000-value list from scratch took about 100 ms).
        const indexes = new Map<string, CompletionIndex>();
        const indexOf = (key: string, values: () => string[]): CompletionIndex => {
          let index = indexes.get(key);
          if (!index) indexes.set(key, (index = createCompletionIndex(values())));
          return index;
        };
        argument.complete = (partial, context) => {
          const chosen = context.arguments[dependsOn]?.toLowerCase();
          const index =
            chosen !== undefined && lists.has(chosen)
              ? indexOf(`=${chosen}`, () => lists.get(chosen) as string[])
              : indexOf('*', () => [...new Set([...lists.values()].flat())]);
          return index.complete(partial);
        };
      } else if (isStringList(raw.values)) {
        argument.complete = raw.values.map(String);
      } else {
        report(['arguments', index, 'values'], `arguments[${index}].values must be a list of strings`);
        continue;
      }
    }
    args.push(argument);
  }
  return { args, issues };
}
