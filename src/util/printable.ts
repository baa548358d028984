/**
 * Text from a skills folder, a client or a token, made safe to print. A file
 * name holding a newline and `skillport error: …` forged a log line of its
 * own, and one holding ESC sequences drove the operator's terminal; so
 * whatever writes lines (the CLI's logger and output) escapes what it prints.
 */

/**
 * What is escaped: the C0 and C1 controls and DEL (`\p{Cc}`: line ends, ESC,
 * 0x9B, the 8-bit CSI), the line and paragraph separators (line ends to many
 * viewers and to JavaScript), and the bidi embeddings, overrides and isolates,
 * which reorder what follows them on screen (Trojan Source, CVE-2021-42574).
 * The bidi marks (LRM, RLM, ALM) stay: they reorder nothing beyond their
 * neighbours, and right-to-left text needs them.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * The controls, and each backslash that would otherwise read as the start of
 * an escape: one before `\ n r t x u` or before a character that is escaped.
 */
const TO_ESCAPE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]|\\(?=[\\nrtxu\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069])/gu;

/** The controls but line feeds, tabs and the CR of a CRLF, for text shown as several lines. */
const TO_ESCAPE_IN_LINES = /(?![\n\t]|\r\n)[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

function escapeOne(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface EscapeOptions {
  /**
   * The text is several lines to show as such (a prompt's text): line feeds,
   * tabs and CRLF line ends stay, and backslashes are left alone, so code in
   * the text reads as written. The result is for reading, not for decoding.
   */
  lines?: boolean;
}

/**
 * `text` with every control character written as a visible escape (`\n`,
 * `\r`, `\t`, `\x1b`, `\x9b`, `\u202e`), so it fits on one line and cannot
 * drive a terminal. Other text, accents, CJK and emoji among it, is unchanged.
 *
 * A backslash is doubled only where it would otherwise read as an escape
 * (before `\`, `n`, `r`, `t`, `x`, `u` or an escaped character), so paths
 * such as `C:\Users\me` print as they are and the output still decodes to
 * exactly `text`: `\\` is a backslash, `\n` `\r` `\t` `\xHH` `\uHHHH` are
 * the characters they name, and any other backslash stands for itself.
 */
export function escapeControls(text: string, options: EscapeOptions = {}): string {
  if (options.lines) {
    // The common case, nothing to escape, costs one scan and no copy.
    if (!CONTROL.test(text)) return text;
    return text.replace(TO_ESCAPE_IN_LINES, escapeOne);
  }
  if (!CONTROL.test(text) && !text.includes('\\')) return text;
  return text.replace(TO_ESCAPE, escapeOne);
}

/** DEL, the C1 controls, the separators and the bidi controls; JSON.stringify escapes the C0 controls itself. */
const JSON_UNESCAPED = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `json` (JSON.stringify's output) with the controls JSON.stringify leaves
 * as they are written as `\uXXXX`: the same JSON value, safe on a terminal.
 * Those characters can only stand inside strings there, where the escape
 * means the same character.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_UNESCAPED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
