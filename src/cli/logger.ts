/**
 * A logger that writes one line per entry to stderr, which is where MCP stdio
 * servers may log (2025-06-18 transports §stdio).
 */
import type { Logger } from '../index.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function describe(details: unknown): string {
  if (details === undefined) return '';
  if (details instanceof Error) return ` ${details.stack ?? details.message}`;
  try {
    return ` ${JSON.stringify(details)}`;
  } catch {
    return ` ${String(details)}`;
  }
}

/** Creates a stderr logger that drops entries below `level`. */
export function createStderrLogger(level: LogLevel, write: (line: string) => void): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'silent'>) => (message: string, details?: unknown) => {
    if (LOG_LEVELS.indexOf(name) >= threshold) write(`skillport ${name}: ${message}${describe(details)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
