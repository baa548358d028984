/**
 * The words search compares: the Porter stemmer against pairs from Porter's paper and
 * its published vocabulary, and the cutting of text into terms.
 */
import { describe, expect, it } from 'vitest';
import { stem } from '../../../src/skills/catalogue/stem.js';
import { termsOf } from '../../../src/skills/catalogue/terms.js';

describe('stem', () => {
  it("gives the Porter stems of the paper's examples", () => {
    const pairs: [string, string][] = [
      ['caresses', 'caress'],
      ['ponies', 'poni'],
      ['ties', 'ti'],
      ['cats', 'cat'],
      ['feed', 'feed'],
      ['agreed', 'agre'],
      ['plastered', 'plaster'],
      ['motoring', 'motor'],
      ['sing', 'sing'],
      ['hopping', 'hop'],
      ['falling', 'fall'],
      ['filing', 'file'],
      ['happy', 'happi'],
      ['relational', 'relat'],
      ['conditional', 'condit'],
      ['digitizer', 'digit'],
      ['vietnamization', 'vietnam'],
      ['decisiveness', 'decis'],
      ['sensibiliti', 'sensibl'],
      ['triplicate', 'triplic'],
      ['electrical', 'electr'],
      ['adjustment', 'adjust'],
      ['adoption', 'adopt'],
      ['effective', 'effect'],
      ['generalizations', 'gener'],
      ['controll', 'control'],
      ['roll', 'roll'],
    ];
    expect(pairs.map(([word]) => [word, stem(word)])).toEqual(pairs);
  });

  it('leaves short words and anything but lower-case a-z as they are', () => {
    expect(['is', 'pdf2', 'Forms', 'café', ''].map(stem)).toEqual(['is', 'pdf2', 'Forms', 'café', '']);
  });
});

describe('termsOf', () => {
  it('cuts runs of letters and digits, then their parts at case and digit changes, keeping the run', () => {
    expect(termsOf('pdfForms XMLParser react18 slack-gif_creator')).toEqual([
      'pdfform',
      'pdf',
      'form',
      'xmlparser',
      'xml',
      'parser',
      'react18',
      'react',
      '18',
      'slack',
      'gif',
      'creator',
    ]);
  });

  it('drops one-character words, stop words and over-long runs, and names one thing by one term', () => {
    expect(termsOf('a x I the of and use when')).toEqual([]);
    expect(termsOf(`${'q'.repeat(41)} Spreadsheets in Excel, an XLSX workbook`)).toEqual(['xlsx', 'xlsx', 'xlsx', 'xlsx']);
  });

  it('reads letters beyond ASCII', () => {
    expect(termsOf('Größe ändern')).toEqual(['größe', 'ändern']);
  });
});
