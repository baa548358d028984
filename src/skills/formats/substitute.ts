/**
 * Placeholder substitution for the three prompt formats skillport serves:
 *
 * - Claude Code command files and skills: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$1`, `$2`...
 * - VS Code prompt files: `${input:name}` and `${input:name:placeholder}`.
 * - skillport's own Markdown prompts and skills: `{{name}}`.
 *
 * Every function here is a pure string transformation: no I/O, no throwing on
 * odd input. Each substitution is a single left-to-right pass, so a value that
 * itself contains `$1`, `${input:x}` or `{{x}}` is inserted as written and
 * never expanded again (an argument cannot inject another argument).
 *
 * Each takes an optional `maxLength`: one argument used thousands of times
 * makes an output thousands of times the request (a 100 KB value in 5,000
 * placeholders is 500 MB), so the pass stops with an {@link OutputLimitError}
 * as soon as the output passes it rather than building it whole first.
 */
import { OutputLimitError } from '../../core/errors.js';

/**
 * A `String.prototype.replace` callback that keeps count of the output's
 * length and throws once it passes `maxLength` (UTF-16 code units, which a
 * text's UTF-8 bytes are never fewer than, so a byte limit can be passed as
 * is). The regexes here have no named groups: the offset is the next-to-last
 * argument.
 */
// biome-ignore lint/suspicious/noExplicitAny: a replace callback's groups are of any number and kind
function counted<F extends (match: string, ...rest: any[]) => string>(replace: F, maxLength: number | undefined): F {
  if (maxLength === undefined) return replace;
  // Output length minus input length so far.
  let growth = 0;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return ((match: string, ...rest: any[]) => {
    const value = replace(match, ...rest);
    const offset = rest[rest.length - 2] as number;
    growth += value.length - match.length;
    if (offset + match.length + growth > maxLength) throw new OutputLimitError(`its text passed ${maxLength} characters while substituting`);
    return value;
  }) as F;
}

/** `body.replace(pattern, replace)`, stopped once the output passes `maxLength`. */
// biome-ignore lint/suspicious/noExplicitAny: as above
function replaceWithin(body: string, pattern: RegExp, replace: (match: string, ...rest: any[]) => string, maxLength: number | undefined): string {
  const output = body.replace(pattern, counted(replace, maxLength));
  // The text after the last placeholder, or a body longer than the limit on its own.
  if (maxLength !== undefined && output.length > maxLength) throw new OutputLimitError(`its text passed ${maxLength} characters while substituting`);
  return output;
}

// ---------------------------------------------------------------------------
// Claude Code

/**
 * Splits a raw argument string into words the way a POSIX shell would, which
 * is how Claude Code fills `$1`, `$2`... from what the user typed.
 *
 * - Runs of whitespace separate words.
 * - Single quotes keep everything up to the next single quote literally.
 * - Double quotes keep everything literally except `\"` and `\\`, which
 *   become `"` and `\` (any other backslash stays, as in POSIX `sh`).
 * - Outside quotes a backslash takes the next character literally.
 * - Quoted and unquoted parts next to each other join into one word, and
 *   `''` or `""` alone is an empty word.
 * - An unterminated quote takes the rest of the text into the current word;
 *   a trailing lone backslash is kept. It never throws.
 *
 * Variables (`$HOME`), globs and operators are not interpreted: the words are
 * prompt text, not a command line.
 *
 * @example
 * splitShellWords(`123 "high priority" it\\'s`); // ['123', 'high priority', "it's"]
 */
export function splitShellWords(raw: string): string[] {
  const words: string[] = [];
  let word = '';
  // A word can be empty ('' or ""), so "are we in a word" is tracked apart from its text.
  let inWord = false;
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i] as string;
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (ch === "'") {
      const end = raw.indexOf("'", i + 1);
      word += end < 0 ? raw.slice(i + 1) : raw.slice(i + 1, end);
      i = end < 0 ? raw.length : end + 1;
    } else if (ch === '"') {
      i++;
      while (i < raw.length && raw[i] !== '"') {
        const next = raw[i + 1];
        if (raw[i] === '\\' && (next === '"' || next === '\\')) {
          word += next;
          i += 2;
        } else {
          word += raw[i];
          i++;
        }
      }
      i++; // the closing quote, or past the end when unterminated
    } else if (ch === '\\') {
      word += raw[i + 1] ?? '\\';
      i += 2;
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Options of {@link substituteClaude}. */
export interface ClaudeSubstitutionOptions {
  /**
   * Count `$N` from zero (`$0` is the first word), as Claude Code's skills do
   * since they absorbed custom commands, where `$N` is shorthand for
   * `$ARGUMENTS[N]`. The default counts from one (`$1` is the first word), as
   * Claude Code's `.claude/commands/` files were documented and written.
   */
  zeroBased?: boolean;
}

// `$ARGUMENTS[N]` first so that `$ARGUMENTS` does not eat its prefix. A
// positional takes every digit that follows (`$10` is the tenth word) and
// does not apply when a letter, digit or `_` follows, as in Claude Code.
const CLAUDE_PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)(?![A-Za-z0-9_])/g;

/**
 * Fills a Claude Code command body from the raw argument string the user
 * typed after the command.
 *
 * - `$ARGUMENTS` becomes `raw` exactly as typed (quotes included).
 * - `$ARGUMENTS[N]` becomes word N of {@link splitShellWords}, counted from 0.
 * - `$1`...`$9`, and further (`$10` is the tenth word, not `$1` then `0`),
 *   become the words counted from 1; with `zeroBased`, `$0` is the first word.
 *   `$0` stays literal when counting from 1.
 * - A placeholder whose word is missing stays literal (`$3` with two words).
 * - `${1}` is not a Claude Code form and stays literal; so does `$1abc`.
 * - There is no escape: Claude Code has none, so `\$1` is `\` and the value.
 *
 * Use it to render `.claude/commands/*.md` prompts; the frontmatter is the
 * caller's to strip.
 *
 * @example
 * substituteClaude('Fix issue #$1 ($2): $ARGUMENTS', '123 high');
 * // 'Fix issue #123 (high): 123 high'
 */
