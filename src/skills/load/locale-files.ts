/**
 * A skill's locale variants, `SKILL.<tag>.md` beside its SKILL.md: which
 * file names are variants (a BCP 47 tag with a lower-case language of two or
 * three letters and no extension or private-use part, README "Locales"),
 * each read as a variant or reported, and what a file that looks like one
 * but is not is told (`SKILL.fr_CA.md`, `SKILL.FR.md`: the name to give it).
 */
import { readFrontmatter } from './frontmatter.js';
import type { Issue } from './issues.js';
import { isWellFormedLanguageTag } from './language-tag.js';
import { decodeUtf8, type LocaleVariant } from './skill-record.js';

const LOCALE_FILE = /^SKILL\.([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.md$/;
/** Any `SKILL.<something>.md` at the top of a skill folder. */
const DOTTED_SKILL_FILE = /^SKILL\.([^/]+)\.md$/;
/** A language subtag first, in any case, then anything: a name meant as a tag. */
const LANGUAGE_FIRST = /^[A-Za-z]{2,3}(?:[-_]|$)/;

/** The tag of a locale variant's file name (relative to its skill folder), or undefined when it is no variant. */
export function localeOf(inSkill: string): string | undefined {
  return LOCALE_FILE.exec(inSkill)?.[1];
}

/**
 * The finding for a file at the top of a skill folder named `SKILL.<x>.md`
 * that is no locale variant, or undefined: the name it should have when one
 * is plain to see (`_` for `-`, the language in lower case), else what
 * variants are named; a name that starts with no language subtag at all
 * (`SKILL.backup.md`) is a note: it may well be meant as a plain file.
 */
export function misnamedLocale(inSkill: string, rel: string): Issue | undefined {
  const meant = DOTTED_SKILL_FILE.exec(inSkill)?.[1];
  if (meant === undefined || localeOf(inSkill) !== undefined) return undefined;
  const [language = '', ...rest] = meant.replaceAll('_', '-').split('-');
  const fixed = [language.toLowerCase(), ...rest].join('-');
  if (localeOf(`SKILL.${fixed}.md`) !== undefined && isWellFormedLanguageTag(fixed)) {
    const message = `Not read as a locale variant: "${meant}" is not a language tag as variants are named (subtags joined by "-", the language in lower case); name it SKILL.${fixed}.md`;
    return { severity: 'warning', code: 'invalid_locale_variant', path: rel, message };
  }
  if (LANGUAGE_FIRST.test(meant)) {
    const message = `Not read as a locale variant: a variant's name is SKILL.<tag>.md, the tag a lower-case language of 2-3 letters, then subtags of 2-8 letters or digits joined by "-" (SKILL.pt-BR.md)`;
    return { severity: 'warning', code: 'invalid_locale_variant', path: rel, message };
  }
  const message = `Served as a plain file, not as a locale variant: "${meant}" does not start with a language subtag`;
  return { severity: 'note', code: 'not_locale_variant', path: rel, message };
}

/** A `SKILL.<locale>.md` as a variant, or why it is left out. */
export async function readLocaleVariant(
  locale: string,
  bytes: Uint8Array,
  fallbackDescription: string,
): Promise<LocaleVariant | { line?: number; message: string }> {
  // A name that is not a language tag could be completed but never asked for:
  // the `locale` argument refuses such a value (RFC 5646 §2.1).
  if (!isWellFormedLanguageTag(locale)) return { message: `Locale variant left out: "${locale}" is not a BCP 47 language tag (RFC 5646)` };
  const text = decodeUtf8(bytes);
  const parsed = text === undefined ? undefined : await readFrontmatter(text);
  if (!parsed?.ok) return { ...(parsed ? { line: parsed.line } : {}), message: 'Locale variant left out: not UTF-8 or invalid frontmatter' };
  const description = typeof parsed.value.data.description === 'string' ? parsed.value.data.description : fallbackDescription;
  return { locale, text: text as string, description, bodyOffset: parsed.value.bodyOffset };
}

/**
 * The variants sorted by tag, each tag once: tags are matched without regard
 * to case (RFC 4647 §3.4), so of `SKILL.pt-BR.md` and `SKILL.pt-br.md` only
 * the first in sorted order could ever be served; the other is reported.
 */
export function distinctLocales(locales: LocaleVariant[], prefix: string, issues: Issue[]): LocaleVariant[] {
  locales.sort((a, b) => (a.locale < b.locale ? -1 : 1));
  const seen = new Map<string, string>();
  return locales.filter(({ locale }) => {
    const first = seen.get(locale.toLowerCase());
    if (first === undefined) {
      seen.set(locale.toLowerCase(), locale);
      return true;
    }
    issues.push({
      severity: 'warning',
      code: 'duplicate_locale_variant',
      path: `${prefix}SKILL.${locale}.md`,
      message: `Locale variant left out: SKILL.${first}.md has the same tag ("${locale}" and "${first}" differ only in case)`,
    });
    return false;
  });
}
