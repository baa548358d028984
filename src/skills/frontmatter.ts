/**
 * YAML frontmatter: the block between a leading `---` line and the next
 * `---` line. Parsing returns data or an issue with the file's line number;
 * it never throws.
 */
import { isMap, parseDocument } from 'yaml';

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

/** Whether the text starts with a frontmatter block. */
export function hasFrontmatter(text: string): boolean {
  return OPENING.test(text);
}

/** Splits and parses frontmatter. Text without one yields empty data and the whole text as body. */
export function parseFrontmatter(text: string): FrontmatterResult {
  const opening = OPENING.exec(text);
  if (!opening) return { ok: true, value: { data: {}, body: text, bodyOffset: 0, bodyLine: 1 } };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { ok: false, line: 1, code: 'unclosed_frontmatter', message: 'The frontmatter has no closing "---" line' };
  const yamlText = rest.slice(0, closing.index);
  const bodyOffset = opening[0].length + closing.index + closing[0].length;
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    // +1 for the opening `---` line; an error found at the end of the block
    // (an unclosed bracket) is reported on the block's last line.
    const lastLine = Math.max(1, yamlText.replace(/\r?\n$/, '').split('\n').length);
    const line = Math.min(error.linePos?.[0]?.line ?? 1, lastLine) + 1;
    return { ok: false, line, code: 'invalid_yaml', message: `Invalid YAML: ${error.message.split('\n')[0]}` };
  }
  if (document.contents !== null && !isMap(document.contents)) {
    return { ok: false, line: 2, code: 'invalid_frontmatter', message: 'The frontmatter must be a mapping of keys to values' };
  }
  let data: Record<string, unknown>;
  try {
    // The alias cap stops "billion laughs" documents from expanding without bound.
    data = (document.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, line: 2, code: 'invalid_yaml', message: `Invalid YAML: ${(error as Error).message}` };
  }
  const bodyLine = text.slice(0, bodyOffset).split('\n').length;
  return { ok: true, value: { data, body: text.slice(bodyOffset), bodyOffset, bodyLine } };
}
