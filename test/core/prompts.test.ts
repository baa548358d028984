import { describe, expect, it } from 'vitest';
import { combinePrompts } from '../../src/core/combine.js';
import { silentLogger } from '../../src/core/context.js';
import { definePrompt, livePrompts, staticPrompts } from '../../src/core/prompts.js';
import { isEncoded } from '../../src/jsonrpc/encoded.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };

describe('definePrompt', () => {
  it('builds the listing entry with only the given fields', () => {
    const prompt = definePrompt({
      name: 'greet',
      description: 'Greets.',
      arguments: [{ name: 'who', required: true, complete: ['world'] }, { name: 'tone' }],
      get: ({ who }) => `Hello ${who}`,
    });
    expect(prompt.prompt).toEqual({ name: 'greet', description: 'Greets.', arguments: [{ name: 'who', required: true }, { name: 'tone' }] });
  });

  it('turns a string, a message list or a full result into a result', async () => {
    const text = definePrompt({ name: 'a', get: () => 'hi' });
    expect(await text.get({}, ctx)).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
    const list = definePrompt({ name: 'b', get: () => [{ role: 'assistant', content: { type: 'text', text: 'x' } }] });
    expect(await list.get({}, ctx)).toEqual({ messages: [{ role: 'assistant', content: { type: 'text', text: 'x' } }] });
    const full = definePrompt({ name: 'c', get: () => ({ description: 'd', messages: [] }) });
    expect(await full.get({}, ctx)).toEqual({ description: 'd', messages: [] });
  });

  it('completes from a list, from a function with context, and returns nothing for plain arguments', async () => {
    const prompt = definePrompt({
      name: 'p',
      arguments: [
        { name: 'a', complete: ['one', 'two', 'three'] },
        { name: 'b', complete: (value, context) => [`${context.arguments.a ?? '?'}-${value}`] },
        { name: 'c' },
      ],
      get: () => '',
    });
    expect(await prompt.complete({ name: 'a', value: 't' }, { arguments: {} }, ctx)).toMatchObject({ values: ['two', 'three'] });
    expect(await prompt.complete({ name: 'b', value: 'x' }, { arguments: { a: 'one' } }, ctx)).toEqual({ values: ['one-x'] });
    expect(await prompt.complete({ name: 'c', value: '' }, { arguments: {} }, ctx)).toEqual({ values: [] });
  });

  it("serves a fixed output as one frozen result, leaving the caller's object alone", async () => {
    const mine = { description: 'd', messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'fixed' } }] };
    const prompt = definePrompt({ name: 'f', output: mine });
    const first = await prompt.get({}, ctx);
    expect(first).toEqual(mine);
    expect(await prompt.get({}, ctx)).toBe(first);
    expect(isEncoded(first)).toBe(true);
    expect(Object.isFrozen(first.messages[0]!.content)).toBe(true);
    expect(Object.isFrozen(mine) || Object.isFrozen(mine.messages)).toBe(false);
    // A prompt built per request is not fixed, even when its output never changes.
    const built = definePrompt({ name: 'g', get: () => 'fixed' });
    expect(isEncoded(await built.get({}, ctx))).toBe(false);
    expect(await definePrompt({ name: 'h', output: 'hi' }).get({}, ctx)).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
  });

  it('answers a get that throws, or that returns any thenable, through the promise', async () => {
    const throwing = definePrompt({
      name: 'broken',
      get: () => {
        throw new Error('bad template');
      },
    });
    // A rejection, never a throw: the caller chains on the promise.
    const failed = throwing.get({}, ctx);
    expect(failed).toBeInstanceOf(Promise);
    await expect(failed).rejects.toThrow('bad template');
    // Any object with a `then` method, as `await` takes it (a promise from another realm, a library's own).
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a Promise is what this checks
    const later = { then: (resolve: (value: string) => void) => resolve('made later') };
    const thenable = definePrompt({ name: 'later', get: () => later as unknown as Promise<string> });
    expect(await thenable.get({}, ctx)).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'made later' } }] });
    const failing = definePrompt({ name: 'x', arguments: [{ name: 'a', complete: () => Promise.reject(new Error('no values')) }], output: 'x' });
    await expect(failing.complete({ name: 'a', value: '' }, { arguments: {} }, ctx)).rejects.toThrow('no values');
  });

  it('needs exactly one of get and output', () => {
    expect(() => definePrompt({ name: 'p' } as never)).toThrow(/exactly one of get and output/);
    expect(() => definePrompt({ name: 'p', get: () => '', output: '' } as never)).toThrow(/exactly one of get and output/);
  });

  it('rejects an argument declared twice', () => {
    expect(() => definePrompt({ name: 'p', arguments: [{ name: 'x' }, { name: 'x' }], get: () => '' })).toThrow(/twice/);
  });
});

describe('staticPrompts and livePrompts', () => {
  it('rejects duplicate names', () => {
    const a = definePrompt({ name: 'same', get: () => '' });
    expect(() => staticPrompts([a, a])).toThrow(/Duplicate prompt name "same"/);
  });

  it('replaces the set atomically and tells watchers', async () => {
    const live = livePrompts([definePrompt({ name: 'one', get: () => '1' })]);
    let changes = 0;
    const stop = live.watch(() => changes++);
    live.set([definePrompt({ name: 'two', get: () => '2' })]);
    expect((await live.list()).map((p) => p.name)).toEqual(['two']);
    stop();
    live.set([]);
    expect(changes).toBe(1);
    await expect(async () => live.get('two', {}, ctx)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('combinePrompts', () => {
  it('serves several providers as one and routes by name', async () => {
    const combined = combinePrompts(
      staticPrompts([definePrompt({ name: 'a', get: () => 'from a' })]),
      staticPrompts([definePrompt({ name: 'b', arguments: [{ name: 'x', complete: ['xy'] }], get: () => 'from b' })]),
    );
    expect((await combined.list()).map((p) => p.name)).toEqual(['a', 'b']);
    expect((await combined.get('b', {}, ctx)).messages[0]?.content).toEqual({ type: 'text', text: 'from b' });
    expect(await combined.complete?.('b', { name: 'x', value: 'x' }, { arguments: {} }, ctx)).toMatchObject({ values: ['xy'] });
  });

  it('names both providers when a prompt name is offered twice', async () => {
    const combined = combinePrompts(
      staticPrompts([definePrompt({ name: 'a', get: () => '' })]),
      staticPrompts([definePrompt({ name: 'b', get: () => '' })]),
      staticPrompts([definePrompt({ name: 'a', get: () => '' })]),
    );
    await expect(async () => combined.list()).rejects.toThrow('Duplicate prompt name "a" in providers 1 and 3');
  });

  it('watches only when a part can change', () => {
    expect(combinePrompts(staticPrompts([])).watch).toBeUndefined();
    const live = livePrompts();
    const combined = combinePrompts(staticPrompts([]), live);
    let changes = 0;
    combined.watch?.(() => changes++);
    live.set([]);
    expect(changes).toBe(1);
  });
});
