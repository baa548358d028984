/**
 * README.md and docs/*.md read as a reader's tools read them: the code blocks
 * (with their language, dedented out of list items), the relative links, the
 * headings' anchors as GitHub makes them, and the `skillport` command lines
 * inside shell blocks and host configurations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from '../_stdio-client.js';

export interface Page {
  /** Relative to the repository's root: `README.md`, `docs/cli.md`. */
  readonly path: string;
  readonly text: string;
}

export interface CodeBlock {
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** The block's text, without the fence's own indentation, ending in a newline. */
  readonly body: string;
}

export function readPage(path: string): Page {
  return { path, text: readFileSync(`${ROOT}${path}`, 'utf8') };
}

/** README.md and every Markdown file of docs/. */
export function pages(): Page[] {
  const docs = readdirSync(`${ROOT}docs`).filter((file) => file.endsWith('.md'));
  return [readPage('README.md'), ...docs.sort().map((file) => readPage(`docs/${file}`))];
}

/** Every fenced block of a page; a fence indented inside a list item is dedented by its indentation. */
export function codeBlocks(page: Page): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = page.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const indent = open[1]?.length ?? 0;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^ *```\s*$/.test(lines[j] ?? ''); j++) body.push((lines[j] ?? '').slice(indent));
    blocks.push({ page: page.path, line: i + 1, lang: open[2] ?? '', body: body.length === 0 ? '' : `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}

/** The page's prose: code blocks and inline code spans blanked, so neither yields links or headings. */
export function prose(text: string): string {
  return text.replace(/^( *)```[\s\S]*?^ *```\s*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** The targets of the page's links and images, as written. */
export function links(page: Page): string[] {
  return [...prose(page.text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

/** The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutFences = text.replace(/^( *)```[\s\S]*?^ *```\s*$/gm, '');
  for (const m of withoutFences.matchAll(/^#{1,6} (.+)$/gm)) {
    const heading = (m[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** One `skillport` command line: the command and the words after it. */
export interface Invocation {
  readonly command: string;
  readonly words: readonly string[];
  /** Where it was found, for failure messages. */
  readonly source: string;
}

const IS_SKILLPORT = (word: string) => word === 'skillport' || word.endsWith('bin/skillport.js');

/**
 * The `skillport` invocations among a command's words: `skillport serve …`,
 * `node …/bin/skillport.js serve …`, also after `claude mcp add NAME --`. A
 * `skillport` not followed by a command (an image tag, a server's name) is none.
 */
export function invocations(words: readonly string[], commands: readonly string[], source: string): Invocation[] {
  const found: Invocation[] = [];
  words.forEach((word, i) => {
    const command = words[i + 1];
    if (IS_SKILLPORT(word) && command !== undefined && commands.includes(command)) {
      found.push({ command, words: words.slice(i + 2), source });
    }
  });
  return found;
}

/** A shell block's commands as words: continuation lines joined, comments dropped, split at `&&`, `;` and `|`. */
export function shellCommands(body: string): string[][] {
  const joined = body.replace(/\\\n/g, ' ');
  const commands: string[][] = [];
  for (const line of joined.split('\n')) {
    const code = line.replace(/(^|\s)#(\s.*|)$/, '');
    for (const part of code.split(/&&|;|\|/)) {
      const words = [...part.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((m) => m[0].replace(/^["']|["']$/g, ''));
      if (words.length > 0) commands.push(words);
    }
  }
  return commands;
}

/** The flags an invocation names (`--http`, `--arg`), without their values. */
export function flags(invocation: Invocation): string[] {
  return invocation.words.filter((word) => /^--?[a-z]/.test(word)).map((word) => word.replace(/=.*$/, ''));
}
