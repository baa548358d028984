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
  // The pending line is kept as pieces with a running byte count: each byte is
  // sized once, so a line near the cap costs linear work, not quadratic.
  let pieces: string[] = [];
  let bytes = 0;
  let skipping = false;

  function emit(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() !== '') handlers.line(line);
  }

  function consume(text: string): void {
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      const tail = text.slice(start, at);
      if (skipping) skipping = false;
      // A line that arrives whole in one chunk is measured too, not only a pending one.
      else if (bytes + Buffer.byteLength(tail) > maxBytes) handlers.overflow();
      else emit(pieces.join('') + tail);
      pieces = [];
      bytes = 0;
      start = at + 1;
    }
    if (skipping || start === text.length) return;
    const rest = text.slice(start);
    pieces.push(rest);
    bytes += Buffer.byteLength(rest);
    if (bytes > maxBytes) {
      pieces = [];
      bytes = 0;
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
      if (!skipping && pieces.length > 0) emit(pieces.join(''));
      pieces = [];
      bytes = 0;
    },
  };
}