export function substituteClaude(body: string, raw: string, options: ClaudeSubstitutionOptions = {}, maxLength?: number): string {
  const words = splitShellWords(raw);
  const base = options.zeroBased === true ? 0 : 1;
  return replaceWithin(
    body,
    CLAUDE_PLACEHOLDER,
    (match: string, indexed: string | undefined, positional: string | undefined) => {
      if (indexed !== undefined) return words[Number(indexed)] ?? match;
      if (positional !== undefined) {
        const index = Number(positional) - base;
        return (index >= 0 ? words[index] : undefined) ?? match;
      }
      return raw;
    },
    maxLength,
  );
}

// ---------------------------------------------------------------------------
// VS Code

/** An input variable of a VS Code prompt file. */
export interface VsCodeInput {
  name: string;
  /** The text after the second colon, shown by VS Code as the input box's placeholder. */
  placeholder?: string;
}

// The placeholder runs to the first `}`: VS Code's own parser does the same,
// so a `}` cannot appear in one. It also stops at the next `${`: without that,
// every unclosed `${input:a:` scanned the rest of the body again, quadratic in
// the number of them (12,000 took seconds on every prompts/get).
const VSCODE_INPUT = /\$\{input:([A-Za-z_][A-Za-z0-9_-]*)(?::((?:[^}$]|\$(?!\{))*))?\}/g;

/**
 * The input variables of a VS Code `.prompt.md` body, each name once, in the
 * order they first appear.
 *
 * Only `${input:name}` and `${input:name:placeholder}` are inputs; VS Code's
 * other variables (`${selection}`, `${file}`, `${workspaceFolder}`...) are
 * filled by the editor and are not arguments. When a name appears more than
 * once, its first non-empty placeholder wins.
 *
 * @example
 * vsCodeInputs('Create ${input:name:Component name} in ${input:framework}.');
 * // [{ name: 'name', placeholder: 'Component name' }, { name: 'framework' }]
 */
export function vsCodeInputs(body: string): VsCodeInput[] {
  const found = new Map<string, VsCodeInput>();
  for (const [, name, placeholder] of body.matchAll(VSCODE_INPUT)) {
    const key = name as string;
    const input = found.get(key) ?? { name: key };
    if (input.placeholder === undefined && placeholder !== undefined && placeholder.trim() !== '') input.placeholder = placeholder.trim();
    found.set(key, input);
  }
  return [...found.values()];
}

/**
 * Replaces every `${input:name}` and `${input:name:placeholder}` whose name
 * has a value; names without one stay as written, as do VS Code's other
 * variables.
 *
 * @example
 * substituteVsCode('Create ${input:name:Component name}', { name: 'Button' }); // 'Create Button'
 */
export function substituteVsCode(body: string, values: Record<string, string>, maxLength?: number): string {
  return replaceWithin(body, VSCODE_INPUT, (match: string, name: string) => (Object.hasOwn(values, name) ? (values[name] as string) : match), maxLength);
}

// ---------------------------------------------------------------------------
// skillport templates

// An optional backslash (the escape), then `{{`, optional spaces or tabs, the
// name, optional spaces or tabs, `}}`.
const TEMPLATE_PLACEHOLDER = /(\\?)\{\{[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\}\}/g;

/**
 * The `{{name}}` placeholders of a body and where each starts, in order.
 * Escaped placeholders (`\{{name}}`) are not variables.
 */
export function templatePlaceholders(body: string): Array<{ name: string; at: number }> {
  const found: Array<{ name: string; at: number }> = [];
  for (const match of body.matchAll(TEMPLATE_PLACEHOLDER)) if (match[1] === '') found.push({ name: match[2] as string, at: match.index });
  return found;
}

/**
 * The names of the `{{name}}` placeholders in a body, each once, in the order
 * they first appear. Escaped placeholders (`\{{name}}`) are not variables.
 *
 * @example
 * templateVariables('Explain {{ error }} in {{language}}; \\{{literal}}'); // ['error', 'language']
 */
export function templateVariables(body: string): string[] {
  return [...new Set(templatePlaceholders(body).map((p) => p.name))];
}

/**
 * Fills skillport's `{{name}}` placeholders (spaces inside the braces are
 * allowed: `{{ name }}`).
 *
 * - A name with no value, or the value `undefined`, renders as the empty
 *   string: optional arguments simply disappear.
 * - `\{{name}}` renders as the literal `{{name}}` (the backslash is removed),
 *   for bodies that need to show the syntax.
 * - Placeholders inside fenced code blocks (``` or ~~~) are substituted too.
 *   That is deliberate: a skill's command lines and code templates are where
 *   arguments are most often needed; escape the ones that must stay.
 *
 * @example
 * substituteTemplate('Review this {{ language }} diff.', { language: 'Go' }); // 'Review this Go diff.'
 */
export function substituteTemplate(body: string, values: Record<string, string | undefined>, maxLength?: number): string {
  return replaceWithin(
    body,
    TEMPLATE_PLACEHOLDER,
    (match: string, escaped: string, name: string) => {
      if (escaped !== '') return match.slice(1);
      return Object.hasOwn(values, name) ? (values[name] ?? '') : '';
    },
    maxLength,
  );
}
