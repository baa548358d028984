import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstSentence } from '../../../src/skills/catalogue/sentence.js';

describe('firstSentence', () => {
  describe('sentence ends', () => {
    it.each([
      ['Reviews code. Use it before merging.', 'Reviews code.'],
      ['Is this safe? Check first.', 'Is this safe?'],
      ['Ship it! Then celebrate.', 'Ship it!'],
      ['Really?! Yes.', 'Really?!'],
      ['One sentence only.', 'One sentence only.'],
      ['Ends at the very end.', 'Ends at the very end.'],
      ['Runs checks. 3 of them fail.', 'Runs checks.'],
    ])('ends %j at a terminator followed by a space or the end', (text, expected) => {
      expect(firstSentence(text)).toBe(expected);
    });

    it('returns the whole text when no sentence ends', () => {
      expect(firstSentence('Drafts commit messages from a staged diff')).toBe('Drafts commit messages from a staged diff');
    });

    it('keeps closing quotes, brackets and Markdown emphasis with the sentence', () => {
      expect(firstSentence('**Bold.** Next sentence.')).toBe('**Bold.**');
      expect(firstSentence('He said "Stop." Then left.')).toBe('He said "Stop."');
      expect(firstSentence('(Experimental.) Use with care.')).toBe('(Experimental.)');
      expect(firstSentence('_Reviews SQL._ Next.')).toBe('_Reviews SQL._');
    });

    it('ends at the CJK full stop without a following space', () => {
      expect(firstSentence('审查代码。在合并之前使用。')).toBe('审查代码。');
      expect(firstSentence('コードをレビューします。マージ前に使います。')).toBe('コードをレビューします。');
      expect(firstSentence('本当に？はい。')).toBe('本当に？');
    });

    it('handles non-ASCII Latin text and a capitalised accented next word', () => {
      expect(firstSentence('Prüft Änderungen. Überprüft auch Tests.')).toBe('Prüft Änderungen.');
      expect(firstSentence('Revoit le code. À utiliser avant la fusion.')).toBe('Revoit le code.');
      expect(firstSentence('Ça marche. élégant et simple. Fin.')).toBe('Ça marche. élégant et simple.');
    });
  });

  describe('periods that do not end a sentence', () => {
    it.each(['e.g.', 'i.e.', 'vs.', 'cf.', 'approx.', 'incl.', 'Mr.', 'Dr.', 'E.g.'])('keeps going after %s before a capitalised word', (abbreviation) => {
      const text = `Compares tools, ${abbreviation} Python and Go. Then more.`;
      expect(firstSentence(text)).toBe(`Compares tools, ${abbreviation} Python and Go.`);
    });

    it('keeps going after etc. and Inc. mid-sentence', () => {
      expect(firstSentence('Formats JSON, YAML, etc. and checks them. Then more.')).toBe('Formats JSON, YAML, etc. and checks them.');
      expect(firstSentence('Talks to Acme Inc. services. Then more.')).toBe('Talks to Acme Inc. services.');
      expect(firstSentence('Handles etc. 5 more. Then more.')).toBe('Handles etc. 5 more.');
    });

    it('ends after etc. and Inc. when a capitalised sentence follows', () => {
      expect(firstSentence('Formats JSON, YAML, etc. Use it before committing.')).toBe('Formats JSON, YAML, etc.');
      expect(firstSentence('Made by Acme Inc. Use it for invoices.')).toBe('Made by Acme Inc.');
    });

    it('keeps No. before a number and ends at a plain "no."', () => {
      expect(firstSentence('Fixes ticket No. 42 in the tracker. Then more.')).toBe('Fixes ticket No. 42 in the tracker.');
      expect(firstSentence('Just say no. Then move on.')).toBe('Just say no.');
    });

    it('keeps single capital initials and dotted abbreviations', () => {
      expect(firstSentence('Quotes J. R. R. Tolkien at length. Then more.')).toBe('Quotes J. R. R. Tolkien at length.');
      expect(firstSentence('Works in the U.S. East region only. Then more.')).toBe('Works in the U.S. East region only.');
    });

    it('never ends at a period without a following space', () => {
      const text = 'Reads .env files, v1.2 configs, 3.14 values, Node.js code, example.com links and README.md files. Then more.';
      expect(firstSentence(text)).toBe('Reads .env files, v1.2 configs, 3.14 values, Node.js code, example.com links and README.md files.');
    });

    it('ends after a version or a file name that closes a sentence', () => {
      expect(firstSentence('Requires Node.js. Install it first.')).toBe('Requires Node.js.');
      expect(firstSentence('Targets v1.2. Older ones fail.')).toBe('Targets v1.2.');
    });

    it('keeps going after an ellipsis followed by a lower-case word', () => {
      expect(firstSentence('Waits... then retries. Gives up after three.')).toBe('Waits... then retries.');
      expect(firstSentence('Waits… then retries. Gives up after three.')).toBe('Waits… then retries.');
      expect(firstSentence('Loading... Please wait.')).toBe('Loading...');
    });

    it('keeps going after a period in parentheses or quotes followed by lower case', () => {
      expect(firstSentence('Lints SQL (see the docs.) and fixes it. Then more.')).toBe('Lints SQL (see the docs.) and fixes it.');
      expect(firstSentence('Prints "done." when finished. Then more.')).toBe('Prints "done." when finished.');
    });
  });

  describe('whitespace', () => {
    it('collapses newlines, tabs and runs of spaces and trims', () => {
      expect(firstSentence('  Reviews\n  pull\trequests   for bugs.\n\nUse it often.  ')).toBe('Reviews pull requests for bugs.');
    });

    it('returns an empty string for blank text', () => {
      expect(firstSentence('')).toBe('');
      expect(firstSentence(' \n\t ')).toBe('');
    });
  });

  describe('length cap', () => {
    it('cuts at the last word boundary and appends one ellipsis character', () => {
      expect(firstSentence('alpha beta gamma delta', 16)).toBe('alpha beta…');
      expect(firstSentence('alpha beta gamma delta', 17)).toBe('alpha beta gamma…');
    });

    it('leaves text of exactly maxLength alone', () => {
      expect(firstSentence('alpha beta', 10)).toBe('alpha beta');
    });

    it('defaults to 400 characters, so a first sentence of the length real collections have is kept whole', () => {
      const long = `${'word '.repeat(100).trim()}.`;
      const result = firstSentence(long);
      expect(result.length).toBeLessThanOrEqual(400);
      expect(result.endsWith('word…')).toBe(true);
      const seen = `${'word '.repeat(75).trim()}.`;
      expect(firstSentence(seen)).toBe(seen);
    });

    it('drops trailing separators before the ellipsis', () => {
      expect(firstSentence('one, two, three, four', 11)).toBe('one, two…');
    });

    it('cuts a single long word hard without splitting a surrogate pair', () => {
      expect(firstSentence('abcdefghijklmnop', 6)).toBe('abcde…');
      expect(firstSentence('ab😀cdef', 4)).toBe('ab…');
    });

    it('caps CJK text without spaces', () => {
      expect(firstSentence('这是一个非常非常长的没有句号的描述', 6)).toBe('这是一个非…');
    });

    it('caps the first sentence, not the whole text', () => {
      expect(firstSentence('Short one. Then a much longer second sentence.', 12)).toBe('Short one.');
    });

    it('returns an empty string for a cap below one', () => {
      expect(firstSentence('Anything', 0)).toBe('');
      expect(firstSentence('Anything', 1)).toBe('…');
    });

    it('never exceeds maxLength and never leaves a line break (property)', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
          const result = firstSentence(text, max);
          expect(result.length).toBeLessThanOrEqual(max);
          expect(result).not.toMatch(/\s{2}|\n|\t/);
          expect(result).toBe(result.trim());
        }),
      );
    });

    it('returns a prefix of the collapsed text when nothing is cut (property)', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 200 }), (text) => {
          const flat = text.replace(/\s+/g, ' ').trim();
          const result = firstSentence(text, 1000);
          expect(flat.startsWith(result)).toBe(true);
        }),
      );
    });
  });
});
