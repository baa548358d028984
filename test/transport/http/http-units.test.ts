/**
 * The Streamable HTTP transport's small parts: metadata header decoding,
 * Accept parsing, the Host and Origin allow-lists, the token check and the
 * SSE writer's framing (the session store's tests are in http/sessions/).
 */
import { describe, expect, it } from 'vitest';
import { readMetadataHeader } from '../../../src/protocol/rev2026-07-28/http.js';
import { metadataUrl } from '../../../src/transport/http/auth/metadata.js';
import { createTokenCheck } from '../../../src/transport/http/auth/static-token.js';
import { createGuards } from '../../../src/transport/http/guards.js';
import { parseAccept } from '../../../src/transport/http/headers.js';
import { createHostCheck, createOriginCheck } from '../../../src/transport/http/origin.js';
import { createSseStream } from '../../../src/transport/http/sse.js';

function header(value: string): ReturnType<typeof readMetadataHeader> {
  return readMetadataHeader(new Headers({ 'Mcp-Name': value }), 'Mcp-Name');
}

describe('readMetadataHeader', () => {
  it('trims whitespace and decodes the Base64 sentinel', () => {
    expect(header('  plain  ')).toEqual({ kind: 'value', value: 'plain' });
    expect(header(`=?base64?${Buffer.from('café ☕').toString('base64')}?=`)).toEqual({ kind: 'value', value: 'café ☕' });
    expect(header('=?base64??=')).toEqual({ kind: 'value', value: '' });
    expect(readMetadataHeader(new Headers(), 'Mcp-Name')).toEqual({ kind: 'absent' });
  });

  it('refuses malformed Base64, bad UTF-8 and broken sentinels', () => {
    expect(header('=?base64?abc?=').kind).toBe('invalid');
    expect(header('=?base64?a*c=?=').kind).toBe('invalid');
    expect(header(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`).kind).toBe('invalid');
  });

  it('reads a value with only one of the two markers as a literal (the sentinel pattern needs both)', () => {
    expect(header('=?base64?YWJj')).toEqual({ kind: 'value', value: '=?base64?YWJj' });
    expect(header('YWJj?=')).toEqual({ kind: 'value', value: 'YWJj?=' });
  });
});

describe('parseAccept', () => {
  it('reads both media types, wildcards and q=0', () => {
    expect(parseAccept('application/json, text/event-stream')).toEqual({ json: true, sse: true });
    expect(parseAccept('text/event-stream')).toEqual({ json: false, sse: true });
    expect(parseAccept('application/json;q=0.5')).toEqual({ json: true, sse: false });
    expect(parseAccept('*/*')).toEqual({ json: true, sse: true });
    expect(parseAccept('text/event-stream;q=0, application/json')).toEqual({ json: true, sse: false });
    expect(parseAccept(null)).toEqual({ json: true, sse: true });
    expect(parseAccept('text/html')).toEqual({ json: false, sse: false });
  });
});

describe('Host and Origin allow-lists', () => {
  it('allows the loopback names by default, with any port', () => {
    const host = createHostCheck(undefined);
    for (const value of ['localhost', 'localhost:3000', '127.0.0.1:1', '[::1]:8080', 'LOCALHOST']) expect(host(value), value).toBe(true);
    for (const value of ['evil.example.com', 'localhost.evil.com', '127.0.0.2', '']) expect(host(value), value).toBe(false);
    const origin = createOriginCheck(undefined);
    for (const value of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]']) expect(origin(value), value).toBe(true);
    for (const value of ['http://evil.example.com', 'null', 'file://', 'chrome-extension://abc', 'ws://localhost']) expect(origin(value), value).toBe(false);
  });

  it('follows explicit lists and the * wildcard', () => {
    const host = createHostCheck(['mcp.example.com', 'other.example.com:8443']);
    expect(host('mcp.example.com:443')).toBe(true);
    expect(host('other.example.com:8443')).toBe(true);
    expect(host('other.example.com:9')).toBe(false);
    expect(createHostCheck(['*'])('anything')).toBe(true);
    const origin = createOriginCheck(['https://app.example.com']);
    expect(origin('https://app.example.com')).toBe(true);
    expect(origin('https://app.example.com:443')).toBe(true);
    expect(origin('http://app.example.com')).toBe(false);
  });

  it('gives the same verdicts through the guards, which remember them, past the number they keep', () => {
    const guards = createGuards({}, 'POST', () => true);
    const values = ['localhost:3000', 'evil.example.com', '127.0.0.1:1', 'localhost.evil.com', ...Array.from({ length: 200 }, (_, i) => `h${i}.example`)];
    const check = createHostCheck(undefined);
    // Twice over, the second time from what is remembered (or, past the cap, checked again).
    for (const value of [...values, ...values, ...values.slice(0, 4)]) expect(guards.hostAllowed(value), value).toBe(check(value));
    const origins = ['http://localhost:5173', 'http://evil.example.com', 'null', 'http://[::1]'];
    const originCheck = createOriginCheck(undefined);
    for (const value of [...origins, ...origins]) expect(guards.originAllowed(value), value).toBe(originCheck(value));
  });
});

describe('bearer token check', () => {
  it('accepts exactly the configured token', () => {
    const valid = createTokenCheck('tok-123');
    expect(valid('Bearer tok-123')).toBe(true);
    expect(valid('bearer tok-123')).toBe(true);
    expect(valid('Bearer tok-1234')).toBe(false);
    expect(valid('Bearer ')).toBe(false);
    expect(valid('tok-123')).toBe(false);
    expect(valid(null)).toBe(false);
    expect(() => createTokenCheck('')).toThrow(TypeError);
  });

  it('places the metadata document under the endpoint path (RFC 9728 §3.1)', () => {
    expect(metadataUrl(new URL('http://127.0.0.1:3000/mcp'))).toBe('http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp');
  });
});

describe('SSE writer', () => {
  it('frames each message as one event and comments as keep-alives', async () => {
    const stream = createSseStream();
    stream.send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: { text: 'a\nb' } });
    stream.close();
    const text = await new Response(stream.body).text();
    expect(text).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"text":"a\\nb"}}\n\n');
    expect(stream.open).toBe(false);
  });

  it('reports a client that cancels, once', async () => {
    let cancelled = 0;
    const stream = createSseStream({ onCancel: () => cancelled++ });
    await stream.body.cancel();
    stream.send({ jsonrpc: '2.0', method: 'x' });
    expect(cancelled).toBe(1);
    expect(stream.open).toBe(false);
  });

  it('gives up on a client that stops reading', () => {
    let cancelled = 0;
    const stream = createSseStream({ onCancel: () => cancelled++ });
    for (let i = 0; i < 1100; i++) stream.send({ jsonrpc: '2.0', method: 'x' });
    expect(stream.open).toBe(false);
    expect(cancelled).toBe(1);
  });
});
