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
import { addIssues, type Issue } from './issues.js';
import { probableKey } from './key-spelling.js';

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
  addIssues(issues, entryIssues(value, path, lines));
  return { args, issues };
}

/** The keys an argument entry may have. */
const ENTRY_KEYS = ['name', 'title', 'description', 'required', 'values', 'depends-on'];

/**
 * Warnings about entries that load but do not do what they say: a key no
 * argument has (`requried`, ignored), a `depends-on` that names no other
 * argument or has no `values` to steer (its suggestions then follow nothing).
 */
function entryIssues(list: readonly unknown[], path: string, lines: KeyLines | undefined): Issue[] {
  const issues: Issue[] = [];
  const warn = (at: KeyPath, code: string, message: string): void => {
    const line = lines?.(at);
    issues.push(line === undefined ? { severity: 'warning', code, path, message } : { severity: 'warning', code, path, line, message });
  };
  const entries = list.map((entry) => (typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {}));
  const names = entries.map((entry) => entry.name).filter((name): name is string => typeof name === 'string');
  const declared = new Set(names);
  // A suggestion compares with every name: only for lists of a size people write by hand.
  const suggest = names.length <= 64;
  for (const [index, entry] of entries.entries()) {
    for (const key of Object.keys(entry)) {
      if (ENTRY_KEYS.includes(key)) continue;
      const meant = probableKey(key, ENTRY_KEYS);
      const why = meant === undefined ? `an argument has only ${ENTRY_KEYS.join(', ')}` : `probably "${meant}", misspelled`;
      warn(['arguments', index, key], 'unknown_argument_key', `arguments[${index}]: "${key}" is not a key of an argument, so it is ignored: ${why}`);
    }
    const target = entry['depends-on'];
    if (target === undefined) continue;
    const at: KeyPath = ['arguments', index, 'depends-on'];
    if (typeof target !== 'string' || target === entry.name || !declared.has(target)) {
      const others = suggest ? names.filter((name) => name !== entry.name) : [];
      const meant = typeof target === 'string' ? probableKey(target, others) : undefined;
      const what = typeof target === 'string' ? `"${target}", which is no other argument of this file` : 'no argument by name';
      warn(at, 'invalid_depends_on', `arguments[${index}]: "depends-on" names ${what}${meant ? ` (probably "${meant}")` : ''}, so it steers nothing`);
    } else if (entry.values === undefined) {
      warn(at, 'invalid_depends_on', `arguments[${index}]: "depends-on" has no "values" to steer: give a list of values per "${target}" value`);
    }
  }
  return issues;
}
