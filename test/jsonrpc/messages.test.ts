import { describe, expect, it } from 'vitest';
import { classify } from '../../src/jsonrpc/messages.js';

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
