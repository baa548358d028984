/**
 * What the commands print on stdout and stderr besides log entries. Names,
 * descriptions, paths and messages come from skills folders and far ends:
 * each goes out escaped (a skill folder named `x\nskillport error: …` forged a
 * line of `check`'s report, and ESC sequences reached the terminal).
 */
import type { Writable } from 'node:stream';
import { escapeControls, escapeJsonControls } from '../index.js';

/** `text` as one line. */
export function printLine(stream: Writable, text: string): void {
  stream.write(`${escapeControls(text)}\n`);
}

/** `text` as the lines it holds (a prompt's text), with the controls that are not line ends escaped. */
export function printText(stream: Writable, text: string): void {
  const shown = escapeControls(text, { lines: true });
  stream.write(shown.endsWith('\n') ? shown : `${shown}\n`);
}

/** `value` as indented JSON: the same value, with no control character a terminal would obey. */
export function printJson(stream: Writable, value: unknown): void {
  stream.write(`${escapeJsonControls(JSON.stringify(value, null, 2))}\n`);
}

/** `1 skill`, `2 skills`: a count with its noun, singular for one. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
