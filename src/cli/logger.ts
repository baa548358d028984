/**
 * A logger that writes one line per entry to stderr, which is where MCP stdio
 * servers may log (2025-06-18 transports §stdio). One line it stays: messages
 * and details carry file names, client text and far ends' errors, so both are
 * escaped here, the one place every entry passes (a folder named
 * `x\nskillport error: …` forged an entry of its own, and ESC sequences
 * reached the terminal).
 *
 * Two formats: `text` for people (`skillport warn: message details`) and
 * `json` for log pipelines, one JSON object per line with `time`, `level` and
 * `msg` first. It is our own rather than a library's (pino): an entry is one
 * synchronous write of one line, which is all a CLI on stderr needs, and no
 * dependency or worker thread comes with it. Nothing here ever throws: an
 * entry whose details cannot be JSON is written with them as text.
 */
import { escapeControls, escapeJsonControls, type Logger } from '../index.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The level of one entry. */
export type EntryLevel = Exclude<LogLevel, 'silent'>;

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The CLI's logger: the library's, and entries with fields of their own (a request's method, id, duration). */
export interface CliLogger extends Logger {
  /** Whether an entry at `level` is written: check it before building fields. */
  enabled(level: EntryLevel): boolean;
  /**
   * An entry with `fields`: in JSON, members of the entry beside `time`,
   * `level` and `msg` (which they never replace); in text, JSON after the message.
   */
  entry(level: EntryLevel, message: string, fields: Readonly<Record<string, unknown>>): void;
}

/** String(value), which throws for an object without a prototype or with a throwing toString. */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[unprintable]';
  }
}

function describe(details: unknown): string {
  if (details === undefined) return '';
  // A stack is several lines: its line ends are escaped with the rest, so the entry stays one line.
  if (details instanceof Error) return ` ${escapeControls(details.stack ?? details.message)}`;
  try {
    // JSON.stringify escapes the C0 controls; escapeControls would double its backslashes.
    const json = JSON.stringify(details);
    if (json !== undefined) return ` ${escapeJsonControls(json)}`;
  } catch {
    // A cycle or a BigInt: shown as String shows it.
  }
  return ` ${escapeControls(textOf(details))}`;
}

/** An Error as a JSON member: what it is, what it says and where it was thrown. */
function errorFields(error: Error): Record<string, unknown> {
  return { type: error.name, message: error.message, stack: error.stack };
}

/** Errors anywhere in the details keep their message (JSON.stringify shows an Error as `{}`); a BigInt is written as its digits. */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  return value instanceof Error ? errorFields(value) : value;
}

/** One JSON line; `details` as `error` when an Error, else under `details`, so they never replace time, level or msg. */
function jsonLine(level: EntryLevel, message: string, fields: Readonly<Record<string, unknown>> | undefined, details: unknown): string {
  const time = new Date().toISOString();
  try {
    // No prototype: a field named __proto__ is a member like any other.
    const entry: Record<string, unknown> = Object.create(null);
    entry.time = time;
    entry.level = level;
    entry.msg = message;
    if (fields !== undefined) for (const key of Object.keys(fields)) if (!(key in entry)) entry[key] = fields[key];
    if (details instanceof Error) entry.error = errorFields(details);
    else if (details !== undefined) entry.details = details;
    return `${escapeJsonControls(JSON.stringify(entry, replacer))}\n`;
  } catch {
    // A cycle, or a toJSON or getter that throws: the details as text, and the fields left out.
    return `${escapeJsonControls(JSON.stringify({ time, level, msg: message, details: textOf(details) }))}\n`;
  }
}

/** Creates a stderr logger that drops entries below `level`, writing each as `format` says. */
export function createStderrLogger(level: LogLevel, write: (line: string) => void, format: LogFormat = 'text'): CliLogger {
  const threshold = LOG_LEVELS.indexOf(level);
  const enabled = (name: EntryLevel) => LOG_LEVELS.indexOf(name) >= threshold;
  const line =
    format === 'json'
      ? (name: EntryLevel, message: string, fields: Readonly<Record<string, unknown>> | undefined, details: unknown) => jsonLine(name, message, fields, details)
      : (name: EntryLevel, message: string, fields: Readonly<Record<string, unknown>> | undefined, details: unknown) =>
          `skillport ${name}: ${escapeControls(message)}${describe(fields)}${describe(details)}\n`;
  const at = (name: EntryLevel) => (message: string, details?: unknown) => {
    if (enabled(name)) write(line(name, message, undefined, details));
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled,
    entry(name, message, fields) {
      if (enabled(name)) write(line(name, message, fields, undefined));
    },
  };
}
