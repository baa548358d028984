/**
 * What a prompt file format is: how the walk recognises one of its files, and
 * how a recognised file's frontmatter and body become a prompt. Each format
 * is a file in this folder, listed in index.ts; the loader (load/prompt-files.ts)
 * does what they share (frontmatter, description, the text after it). Every
 * format's files are read as YAML frontmatter and a body: `repair` may rewrite
 * a text whose frontmatter is not YAML, and a format with no frontmatter at
 * all is a file whose whole text is the body.
 */
import type { DeclaredArgument } from '../load/arguments.js';
import type { KeyLines } from '../load/frontmatter.js';
import type { Issue } from '../load/issues.js';

/** A file of the format, as the walk found it. */
export interface PromptFileRef {
  /** Path relative to the served folder. */
  rel: string;
  /** The format's name. */
  format: string;
  /** What the file is called in the format (its name unless the frontmatter gives one). */
  key: string;
}

/** A prompt file read and split: what a format turns into a prompt. */
export interface PromptSource {
  ref: PromptFileRef;
  /** The whole file. */
  text: string;
  /** The parsed frontmatter (empty without one). */
  data: Record<string, unknown>;
  /** The text after the frontmatter, without the blank lines that follow it. */
  body: string;
  /** The frontmatter `name`, trimmed, when it is a non-empty string. */
  explicitName: string | undefined;
  lines: KeyLines;
  /** Where the format reports what it finds wrong. */
  issues: Issue[];
}

/** What a format makes of a file: the prompt's name, its arguments and how to render it. */
export interface PromptShape {
  name: string;
  args: DeclaredArgument[];
  /** The text for `values`; throws OutputLimitError once it passes `maxLength` UTF-16 code units. */
  render(values: Record<string, string>, maxLength?: number): string;
}

/** One prompt file format. */
export interface PromptFormat {
  readonly name: string;
  /**
   * The key of the file at `parts` (its path relative to the served folder, split
   * at `/`), when the format claims it. Formats are asked in order; the first claims it.
   */
  detect(parts: readonly string[]): string | undefined;
  /** A text that fails to parse may be written in the format's own looser way: the text to try again, if any. */
  repair?(text: string): string | undefined;
  load(source: PromptSource): PromptShape;
}
