import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeOnce, isEncoded } from '../../src/jsonrpc/encoded.js';
import { classify, nestingDepthExceeds, parseMessage, resultResponse, serializeMessage, splitEncodedMessage } from '../../src/jsonrpc/messages.js';

describe('classify', () => {
  it('sorts requests, notifications and responses', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'm', params: {} })).toEqual({
      kind: 'request',
      message: { jsonrpc: '2.0', id: 1, method: 'm', params: {} },
    });
    expect(classify({ jsonrpc: '2.0', method: 'n' })).toEqual({ kind: 'notification', message: { jsonrpc: '2.0', method: 'n' } });
    // A response keeps its result or error: the server's own questions to the client await them.
    expect(classify({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual({ kind: 'response', id: 'a', result: {} });
    expect(classify({ jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } })).toEqual({ kind: 'response', id: 2, error: { code: -1, message: 'no' } });
    expect(classify({ jsonrpc: '2.0', id: 3, result: 'not an object' })).toEqual({ kind: 'response', id: 3 });
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

  it('agrees with the depth of the parsed value, for any JSON and any limit', () => {
    const depthOf = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
    fc.assert(
      fc.property(fc.json({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (text, limit) => {
        expect(nestingDepthExceeds(text, limit)).toBe(depthOf(JSON.parse(text)) > limit);
      }),
      { numRuns: 3000 },
    );
  });

  it('answers malformed JSON with -32700', () => {
    expect(parseMessage('{"a":', 64)).toMatchObject({ ok: false, response: { id: null, error: { code: -32700 } } });
  });
});

describe('serializeMessage', () => {
  const ids = [0, 7, -3, 2 ** 53 - 1, '', 'abc', 'quote " back \\ slash', 'line\nbreak \u2028 \ud83d\ude00'];

  it('writes exactly what JSON.stringify writes, for encoded results and others', () => {
    const stable = encodeOnce({ items: [{ name: 'a', note: 'é "q"\n' }], nextCursor: 'c', missing: undefined });
    const plain = { items: [1, 2], nested: { a: null } };
    for (const id of ids) {
      for (const result of [stable, plain, {}]) {
        const message = resultResponse(id, result);
        expect(serializeMessage(message)).toBe(JSON.stringify(message));
        // Twice: the second call reuses the cached text.
        expect(serializeMessage(message)).toBe(JSON.stringify(message));
      }
    }
    for (const message of [
      { jsonrpc: '2.0' as const, id: null, error: { code: -32600, message: 'bad' } },
      { jsonrpc: '2.0' as const, id: 1, error: { code: -32602, message: 'bad', data: { a: 1 } } },
      { jsonrpc: '2.0' as const, method: 'notifications/prompts/list_changed' },
      { jsonrpc: '2.0' as const, method: 'n', params: { x: stable } },
    ]) {
      expect(serializeMessage(message)).toBe(JSON.stringify(message));
    }
  });

  it('falls back to JSON.stringify for envelopes it did not build', () => {
    const result = encodeOnce({ a: 1 });
    const reordered = { id: 1, jsonrpc: '2.0', result } as unknown as Parameters<typeof serializeMessage>[0];
    expect(serializeMessage(reordered)).toBe('{"id":1,"jsonrpc":"2.0","result":{"a":1}}');
    const extra = { jsonrpc: '2.0', id: 1, result, extra: true } as unknown as Parameters<typeof serializeMessage>[0];
    expect(serializeMessage(extra)).toBe(JSON.stringify(extra));
  });

  it('encodes a result once by freezing it', () => {
    const result = { a: 1 };
    expect(isEncoded(result)).toBe(false);
    expect(encodeOnce(result)).toBe(result);
    expect(isEncoded(result)).toBe(true);
    expect(Object.isFrozen(result)).toBe(true);
    expect(() => {
      (result as Record<string, unknown>).a = 2;
    }).toThrow(TypeError);
  });
});

describe('splitEncodedMessage', () => {
  it('gives the bytes serializeMessage writes, in parts, for encoded results only', () => {
    const stable = encodeOnce({ prompts: [{ name: 'é ☕', description: 'line\nbreak \u2028 "q"' }], nextCursor: 'c' });
    for (const id of [0, 42, 'x "y" \\ z', '\ud83d\ude00']) {
      const message = resultResponse(id, stable);
      const parts = splitEncodedMessage(message);
      expect(parts).toBeDefined();
      const joined = Buffer.concat([Buffer.from(parts!.head), parts!.result, Buffer.from(parts!.tail)]);
      expect(joined.toString('utf8')).toBe(JSON.stringify(message));
      // The encoded result is shared, not re-encoded per response.
      expect(splitEncodedMessage(resultResponse(id, stable))!.result).toBe(parts!.result);
    }
    expect(splitEncodedMessage(resultResponse(1, { a: 1 }))).toBeUndefined();
    expect(splitEncodedMessage({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } })).toBeUndefined();
    expect(splitEncodedMessage({ jsonrpc: '2.0', method: 'n' })).toBeUndefined();
  });
});
