import { describe, expect, it } from 'vitest';
import { classify, nestingDepthExceeds, parseMessage } from '../../src/jsonrpc/messages.js';

describe('classify', () => {
  it('sorts requests, notifications and responses', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'm', params: {} })).toEqual({
      kind: 'request',
      message: { jsonrpc: '2.0', id: 1, method: 'm', params: {} },
    });
    expect(classify({ jsonrpc: '2.0', method: 'n' })).toEqual({ kind: 'notification', message: { jsonrpc: '2.0', method: 'n' } });
    expect(classify({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual({ kind: 'response', id: 'a' });
  });

  it.each([
    [[{ jsonrpc: '2.0', id: 1, method: 'm' }], null, 'Batch'],
    [42, null, 'object'],
    [null, null, 'object'],
    [{ id: 3, method: 'm' }, 3, 'jsonrpc'],
    [{ jsonrpc: '1.0', id: 3, method: 'm' }, 3, 'jsonrpc'],
    [{ jsonrpc: '2.0', id: 3, method: 5 }, 3, 'method'],
    [{ jsonrpc: '2.0', id: 3, method: 'm', params: [1] }, 3, 'params'],
    [{ jsonrpc: '2.0', id: null, method: 'm' }, null, 'id'],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'm' }, null, 'id'],
    [{ jsonrpc: '2.0', id: 4 }, 4, 'method'],
  ])('marks %j invalid with id %j', (value, id, reason) => {
    const result = classify(value);
    expect(result).toMatchObject({ kind: 'invalid', id });
    expect(result.kind === 'invalid' && result.reason).toContain(reason);
  });
});

describe('parseMessage', () => {
  it('refuses nesting past the limit before parsing, with -32600 and id null', () => {
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    expect(parseMessage(deep, 64)).toEqual({
      ok: false,
      response: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: nested deeper than 64 levels' } },
    });
    expect(parseMessage(`${'['.repeat(64)}${']'.repeat(64)}`, 64).ok).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestingDepthExceeds(JSON.stringify({ a: '[[[[{{{{\\"[[[[' }), 2)).toBe(false);
    expect(nestingDepthExceeds('{"a":{"b":{"c":1}}}', 2)).toBe(true);
  });

  it('answers malformed JSON with -32700', () => {
    expect(parseMessage('{"a":', 64)).toMatchObject({ ok: false, response: { id: null, error: { code: -32700 } } });
  });
});
