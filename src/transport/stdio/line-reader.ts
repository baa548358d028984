/**
 * Splits a byte stream into newline-delimited messages (MCP stdio: "messages
 * are delimited by newlines, and MUST NOT contain embedded newlines"). A line
 * longer than the cap is reported once and skipped up to its newline, so one
 * oversized message cannot exhaust memory or stall the stream.
 */
import { StringDecoder } from 'node:string_decoder';

export interface LineHandlers {
  line(text: string): void;
  /** Called once for a line that passed `maxBytes`; the rest of it is dropped. */
  overflow(): void;
}

/** Returns a chunk consumer that calls `handlers` for each complete line. */
export function createLineReader(maxBytes: number, handlers: LineHandlers): { push(chunk: Buffer | string): void; end(): void } {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let skipping = false;

  function emit(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() !== '') handlers.line(line);
  }

  function consume(text: string): void {
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      if (skipping) skipping = false;
      else emit(buffer + text.slice(start, at));
      buffer = '';
      start = at + 1;
    }
    if (skipping) return;
    buffer += text.slice(start);
    // Characters are at most 4 bytes, so this is a cheap conservative check.
    if (buffer.length > maxBytes || Buffer.byteLength(buffer) > maxBytes) {
      buffer = '';
      skipping = true;
      handlers.overflow();
    }
  }

  return {
    push(chunk) {
      consume(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    },
    end() {
      consume(decoder.end());
      if (!skipping && buffer !== '') emit(buffer);
      buffer = '';
    },
  };
}
