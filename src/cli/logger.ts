/**
 * A logger that writes one line per entry to stderr, which is where MCP stdio
 * servers may log (2025-06-18 transports §stdio). One line it stays: messages
 * and details carry file names, client text and far ends' errors, so both are
 * escaped here, the one place every entry passes (a folder named
 * `x\nskillport error: …` forged an entry of its own, and ESC sequences
 * reached the terminal).
 */
import { escapeControls, escapeJsonControls, type Logger } from '../index.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  return ` ${escapeControls(String(details))}`;
}

/** Creates a stderr logger that drops entries below `level`. */
export function createStderrLogger(level: LogLevel, write: (line: string) => void): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'silent'>) => (message: string, details?: unknown) => {
    if (LOG_LEVELS.indexOf(name) >= threshold) write(`skillport ${name}: ${escapeControls(message)}${describe(details)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
