/**
 * How the catalogue's loaded records become prompts and directory listings:
 * a skill's prompt (verbatim text, declared arguments, locale variants), a
 * reference document's prompt, a prompt file's prompt, and the children of
 * each directory of a skill for `resources/directory/read`.
 */
import { type ResolvedCompleter, resolveCompleter } from '../../core/completers.js';
import type { Prompt, PromptArgument, PromptResult, Resource } from '../../core/model.js';
import { encodeOnce } from '../../jsonrpc/encoded.js';
import { substituteTemplate } from '../formats/substitute.js';
import type { DeclaredArgument } from '../load/arguments.js';
import type { ConfinedFs } from '../load/confined-fs.js';
import { readFrontmatter } from '../load/frontmatter.js';
import { isWellFormedLanguageTag, lookupLanguageTag } from '../load/language-tag.js';
import { verifyUnchanged } from '../load/load-skill.js';
import type { PromptFileRecord } from '../load/prompt-files.js';
import type { LocaleVariant, SkillRecord } from '../load/skill-record.js';
import { type CitationTargets, rewriteCitations } from './citations.js';
import { firstSentence } from './sentence.js';

/** A prompt of the catalogue and how to render it. */
export interface PromptEntry {
  prompt: Prompt;
  /**
   * Renders the prompt's text and full description; throws {@link ArgumentValueError}
   * for a bad value, and OutputLimitError once the text passes `maxLength`
   * UTF-16 code units (a byte limit may be passed as is: UTF-8 takes at least
   * one byte per code unit).
   */
  render(args: Record<string, string>, maxLength?: number): { text: string; description: string | undefined };
  /**
   * The result for `args` when it does not depend on them (no declared
   * argument is used): built once, frozen and shared, so it is also encoded
   * once. Undefined when the prompt must be rendered for this request.
   */
  fixed?(args: Record<string, string>): PromptResult | undefined;
  completers: ReadonlyMap<string, ResolvedCompleter>;
  /** The skill whose prompt this is; absent for reference documents and prompt files. */
  readonly skill?: SkillRecord;
}

/** The result of a rendered prompt: one user message, with the full description when there is one. */
export function promptResultOf(text: string, description: string | undefined): PromptResult {
  const messages: PromptResult['messages'] = [{ role: 'user', content: { type: 'text', text } }];
  return description === undefined ? { messages } : { description, messages };
}

/** An entry whose text never depends on its arguments: its result is built on first use, once. */
function constantEntry(
  prompt: Prompt,
  completers: ReadonlyMap<string, ResolvedCompleter>,
  build: () => { text: string; description: string | undefined },
): PromptEntry {
  let result: PromptResult | undefined;
  return {
    prompt,
    completers,
    render: build,
    fixed() {
      if (!result) {
        const { text, description } = build();
        result = encodeOnce(promptResultOf(text, description), true);
      }
      return result;
    },
  };
}

/** Thrown by a render when an argument value is not acceptable; the provider maps it to -32602. */
export class ArgumentValueError extends Error {
  override name = 'ArgumentValueError';
}

function toArgument(declared: DeclaredArgument): PromptArgument {
  const argument: PromptArgument = { name: declared.name };
  if (declared.title !== undefined) argument.title = declared.title;
  if (declared.description !== undefined) argument.description = declared.description;
  if (declared.required) argument.required = true;
  return argument;
}

const NO_COMPLETERS: ReadonlyMap<string, ResolvedCompleter> = new Map();

function completersOf(args: readonly DeclaredArgument[], extra?: [string, ResolvedCompleter]): ReadonlyMap<string, ResolvedCompleter> {
  if (extra === undefined && !args.some((a) => a.complete !== undefined)) return NO_COMPLETERS;
  const map = new Map<string, ResolvedCompleter>();
  for (const a of args) if (a.complete !== undefined) map.set(a.name, resolveCompleter(a.complete));
  if (extra) map.set(...extra);
  return map;
}

