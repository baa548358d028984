/**
 * BCP 47 language tags: RFC 5646 §2.1 well-formedness and RFC 4647 §3.4
 * Lookup over a skill's locale variants.
 */
import { describe, expect, it } from 'vitest';
import { isWellFormedLanguageTag, lookupLanguageTag } from '../../../src/skills/load/language-tag.js';

describe('isWellFormedLanguageTag', () => {
  it('accepts every form of RFC 5646 §2.1, in any case', () => {
    const wellFormed = [
      'fr',
      'fr-CA',
      'FR-ca',
      'en-US',
      'es-419',
      'zh-Hant',
      'zh-Hant-TW',
      'sr-Latn-RS',
      'zh-cmn-Hans-CN', // extended language subtag
      'zh-yue-HK',
      'abc-def-ghi-jkl', // three extlangs, the most there may be
      'abcd', // four letters: reserved, still well-formed
      'abcdefgh',
      'de-CH-1996', // variant: a digit and three more
      'sl-rozaj-biske',
      'sl-IT-nedis',
      'hy-Latn-IT-arevela',
      'de-1901-1901', // a repeated variant is invalid (§2.2.9), not malformed
      'en-US-u-islamcal',
      'en-u-nu-latn',
      'en-u-12', // extension subtags are any 2*8alphanum here
      'en-a-bbb-a-ccc', // a repeated singleton: invalid, not malformed
      'en-a-myext-b-another',
      'de-DE-u-co-phonebk',
      'fr-Latn-CA-1996-u-nu-latn-x-quebec',
      'qaa-Qaaa-QM-x-southern',
      'x-whatever', // private use alone
      'X-A',
      'en-x-a-b-12345678',
      'i-klingon', // grandfathered, irregular
      'I-KLINGON',
      'en-GB-oed',
      'sgn-BE-FR',
      'art-lojban', // grandfathered, regular
      'zh-min-nan',
    ];
    expect(wellFormed.filter((tag) => !isWellFormedLanguageTag(tag))).toEqual([]);
  });

  it('refuses whatever does not fit the grammar', () => {
    const malformed = [
      '',
      '-',
      'f',
      'fr-',
      '-fr',
      'fr--CA',
      'fr_CA', // POSIX, not BCP 47
      ' fr',
      'fr ',
      'fr\n',
      'français',
      'fr-\u212Aa', // KELVIN SIGN lower-cases to an ASCII k
      'abcdefghi', // a language has at most eight letters
      'abcd-def', // an extlang follows only a two- or three-letter language
      'abc-def-ghi-jkl-mno', // four extlangs
      'fr-12', // two digits: neither a region nor a variant
      'fr-CA-CA', // two regions
      'fr-Latn-Latn',
      'fr-CA-abc',
      'fr-1996-abc',
      'de-abcdefghi',
      'en-a', // a singleton needs a subtag
      'en-a-b',
      'en-a-x-b',
      'en-a-abcdefghi',
      'en-x', // so does x
      'x',
      'en-x-abcdefghi',
      'en-x-a-',
      'i-default-x',
      'i',
      'i-foo', // i- only in the grandfathered list
      '*', // a language range, not a tag
      'fr-*',
      'en-GB-oed-x',
      '123',
    ];
    expect(malformed.filter((tag) => isWellFormedLanguageTag(tag))).toEqual([]);
  });

  it('takes a long tag in one pass', () => {
    expect(isWellFormedLanguageTag(`en-x${'-a'.repeat(500_000)}`)).toBe(true);
    expect(isWellFormedLanguageTag(`en-x${'-a'.repeat(500_000)}-`)).toBe(false);
    expect(isWellFormedLanguageTag(`${'a-'.repeat(500_000)}`)).toBe(false);
  });
});

describe('lookupLanguageTag', () => {
  const variants = ['de', 'fr', 'pt-BR', 'zh-Hant', 'zh-Hant-CN-x-private1'].map((locale) => ({ locale }));
  const lookup = (tag: string) => lookupLanguageTag(tag, variants)?.locale;

  it('matches a tag exactly, case-insensitively', () => {
    expect(lookup('fr')).toBe('fr');
    expect(lookup('FR')).toBe('fr');
    expect(lookup('pt-br')).toBe('pt-BR');
  });

  it('cuts the tag short one subtag at a time from the end (RFC 4647 §3.4)', () => {
    expect(lookup('fr-CA')).toBe('fr');
    expect(lookup('de-CH-1996')).toBe('de');
    expect(lookup('pt-BR-u-nu-latn')).toBe('pt-BR');
    expect(lookup('zh-Hant-TW')).toBe('zh-Hant');
  });

  it('drops a singleton left last together with the subtag after it', () => {
    // RFC 4647 §3.4's own example: -private2, then -x-private1 (not zh-Hant-CN-x).
    expect(lookup('zh-Hant-CN-x-private1-private2')).toBe('zh-Hant-CN-x-private1');
    expect(lookupLanguageTag('zh-Hant-CN-x-private1-private2', [{ locale: 'zh-Hant-CN-x' }, { locale: 'zh-Hant-CN' }])?.locale).toBe('zh-Hant-CN');
    expect(lookup('fr-x-quebec')).toBe('fr');
    expect(lookup('fr-a-abc-x-quebec')).toBe('fr');
  });

  it('finds nothing, meaning the default text, for a tag without a variant on its way down', () => {
    expect(lookup('en')).toBeUndefined();
    expect(lookup('en-GB')).toBeUndefined();
    expect(lookup('frr')).toBeUndefined(); // not a prefix match: whole subtags only
    expect(lookup('pt')).toBeUndefined(); // lookup never widens: pt-BR is more specific than pt
    expect(lookup('x-fr')).toBeUndefined();
    expect(lookup('i-klingon')).toBeUndefined();
    expect(lookupLanguageTag('fr', [])).toBeUndefined();
  });

  it('takes a long tag in one pass', () => {
    expect(lookup(`fr-x${'-a'.repeat(500_000)}`)).toBe('fr');
  });
});
