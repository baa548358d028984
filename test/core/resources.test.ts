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
    // @ts-expect-error: the compiler refuses it too (test/core/resource-template-types.test.ts); plain JavaScript gets the throw.
    expect(() => defineResourceTemplate({ uriTemplate: 'x://{a}', name: 'a', complete: { b: [] }, read: () => '' })).toThrow(/no variable "b"/);
  });
});

describe('staticResources with one array', () => {
  const item = defineResourceTemplate({ uriTemplate: 'x://items/{id}', name: 'item', complete: { id: ['1', '2'] }, read: (_uri, { id }) => `item ${id}` });
  const fixed = defineResource({ uri: 'x://items/fixed', name: 'fixed', read: () => 'fixed wins' });
  const text = defineResource({ uri: 'x://text', name: 'text', read: () => 'hello' });

  it('serves resources and templates mixed in any order, fixed URIs first', async () => {
    const provider = staticResources([item, fixed, text]);
    expect(await provider.list()).toEqual([fixed.resource, text.resource]);
    expect(await provider.templates?.()).toEqual([item.template]);
    expect(await provider.read('x://items/fixed', ctx)).toMatchObject({ contents: [{ text: 'fixed wins' }] });
    expect(await provider.read('x://items/7', ctx)).toMatchObject({ contents: [{ text: 'item 7' }] });
    expect(await provider.complete?.('x://items/{id}', { name: 'id', value: '' }, { arguments: {} }, ctx)).toMatchObject({ values: ['1', '2'] });
  });

  it('serves what the deprecated { resources, templates } form serves', async () => {
    const old = staticResources({ resources: [fixed, text], templates: [item] });
    const one = staticResources([fixed, item, text]);
    expect(await one.list()).toEqual(await old.list());
    expect(await one.templates?.()).toEqual(await old.templates?.());
  });

  it('throws on a duplicate, on an item that is no definition, and on a definition not in an array', () => {
    expect(() => staticResources([text, item, text])).toThrow(/Duplicate resource URI "x:\/\/text"/);
    expect(() => staticResources([item, item])).toThrow(/Duplicate resource template/);
    // What plain JavaScript can pass.
    expect(() => staticResources([text, { uri: 'x://raw', name: 'raw' } as never])).toThrow(
      new TypeError('staticResources() takes defineResource and defineResourceTemplate definitions; item 2 is neither'),
    );
    expect(() => staticResources([null as never])).toThrow(/item 1 is neither/);
    expect(() => staticResources(text as never)).toThrow(new TypeError('staticResources() takes an array: staticResources([definition])'));
  });
});

describe('liveResources', () => {
  it('starts with one array and is replaced with another, mixing both kinds', async () => {
    const live = liveResources([defineResourceTemplate({ uriTemplate: 'x://t/{a}', name: 't', read: (_uri, { a }) => a })]);
    expect(await live.read('x://t/q', ctx)).toMatchObject({ contents: [{ text: 'q' }] });
    let changes = 0;
    live.watch(() => changes++);
    live.set([defineResource({ uri: 'x://a', name: 'a', read: () => 'a' }), defineResourceTemplate({ uriTemplate: 'x://u/{b}', name: 'u', read: () => 'u' })]);
    expect(changes).toBe(1);
    expect((await live.list()).map((r) => r.uri)).toEqual(['x://a']);
    expect((await live.templates?.())?.map((t) => t.uriTemplate)).toEqual(['x://u/{b}']);
    expect(() => live.set([{} as never])).toThrow(/set\(\) takes defineResource and defineResourceTemplate definitions; item 1 is neither/);
    // A refused set leaves the last one served.
    expect((await live.list()).map((r) => r.uri)).toEqual(['x://a']);
  });

  it('still takes the deprecated { resources, templates } form', async () => {
    const live = liveResources({ templates: [defineResourceTemplate({ uriTemplate: 'x://t/{a}', name: 't', read: () => '' })] });
    expect((await live.templates?.())?.map((t) => t.uriTemplate)).toEqual(['x://t/{a}']);
    live.set({ resources: [defineResource({ uri: 'x://b', name: 'b', read: () => '' })] });
    expect((await live.list()).map((r) => r.uri)).toEqual(['x://b']);
  });

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
