import { describe, expect, it } from 'vitest';
import { derive, encodeOnce, isEncoded, jsonBytes, jsonText } from '../../src/jsonrpc/encoded.js';

describe('encodeOnce', () => {
  it('freezes in place, and all the way down when asked', () => {
    const shallow = { a: { b: 1 } };
    expect(encodeOnce(shallow)).toBe(shallow);
    expect(Object.isFrozen(shallow)).toBe(true);
    expect(Object.isFrozen(shallow.a)).toBe(false);
    const deep = { a: { b: [{ c: 1 }] } };
    encodeOnce(deep, true);
    expect(Object.isFrozen(deep.a.b[0])).toBe(true);
    expect(() => {
      (deep.a.b[0] as { c: number }).c = 2;
    }).toThrow(TypeError);
  });

  it('is idempotent, and copies a value frozen by someone else', () => {
    const value = { a: 1 };
    expect(encodeOnce(encodeOnce(value))).toBe(value);
    const frozen = Object.freeze({ a: 1 });
    const encoded = encodeOnce(frozen);
    expect(encoded).not.toBe(frozen);
    expect(encoded).toEqual(frozen);
    expect(isEncoded(encoded)).toBe(true);
    expect(isEncoded(frozen)).toBe(false);
  });

  it('is invisible to JSON, spreads and key listings', () => {
    const value = encodeOnce({ a: 1, b: 'é' });
    expect(JSON.stringify(value)).toBe('{"a":1,"b":"é"}');
    expect(Object.keys(value)).toEqual(['a', 'b']);
    expect(isEncoded({ ...value })).toBe(false);
  });
});

describe('derived forms', () => {
  it('are made once per key and kept with the value', () => {
    const value = encodeOnce({ n: 2 });
    let made = 0;
    const double = (v: { n: number }) => {
      made++;
      return v.n * 2;
    };
    const square = (v: { n: number }) => v.n ** 2;
    expect(derive(value, double, double)).toBe(4);
    expect(derive(value, double, double)).toBe(4);
    expect(derive(value, square, square)).toBe(4);
    expect(made).toBe(1);
    // Another value with the same content has forms of its own.
    expect(derive(encodeOnce({ n: 3 }), double, double)).toBe(6);
    expect(made).toBe(2);
  });

  it('include the JSON text and its UTF-8 bytes, computed once', () => {
    const value = encodeOnce({ note: 'é ☕ "q"\n\u2028', list: [1, null] });
    const text = jsonText(value);
    expect(text).toBe(JSON.stringify(value));
    expect(jsonText(value)).toBe(text);
    const bytes = jsonBytes(value);
    expect(Buffer.from(bytes).toString('utf8')).toBe(text);
    expect(jsonBytes(value)).toBe(bytes);
  });
});
