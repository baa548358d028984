import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/context.js';
import { isResourceNotFoundError } from '../../src/core/errors.js';
import { defineResource, defineResourceTemplate, liveResources, staticResources, toBase64 } from '../../src/core/resources.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };

describe('staticResources', () => {
  const provider = staticResources({
    resources: [
      defineResource({ uri: 'x://text', name: 'text', mimeType: 'text/plain', read: () => 'hello' }),
      defineResource({ uri: 'x://bytes', name: 'bytes', mimeType: 'application/octet-stream', read: () => new Uint8Array([0, 255, 10]) }),
      defineResource({ uri: 'x://items/fixed', name: 'fixed', read: () => ({ uri: 'x://items/fixed', text: 'fixed wins' }) }),
    ],
    templates: [
      defineResourceTemplate({
        uriTemplate: 'x://items/{id}',
        name: 'item',
        mimeType: 'application/json',
        complete: { id: ['1', '2'] },
        read: (_uri, { id }) => JSON.stringify({ id }),
      }),
    ],
  });

  it('reads text and base64-encodes bytes', async () => {
    expect(await provider.read('x://text', ctx)).toEqual({ contents: [{ uri: 'x://text', mimeType: 'text/plain', text: 'hello' }] });
    expect(await provider.read('x://bytes', ctx)).toEqual({
      contents: [{ uri: 'x://bytes', mimeType: 'application/octet-stream', blob: 'AP8K' }],
    });
  });

  it('matches fixed URIs before templates, then templates', async () => {
    expect((await provider.read('x://items/fixed', ctx)).contents[0]).toMatchObject({ text: 'fixed wins' });
    expect(await provider.read('x://items/7', ctx)).toEqual({ contents: [{ uri: 'x://items/7', mimeType: 'application/json', text: '{"id":"7"}' }] });
  });

  it('throws ResourceNotFoundError for anything else', async () => {
    const error = await Promise.resolve(provider.read('x://nothing', ctx)).catch((e: unknown) => e);
    expect(isResourceNotFoundError(error)).toBe(true);
    expect(error).toMatchObject({ uri: 'x://nothing' });
  });

  it('completes template variables and rejects unknown ones', async () => {
    expect(await provider.complete?.('x://items/{id}', { name: 'id', value: '' }, { arguments: {} }, ctx)).toMatchObject({ values: ['1', '2'] });
    await expect(async () => provider.complete?.('x://items/{id}', { name: 'nope', value: '' }, { arguments: {} }, ctx)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('rejects duplicate URIs and completion sources for variables a template lacks', () => {
    const r = defineResource({ uri: 'x://a', name: 'a', read: () => '' });
    expect(() => staticResources({ resources: [r, r] })).toThrow(/Duplicate resource URI/);
    expect(() => defineResourceTemplate({ uriTemplate: 'x://{a}', name: 'a', complete: { b: [] }, read: () => '' })).toThrow(/no variable "b"/);
  });
});

describe('liveResources', () => {
  it('reports list changes and updates', () => {
    const live = liveResources();
    const events: unknown[] = [];
    live.watch((e) => events.push(e));
    live.set({ resources: [defineResource({ uri: 'x://a', name: 'a', read: () => '' })] });
    live.updated('x://a');
    expect(events).toEqual([{ type: 'listChanged' }, { type: 'updated', uri: 'x://a' }]);
  });
});

describe('toBase64', () => {
  it('matches node:buffer for large and binary input', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('matches node:buffer for every length modulo 3, views into larger buffers included', () => {
    const backing = Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) % 256);
    for (let start = 0; start < 3; start++) {
      for (let length = 0; length <= 12; length++) {
        const view = backing.subarray(start, start + length);
        expect(toBase64(view)).toBe(Buffer.from(view).toString('base64'));
      }
    }
  });
});
