import { describe, expect, it } from 'vitest';
import { createLineReader } from '../../../src/transport/stdio/line-reader.js';

function collect(maxBytes: number) {
  const lines: string[] = [];
  let overflows = 0;
  const reader = createLineReader(maxBytes, { line: (l) => lines.push(l), overflow: () => overflows++ });
  return { reader, lines, overflows: () => overflows };
}

describe('createLineReader', () => {
  it('splits on newlines across chunks, strips CR and skips blank lines', () => {
    const { reader, lines } = collect(1000);
    reader.push('{"a":1}\r\n{"b"');
    reader.push(':2}\n\n   \n{"c":3}');
    reader.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes UTF-8 split across chunk boundaries', () => {
    const { reader, lines } = collect(1000);
    const bytes = Buffer.from('"héllo ✓"\n');
    reader.push(bytes.subarray(0, 3));
    reader.push(bytes.subarray(3, 9));
    reader.push(bytes.subarray(9));
    expect(lines).toEqual(['"héllo ✓"']);
  });

  it('reports an oversized line once and resumes after its newline', () => {
    const { reader, lines, overflows } = collect(10);
    reader.push('x'.repeat(8));
    reader.push('y'.repeat(8));
    reader.push('z'.repeat(50));
    reader.push('\n{"ok":1}\n');
    expect(overflows()).toBe(1);
    expect(lines).toEqual(['{"ok":1}']);
  });
});