/**
 * Completes a skill's `locale` argument as it is served: the variants' tags,
 * ranked as any fixed list; and for a well-formed tag that ranks none of them
 * (`fr-CA`), the variant RFC 4647 §3.4 Lookup gives it (`fr`).
 */
function localeCompleter(locales: readonly LocaleVariant[]): ResolvedCompleter {
  const listed = resolveCompleter(locales.map((l) => l.locale));
  return async (value, context, ctx) => {
    const answer = await listed(value, context, ctx);
    if (answer.values.length > 0 || !isWellFormedLanguageTag(value)) return answer;
    const match = lookupLanguageTag(value, locales);
    return match ? { values: [match.locale] } : answer;
  };
}

/** A reference document's description: its frontmatter's, else its first heading or line. */
async function describeReference(text: string, fallback: string): Promise<string> {
  const parsed = await readFrontmatter(text);
  if (parsed.ok && typeof parsed.value.data.description === 'string') return parsed.value.data.description;
  const body = parsed.ok ? parsed.value.body : text;
  const heading = body
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return heading ?? fallback;
}

/**
 * The prompt of a skill: SKILL.md verbatim, frontmatter included, with
 * reference citations rewritten. Declared `{{name}}` placeholders are
 * substituted in the body only; a `locale` argument, a BCP 47 language tag,
 * picks a `SKILL.<locale>.md` by RFC 4647 §3.4 Lookup (`fr-CA` gets
 * `SKILL.fr.md`; a tag without a match gets SKILL.md).
 * SKILL.md is served as loaded while its stamp (one `stat`) is unchanged;
 * otherwise it is read again and must still have the loaded digest (else a
 * StaleFileError, and the caller reloads), so a file edited without `--watch`
 * is never served in a version the catalogue did not describe.
 */
export function skillPrompt(skill: SkillRecord, targets: CitationTargets, fs: ConfinedFs): PromptEntry {
  return new SkillPrompt(skill, targets, fs);
}

// A class rather than a closure: one object per skill, its render shared by all.
class SkillPrompt implements PromptEntry {
  readonly prompt: Prompt;
  readonly completers: ReadonlyMap<string, ResolvedCompleter>;
  readonly skill: SkillRecord;
  readonly #targets: CitationTargets;
  readonly #fs: ConfinedFs;
  readonly #localized: boolean;
  /** The stamp under which SKILL.md was last seen unchanged. */
  #stamp: string;
  #fixed: PromptResult | undefined;

  constructor(skill: SkillRecord, targets: CitationTargets, fs: ConfinedFs) {
    const args = skill.args.map(toArgument);
    const localized = skill.locales.length > 0 && !skill.args.some((a) => a.name === 'locale');
    if (localized) {
      const codes = skill.locales.map((l) => l.locale).join(', ');
      const description = `Language of the skill text as a BCP 47 tag: ${codes}; a longer tag gets the closest of these (RFC 4647 lookup, e.g. fr-CA gets fr), any other tag or none the default text`;
      args.push({ name: 'locale', description });
    }
    this.completers = completersOf(skill.args, localized ? ['locale', localeCompleter(skill.locales)] : undefined);
    this.prompt = { name: skill.promptName, description: firstSentence(skill.description) };
    if (args.length > 0) this.prompt.arguments = args;
    this.skill = skill;
    this.#targets = targets;
    this.#fs = fs;
    this.#localized = localized;
    this.#stamp = skill.stamp;
  }

