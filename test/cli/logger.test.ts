import { describe, expect, it, vi } from 'vitest';
import { type CliLogger, createStderrLogger, type LogLevel } from '../../src/cli/logger.js';

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

  it('writes the fields of an entry as JSON after its message', () => {
    const lines = logged((logger) => logger.entry('debug', 'request', { method: 'tools/call', id: 'a\nb' }));
    expect(lines).toEqual(['skillport debug: request {"method":"tools/call","id":"a\\nb"}\n']);
  });

  it('drops entries below its level', () => {
    const lines: string[] = [];
    const logger = createStderrLogger('warn', (line) => lines.push(line));
    logger.info('no');
    logger.warn('yes');
    expect(lines).toEqual(['skillport warn: yes\n']);
  });
});

describe('the JSON logger', () => {
  const at = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
  const json = (level: LogLevel, log: (logger: CliLogger) => void): string[] => {
    const lines: string[] = [];
    vi.useFakeTimers({ now: at, toFake: ['Date'] });
    try {
      log(createStderrLogger(level, (line) => lines.push(line), 'json'));
    } finally {
      vi.useRealTimers();
    }
    return lines;
  };
  const parsed = (line: string) => JSON.parse(line) as Record<string, unknown>;

  it('writes time, level and msg first, then the details under their own key', () => {
    const lines = json('debug', (logger) => {
      logger.info('started');
      logger.warn('issues', [{ code: 'x' }]);
      logger.debug('plain', { time: 'forged', level: 'error', msg: 'forged' });
    });
    expect(lines).toEqual([
      '{"time":"2026-01-02T03:04:05.006Z","level":"info","msg":"started"}\n',
      '{"time":"2026-01-02T03:04:05.006Z","level":"warn","msg":"issues","details":[{"code":"x"}]}\n',
      '{"time":"2026-01-02T03:04:05.006Z","level":"debug","msg":"plain","details":{"time":"forged","level":"error","msg":"forged"}}\n',
    ]);
  });

  it('writes an Error as its type, message and stack', () => {
    class GitError extends Error {
      override name = 'GitError';
    }
    const [line] = json('error', (logger) => logger.error('failed', new GitError('git fetch failed')));
    const entry = parsed(line as string);
    expect(entry.error).toEqual({ type: 'GitError', message: 'git fetch failed', stack: expect.stringMatching(/^GitError: git fetch failed\n {4}at /) });
  });

  it('puts fields beside time, level and msg, never in their place', () => {
    // An own __proto__ member, as JSON.parse makes one: written as a field, no prototype changed.
    const fields = JSON.parse('{"time":0,"level":"x","msg":"x","method":"tools/call","__proto__":{"x":1},"id":7}') as Record<string, unknown>;
    const [line] = json('debug', (logger) => logger.entry('debug', 'request', fields));
    expect(line).toBe('{"time":"2026-01-02T03:04:05.006Z","level":"debug","msg":"request","method":"tools/call","__proto__":{"x":1},"id":7}\n');
  });

  it('keeps every entry on one line, whatever its text holds', () => {
    const lines = json('debug', (logger) => {
      logger.warn('a\nb\r\u2028\u2029\u009b\u202e\x1b[2J', { name: 'x\n{"level":"error"}\u2028' });
      logger.error('stack', new Error('line\nbreak'));
      logger.entry('info', 'fields', { id: 'a\u2029b' });
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(/[\p{Cc}\u2028\u2029\u202e]/u);
    }
    expect(parsed(lines[0] as string)).toMatchObject({ msg: 'a\nb\r\u2028\u2029\u009b\u202e\x1b[2J', details: { name: 'x\n{"level":"error"}\u2028' } });
  });

  it('never throws: a cycle, a BigInt, a throwing toJSON or an object without a prototype', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const bare = Object.create(null) as Record<string, unknown>;
    bare.self = bare;
    const lines = json('debug', (logger) => {
      logger.info('cycle', cyclic);
      logger.info('bigint', { size: 2n ** 70n });
      logger.info('toJSON', {
        toJSON() {
          throw new Error('no');
        },
      });
      logger.info('bare', bare);
      logger.info('nested', { cause: new RangeError('deep') });
    });
    expect(lines.map((line) => parsed(line).details)).toEqual([
      '[object Object]',
      { size: '1180591620717411303424' },
      '[object Object]',
      '[unprintable]',
      { cause: { type: 'RangeError', message: 'deep', stack: expect.stringContaining('RangeError: deep') } },
    ]);
  });

  it('drops entries below its level, and says which it writes', () => {
    const lines = json('warn', (logger) => {
      logger.info('no');
      logger.entry('debug', 'no', { id: 1 });
      logger.warn('yes');
      expect([logger.enabled('debug'), logger.enabled('warn'), logger.enabled('error')]).toEqual([false, true, true]);
    });
    expect(lines.map((line) => parsed(line).msg)).toEqual(['yes']);
    expect(json('silent', (logger) => logger.error('no'))).toEqual([]);
  });
});
