import { describe, expect, it } from 'vitest';
import { createStderrLogger } from '../../src/cli/logger.js';

function logged(log: (logger: ReturnType<typeof createStderrLogger>) => void): string[] {
  const lines: string[] = [];
  log(createStderrLogger('debug', (line) => lines.push(line)));
  return lines;
}

describe('the stderr logger', () => {
  it('writes each entry as one line, message and details escaped', () => {
    const error = new Error('cannot read a\nskillport error: forged\x1b[2J');
    const lines = logged((logger) => {
      logger.warn('a\nskillport error: forged\x1b[31m', error);
      logger.info('details', { name: 'x\nskillport error: forged\x1b[31m\u009b\u202e' });
      // No JSON for a cycle: shown as String shows it.
      const cyclic: Record<string, unknown> = { toString: () => 'y\nskillport error: forged' };
      cyclic.self = cyclic;
      logger.error('a cycle', cyclic);
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(/[\p{Cc}\u202e]/u);
    }
    expect(lines[0]).toMatch(/^skillport warn: a\\nskillport error: forged\\x1b\[31m Error: cannot read a\\nskillport error: forged\\x1b\[2J\\n {4}at /);
    // Details are JSON, with what JSON.stringify leaves raw escaped the JSON way.
    expect(lines[1]).toBe('skillport info: details {"name":"x\\nskillport error: forged\\u001b[31m\\u009b\\u202e"}\n');
    expect(lines[2]).toBe('skillport error: a cycle y\\nskillport error: forged\n');
  });

  it('drops entries below its level', () => {
    const lines: string[] = [];
    const logger = createStderrLogger('warn', (line) => lines.push(line));
    logger.info('no');
    logger.warn('yes');
    expect(lines).toEqual(['skillport warn: yes\n']);
  });
});
