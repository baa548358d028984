import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeControls, escapeJsonControls } from '../../src/util/printable.js';

/** The reading escapeControls documents: `\\`, `\n` `\r` `\t` `\xHH` `\uHHHH`, any other backslash for itself. */
function decode(text: string): string {
  return text.replace(/\\(\\|n|r|t|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, sequence: string) => {
    if (sequence === '\\') return '\\';
    if (sequence === 'n') return '\n';
    if (sequence === 'r') return '\r';
    if (sequence === 't') return '\t';
    return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
  });
}

/** Every character escapeControls must not let through. */
const CONTROLS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Characters of strings rich in what matters here: controls, backslashes, the letters of escapes, and ordinary text. */
const unit = fc.oneof(
  fc.constantFrom('\n', '\r', '\t', '\x1b', '\x00', '\x7f', '\x85', '\x9b', '\u2028', '\u2029', '\u202e', '\u2066', '\u2069', '\\'),
  fc.constantFrom('n', 'r', 't', 'x', 'u', '1', 'b', 'e', ' '),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const tricky = fc.string({ unit, maxLength: 60 });

describe('escapeControls', () => {
  it('writes line ends, ESC and the other controls as visible escapes', () => {
    expect(escapeControls('a\nskillport error: forged')).toBe('a\\nskillport error: forged');
    expect(escapeControls('\r\t\x00\x1b[31mred\x7f')).toBe('\\r\\t\\x00\\x1b[31mred\\x7f');
    // C1: NEL and the 8-bit CSI, which some terminals obey as ESC [.
    expect(escapeControls('\x85\x9b31m')).toBe('\\x85\\x9b31m');
    expect(escapeControls('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
    expect(escapeControls('\u202a\u202b\u202c\u202d\u202e|\u2066\u2067\u2068\u2069')).toBe('\\u202a\\u202b\\u202c\\u202d\\u202e|\\u2066\\u2067\\u2068\\u2069');
  });

  it('leaves ordinary text alone: accents, CJK, emoji, right-to-left text and its marks', () => {
    for (const text of ['café naïve Ærøskøbing', '日本語のスキル', '技能 검토', '👩🏽‍💻 🚀 ✔︎', 'שלום עולם', 'مرحبا\u200f!', 'a\u200eb\u061cc', '']) {
      expect(escapeControls(text)).toBe(text);
      expect(escapeControls(text, { lines: true })).toBe(text);
    }
  });

  it('doubles a backslash only where it would read as an escape', () => {
    expect(escapeControls('C:\\Users\\me\\skills')).toBe('C:\\Users\\me\\skills');
    expect(escapeControls('a\\nb')).toBe('a\\\\nb');
    expect(escapeControls('\\x1b \\u202e \\\\ \\t \\r')).toBe('\\\\x1b \\\\u202e \\\\\\ \\\\t \\\\r');
    // A backslash before a newline would otherwise join the escape: `\\n` is not `\` + `\n`.
    expect(escapeControls('\\\n')).toBe('\\\\\\n');
    expect(escapeControls('end\\')).toBe('end\\');
  });

  it('returns one line with no control character, which decodes to exactly the text', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        const escaped = escapeControls(text);
        expect(escaped).not.toMatch(CONTROLS);
        expect(decode(escaped)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  describe('with lines', () => {
    it('keeps line feeds, tabs, CRLF and backslashes, and escapes the rest', () => {
      expect(escapeControls('one\r\ntwo\n\tthree \\n \\x1b', { lines: true })).toBe('one\r\ntwo\n\tthree \\n \\x1b');
      expect(escapeControls('bar\rfoo\x1b]52;c;aGk=\x07 \x9b2J \u202e', { lines: true })).toBe('bar\\rfoo\\x1b]52;c;aGk=\\x07 \\x9b2J \\u202e');
    });

    it('lets no control through but line feeds, tabs and the CR of a CRLF', () => {
      fc.assert(
        fc.property(tricky, (text) => {
          const escaped = escapeControls(text, { lines: true });
          expect(escaped.replace(/\r\n|[\n\t]/g, '')).not.toMatch(CONTROLS);
        }),
        { numRuns: 2000 },
      );
    });
  });
});

describe('escapeJsonControls', () => {
  it('escapes what JSON.stringify leaves raw, and the JSON still parses to the same value', () => {
    const value = { name: 'x\x1b[31m\x9b\x85\u2028\u202e日本🚀\n', nested: ['\u2066\x7f'] };
    const json = escapeJsonControls(JSON.stringify(value, null, 2));
    // Only the indentation's line feeds remain of the controls.
    expect(json.replaceAll('\n', '')).not.toMatch(CONTROLS);
    expect(json).toContain('\\u009b');
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('keeps any JSON value the same, and lets no control through but the line feeds of the indentation', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: unit }), (value) => {
        const json = JSON.stringify(value, null, 2);
        const escaped = escapeJsonControls(json);
        expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
        expect(escaped.replaceAll('\n', '')).not.toMatch(CONTROLS);
      }),
    );
  });
});