  /** SKILL.md's text, checked to be what the catalogue read. */
  #text(): string {
    const skill = this.skill;
    const stamp = this.#fs.stampNow(skill.file.rel);
    if (stamp !== undefined && stamp === this.#stamp) return skill.text;
    // Touched, moved or rewritten: only the bytes can tell. Same digest, same text.
    verifyUnchanged(this.#fs, skill.file);
    if (stamp !== undefined) this.#stamp = stamp;
    return skill.text;
  }

  /**
   * The locale variant for a `locale` value, or undefined for SKILL.md: no
   * value, or a well-formed tag that RFC 4647 §3.4 Lookup matches to no
   * variant. A value that is not a language tag at all (RFC 5646 §2.1) is
   * refused rather than served the default text, so a typo such as `fr_CA`
   * is told, not answered in another language.
   */
  #variant(wanted: string | undefined): LocaleVariant | undefined {
    if (!this.#localized || wanted === undefined || wanted === '') return undefined;
    if (!isWellFormedLanguageTag(wanted)) {
      throw new ArgumentValueError(`Skill "${this.skill.name}": ${JSON.stringify(wanted)} is not a BCP 47 language tag (RFC 5646)`);
    }
    return lookupLanguageTag(wanted, this.skill.locales);
  }

  fixed(values: Record<string, string>): PromptResult | undefined {
    if (this.skill.args.length > 0 || this.#variant(values.locale) !== undefined) return undefined;
    this.#text();
    this.#fixed ??= encodeOnce(promptResultOf(rewriteCitations(this.skill.text, this.#targets), this.skill.description), true);
    return this.#fixed;
  }

  render(values: Record<string, string>, maxLength?: number): { text: string; description: string | undefined } {
    const skill = this.skill;
    let { bodyOffset, description } = skill;
    let text: string | undefined;
    const variant = this.#variant(values.locale);
    if (variant) ({ text, bodyOffset, description } = variant);
    text ??= this.#text();
    // Only skills that declare arguments are substituted, and only in the body:
    // a skill without arguments is served exactly as written.
    if (skill.args.length > 0) {
      const budget = maxLength === undefined ? undefined : Math.max(0, maxLength - bodyOffset);
      text = text.slice(0, bodyOffset) + substituteTemplate(text.slice(bodyOffset), values, budget);
    }
    return { text: rewriteCitations(text, this.#targets), description };
  }
}

/** The prompt of a reference document: its text verbatim, citations rewritten. */
export async function referencePrompt(name: string, text: string, fallbackDescription: string, targets: CitationTargets): Promise<PromptEntry> {
  const description = firstSentence(await describeReference(text, fallbackDescription));
  return constantEntry({ name, description }, NO_COMPLETERS, () => ({ text: rewriteCitations(text, targets), description }));
}

/** The prompt of a prompt file (Markdown, Claude Code command, VS Code prompt file). */
export function promptFileEntry(record: PromptFileRecord): PromptEntry {
  const prompt: Prompt = { name: record.name };
  if (record.description !== undefined) prompt.description = firstSentence(record.description);
  if (record.args.length > 0) prompt.arguments = record.args.map(toArgument);
  return {
    prompt,
    completers: completersOf(record.args),
    render: (values, maxLength) => ({ text: record.render(values, maxLength), description: record.description }),
  };
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The direct children of every directory of a skill, by directory URI
 * (SEP-2640 resources/directory/read): sub-folders as `inode/directory`
 * first, then files, each by name.
 */
export function directoryListings(skill: SkillRecord): Map<string, Resource[]> {
  const base = skill.uri.slice(0, -'/SKILL.md'.length);
  const uriOf = (dir: string): string => (dir === '' ? base : `${base}/${encodePath(dir)}`);
  const listings = new Map<string, Resource[]>([...skill.directories].map((dir) => [dir, []]));
  for (const dir of skill.directories) {
    if (dir !== '') listings.get(parentOf(dir))?.push({ uri: uriOf(dir), name: baseName(dir), mimeType: 'inode/directory' });
  }
  for (const record of skill.files) {
    listings.get(parentOf(record.inSkill))?.push({ uri: record.uri, name: baseName(record.inSkill), mimeType: record.mimeType, size: record.size });
  }
  const byUri = new Map<string, Resource[]>();
  for (const [dir, children] of listings) {
    children.sort((a, b) => {
      const folders = Number(b.mimeType === 'inode/directory') - Number(a.mimeType === 'inode/directory');
      return folders !== 0 ? folders : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
    byUri.set(uriOf(dir), children);
  }
  return byUri;
}
