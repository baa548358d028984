/**
 * YAML frontmatter: the block between a leading `---` line and the next
 * `---` line. Parsing returns data or an issue with the file's line number.
 *
 * Most frontmatter is a few plain `key: value` lines, read here directly. The
 * YAML parser is loaded only for a block that needs it: loading it costs
 * a few MB of memory and milliseconds of start-up that a folder of plain
 * skills never needs. {@link readFrontmatter} loads it when needed; the
 * synchronous {@link parseFrontmatter} expects it loaded ({@link loadYaml})
 * for such a block.
 */
import type * as Yaml from 'yaml';
import { trimEndOf } from '../../util/trim.js';

let yaml: typeof Yaml | undefined;

/** Loads the YAML parser, for {@link parseFrontmatter} to use on blocks that are not plain `key: value` lines. */
export async function loadYaml(): Promise<void> {
  yaml ??= await import('yaml');
}

/** A document split into its frontmatter and body. */
export interface Frontmatter {
  /** Parsed frontmatter, as plain JSON-compatible data. */
  data: Record<string, unknown>;
  /** The body after the closing `---` line. */
  body: string;
  /** Offset of the body in the text. */
  bodyOffset: number;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

export type FrontmatterResult = { ok: true; value: Frontmatter } | { ok: false; line: number; message: string; code: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

// A line `key: value` whose value YAML reads as exactly that string: no
// indicator first, no `: ` or ` #` inside, no quotes, and not a value YAML
// would type (numbers, booleans, null, dates).
// The value runs to the end of the line and is trimmed after the match: a lazy
// value followed by `[ \t]*$` is quadratic on a long run of spaces.
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^\s\-?:,[\]{}#&*!|>'"%@`][^\r\n]*)$/;
const TYPED =
  /^(?:[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|0x[\da-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|true|True|TRUE|false|False|FALSE|null|Null|NULL|~|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|\d{4}-\d\d?-\d\d?.*)$/;

/**
 * Most skills' frontmatter is a few `key: plain text` lines. Those are read
 * here directly, several times faster than a full YAML parse (it matters for
 * folders of thousands of skills); anything else returns undefined and goes
 * to the YAML parser, so the result is always what YAML would give.
 */
function parseSimple(yamlText: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of yamlText.split('\n')) {
    if (line.trim() === '') continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) return undefined;
    const [, key, untrimmed] = match as unknown as [string, string, string];
    const value = trimEndOf(untrimmed, ' \t');
    if (value.includes(': ') || value.includes(' #') || value.endsWith(':') || TYPED.test(value) || key in data) return undefined;
    data[key] = value;
  }
  return data;
}

/** The 1-based line of `offset` in `text`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * {@link lineOf} for offsets asked in increasing order: each call counts on
 * from the last, so a pass over a text costs one scan of it however many
 * lines it asks for (an earlier offset starts again from the top).
 */
export function lineCounter(text: string): (offset: number) => number {
  let from = 0;
  let line = 1;
  return (offset) => {
    if (offset < from) [from, line] = [0, 1];
    for (; from < offset && from < text.length; from++) if (text.charCodeAt(from) === 10) line++;
    return line;
  };
}

/** A key in frontmatter: top-level keys, then keys or list indexes below them (`['arguments', 1, 'values']`). */
export type KeyPath = readonly [string, ...Array<string | number>];

/** The 1-based line in the file where a frontmatter key is, or undefined when it is not there. */
export type KeyLines = (path: KeyPath) => number | undefined;

/** The key a top-level line of a block mapping starts with (plain or quoted, before its colon), or undefined. */
function keyOfLine(text: string, at: number, end: number): string | undefined {
  const quote = text[at] === '"' || text[at] === "'" ? text[at] : undefined;
  if (quote !== undefined) {
    const close = text.indexOf(quote, at + 1);
    if (close === -1 || close >= end) return undefined;
    let after = close + 1;
    while (text[after] === ' ' || text[after] === '\t') after++;
    return text[after] === ':' ? text.slice(at + 1, close) : undefined;
  }
  if (at >= end || text[at] === ' ' || text[at] === '\t' || text[at] === '#' || text[at] === '-') return undefined;
  const colon = text.indexOf(':', at);
  if (colon === -1 || colon >= end) return undefined;
  let keyEnd = colon;
  while (keyEnd > at && (text[keyEnd - 1] === ' ' || text[keyEnd - 1] === '\t')) keyEnd--;
  return text.slice(at, keyEnd);
}

/**
 * Where the keys of a text's frontmatter are, for findings that point at one
 * (`name_mismatch` on the `name:` line). Nothing is computed until a line is
 * asked for, so a file without findings costs a closure: frontmatter is parsed
 * without positions, which keeps the fast path fast. What is computed is
 * computed once (an index of the top-level keys, the line starts, the parsed
 * document), so a file with 130,000 findings costs a lookup each, not a scan.
 *
 * A top-level key is found in one scan of the block's lines (a line at column
 * 0 is always a top-level key in a block mapping). A deeper path is looked up
 * in the YAML parser's nodes when the parser is loaded, which it is for any
 * block with nesting; where the path ends early (an argument without `name`),
 * the deepest node found gives the line.
 */
export function keyLines(text: string): KeyLines {
  // The block: from its first line (file line 2) to the closing `---` line.
  let block: { start: number; end: number } | null | undefined;
  let top: Map<string, number> | undefined;
  let starts: number[] | undefined;
  let document: Yaml.Document.Parsed | undefined;
  let topPairs: Map<unknown, Yaml.Pair> | undefined;
  const open = () => {
    if (block !== undefined) return block;
    const opening = OPENING.exec(text);
    const closing = opening ? CLOSING.exec(text.slice(opening[0].length)) : null;
    if (!opening || !closing) return (block = null);
    return (block = { start: opening[0].length, end: opening[0].length + closing.index });
  };
  function topLevel(key: string): number | undefined {
    const found = open();
    if (!found) return undefined;
    if (!top) {
      top = new Map();
      for (let at = found.start, line = 2; at < found.end; line++) {
        const next = text.indexOf('\n', at);
        const lineEnd = next === -1 || next > found.end ? found.end : next;
        const name = keyOfLine(text, at, lineEnd);
        if (name !== undefined && !top.has(name)) top.set(name, line);
        if (next === -1) break;
        at = next + 1;
      }
    }
    return top.get(key);
  }
  /** The 1-based line of an offset, by binary search over the line starts. */
  function lineAt(offset: number): number {
    if (!starts) {
      starts = [0];
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
  function nested(path: KeyPath): number | undefined {
    const found = open();
    if (!found || !yaml) return undefined;
    const { isMap, isScalar, isSeq } = yaml;
    document ??= yaml.parseDocument(text.slice(found.start, found.end), { uniqueKeys: false });
    let node: unknown = document.contents;
    let at: number | undefined;
    for (const [depth, step] of path.entries()) {
      if (isMap(node)) {
        // The top-level map may have any number of keys: indexed once; deeper ones are small.
        let pair: Yaml.Pair | undefined;
        if (depth === 0) {
          const items = node.items;
          topPairs ??= new Map(
            items
              .filter((p) => isScalar(p.key))
              .reverse()
              .map((p) => [(p.key as Yaml.Scalar).value, p]),
          );
          pair = topPairs.get(step);
        } else pair = node.items.find((p) => isScalar(p.key) && p.key.value === step);
        if (!pair || !isScalar(pair.key)) break;
        at = pair.key.range?.[0];
        node = pair.value;
      } else if (isSeq(node) && typeof step === 'number') {
        const item = node.items[step] as { range?: [number, number, number] } | undefined;
        if (!item?.range) break;
        at = item.range[0];
        node = item;
      } else break;
    }
    return at === undefined ? undefined : lineAt(found.start + at);
  }
  return (path) => (path.length === 1 ? topLevel(path[0]) : (nested(path) ?? topLevel(path[0])));
}

/**
 * Splits and parses frontmatter. Text without one yields empty data and the
 * whole text as body. Throws only when the block needs the YAML parser and
 * {@link loadYaml} has not loaded it (use {@link readFrontmatter} then).
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const result = split(text);
  if (result === undefined) throw new Error('The frontmatter needs the YAML parser: await loadYaml() first');
  return result;
}

/** {@link parseFrontmatter}, loading the YAML parser first when the block needs it. */
export async function readFrontmatter(text: string): Promise<FrontmatterResult> {
  const result = split(text);
  if (result !== undefined) return result;
  await loadYaml();
  return parseFrontmatter(text);
}

/** The result, or undefined when the block needs the YAML parser and it is not loaded. */
function split(text: string): FrontmatterResult | undefined {
  const opening = OPENING.exec(text);
  if (!opening) return { ok: true, value: { data: {}, body: text, bodyOffset: 0, bodyLine: 1 } };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { ok: false, line: 1, code: 'unclosed_frontmatter', message: 'The frontmatter has no closing "---" line' };
  // A slice, not a copy: every value parsed from it is then a substring of the
  // text, which all callers keep for as long as they keep the values (a skill
  // its SKILL.md, a reference or prompt file its text or body), so a kept
  // value costs a slice header where a copy of the block would be kept whole.
  const yamlText = rest.slice(0, closing.index);
  const bodyOffset = opening[0].length + closing.index + closing[0].length;
  const simple = parseSimple(yamlText);
  if (simple) return { ok: true, value: { data: simple, body: text.slice(bodyOffset), bodyOffset, bodyLine: lineOf(text, bodyOffset) } };
  if (!yaml) return undefined;
  const document = yaml.parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    // +1 for the opening `---` line; an error found at the end of the block
    // (an unclosed bracket) is reported on the block's last line.
    const lastLine = Math.max(1, yamlText.replace(/\r?\n$/, '').split('\n').length);
    const line = Math.min(error.linePos?.[0]?.line ?? 1, lastLine) + 1;
    // The parser's message ends with its own position (" at line 2, column 1:"),
    // counted in the block rather than the file: the line replaces it.
    const message = (error.message.split('\n')[0] as string).replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, line, code: 'invalid_yaml', message: `Invalid YAML: ${message}` };
  }
  if (document.contents !== null && !yaml.isMap(document.contents)) {
    return { ok: false, line: 2, code: 'invalid_frontmatter', message: 'The frontmatter must be a mapping of keys to values' };
  }
  let data: Record<string, unknown>;
  try {
    // The alias cap stops "billion laughs" documents from expanding without bound.
    data = (document.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, line: 2, code: 'invalid_yaml', message: `Invalid YAML: ${(error as Error).message}` };
  }
  return { ok: true, value: { data, body: text.slice(bodyOffset), bodyOffset, bodyLine: lineOf(text, bodyOffset) } };
}
