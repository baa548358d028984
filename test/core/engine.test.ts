import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/context.js';
import { createEngine } from '../../src/core/engine.js';
import { OutputLimitError } from '../../src/core/errors.js';
import { definePrompt, livePrompts, staticPrompts } from '../../src/core/prompts.js';
import { defineResource, defineResourceTemplate, liveResources, staticResources } from '../../src/core/resources.js';
import { ErrorCode } from '../../src/jsonrpc/errors.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };
const VALUES = Array.from({ length: 250 }, (_, i) => `v${i}`);

describe('createEngine', () => {
  it('derives features from what is registered', () => {
    expect(createEngine({}).features).toEqual({ completions: false });
    expect(createEngine({ prompts: staticPrompts([]) }).features).toEqual({ completions: true, prompts: { listChanged: false } });
    expect(createEngine({ prompts: livePrompts(), resources: liveResources() }).features).toEqual({
      completions: true,
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it('treats a provider that is not registered as an empty one (the revisions answer -32601 before it is asked)', async () => {
    const engine = createEngine({});
    expect((await engine.listPrompts(undefined)).items).toEqual([]);
    expect((await engine.listTools(undefined)).items).toEqual([]);
    expect((await engine.listResources(undefined)).items).toEqual([]);
    expect((await engine.listSkills(undefined)).items).toEqual([]);
    await expect(engine.readResource('x://y', ctx)).rejects.toMatchObject({ name: 'ResourceNotFoundError', uri: 'x://y' });
    await expect(engine.getPrompt('x', {}, ctx)).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'Unknown prompt: "x"' });
    await expect(engine.callTool('x', {}, ctx)).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'Unknown tool: "x"' });
    await expect(engine.getSkill('skill://x')).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(engine.readDirectory('skill://x/', undefined)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(engine.complete({ type: 'prompt', name: 'x' }, { name: 'a', value: '' }, { arguments: {} }, ctx)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it('validates the prompt and its required arguments before the provider runs', async () => {
    let calls = 0;
    const engine = createEngine({
      prompts: staticPrompts([
        definePrompt({
          name: 'p',
          arguments: [{ name: 'needed', required: true }],
          get: () => {
            calls++;
            return 'ok';
          },
        }),
      ]),
    });
    await expect(engine.getPrompt('q', {}, ctx)).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'Unknown prompt: "q"' });
    await expect(engine.getPrompt('p', {}, ctx)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Missing required argument "needed" for prompt "p"',
    });
    expect(calls).toBe(0);
    await engine.getPrompt('p', { needed: 'x' }, ctx);
    expect(calls).toBe(1);
  });

  it('answers -32602 for a required argument whose value is empty, as for a missing one', async () => {
    let calls = 0;
    const engine = createEngine({
      prompts: staticPrompts([
        definePrompt({
          name: 'p',
          arguments: [{ name: 'needed', required: true }, { name: 'optional' }],
          get: () => {
            calls++;
            return 'ok';
          },
        }),
      ]),
    });
    await expect(engine.getPrompt('p', { needed: '' }, ctx)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Missing required argument "needed" for prompt "p"',
      data: { name: 'p', argument: 'needed' },
    });
    expect(calls).toBe(0);
    // An optional argument may be empty; whitespace is a value.
    await engine.getPrompt('p', { needed: ' ', optional: '' }, ctx);
    expect(calls).toBe(1);
  });

  it('keeps the first 100 completion values, with hasMore and the full total', async () => {
    const engine = createEngine({
      prompts: staticPrompts([definePrompt({ name: 'p', arguments: [{ name: 'a', complete: () => VALUES }], get: () => '' })]),
    });
    const result = await engine.complete({ type: 'prompt', name: 'p' }, { name: 'a', value: '' }, { arguments: {} }, ctx);
    expect(result.values).toEqual(VALUES.slice(0, 100));
    expect(result).toMatchObject({ total: 250, hasMore: true });
  });

  it('keeps a provider total when it cuts the list', async () => {
    const engine = createEngine({
      prompts: staticPrompts([definePrompt({ name: 'p', arguments: [{ name: 'a', complete: () => ({ values: VALUES, total: 9000 }) }], get: () => '' })]),
    });
    const result = await engine.complete({ type: 'prompt', name: 'p' }, { name: 'a', value: '' }, { arguments: {} }, ctx);
    expect(result).toMatchObject({ total: 9000, hasMore: true });
    expect(result.values).toHaveLength(100);
  });

  it('rejects completion of an argument the prompt does not have, or an unknown template', async () => {
    const engine = createEngine({
      prompts: staticPrompts([definePrompt({ name: 'p', arguments: [{ name: 'a' }], get: () => '' })]),
      resources: staticResources({ templates: [defineResourceTemplate({ uriTemplate: 'x://{id}', name: 'x', read: () => '' })] }),
    });
    await expect(engine.complete({ type: 'prompt', name: 'p' }, { name: 'b', value: '' }, { arguments: {} }, ctx)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(engine.complete({ type: 'resource', uri: 'y://{id}' }, { name: 'id', value: '' }, { arguments: {} }, ctx)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(await engine.complete({ type: 'resource', uri: 'x://{id}' }, { name: 'id', value: '' }, { arguments: {} }, ctx)).toEqual({ values: [] });
  });

  it('asks an explicit completion provider first and falls back when it has no answer', async () => {
    const engine = createEngine({
      prompts: staticPrompts([definePrompt({ name: 'p', arguments: [{ name: 'a', complete: ['own'] }, { name: 'b' }], get: () => '' })]),
      completions: { complete: (_ref, argument) => (argument.name === 'b' ? { values: ['from provider'] } : undefined) },
    });
    const none = { arguments: {} };
    expect((await engine.complete({ type: 'prompt', name: 'p' }, { name: 'b', value: '' }, none, ctx)).values).toEqual(['from provider']);
    expect((await engine.complete({ type: 'prompt', name: 'p' }, { name: 'a', value: '' }, none, ctx)).values).toEqual(['own']);
  });

  it('rebuilds the catalogue only after a change, and reports the change', async () => {
    let lists = 0;
    const live = livePrompts([definePrompt({ name: 'a', get: () => '' })]);
    const counted = { ...live, list: () => (lists++, live.list()) };
    const engine = createEngine({ prompts: counted });
    const events: string[] = [];
    engine.watch((e) => events.push(e.type));
    await engine.listPrompts(undefined);
    await engine.listPrompts(undefined);
    await engine.getPrompt('a', {}, ctx);
    expect(lists).toBe(1);
    live.set([definePrompt({ name: 'b', get: () => '' })]);
    expect(events).toEqual(['promptsListChanged']);
    expect((await engine.listPrompts(undefined)).items.map((p) => p.name)).toEqual(['b']);
    expect(lists).toBe(2);
    engine.close();
    live.set([]);
    expect(events).toHaveLength(1);
  });

  it('refuses a prompt larger than maxPromptBytes with a generic -32603', async () => {
    const engine = createEngine({
      maxPromptBytes: 10,
      prompts: staticPrompts([definePrompt({ name: 'small', get: () => 'ten bytes!' }), definePrompt({ name: 'big', get: () => 'é'.repeat(6) })]),
    });
    expect((await engine.getPrompt('small', {}, ctx)).messages).toHaveLength(1);
    await expect(engine.getPrompt('big', {}, ctx)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'The prompt is larger than this server allows',
    });
  });

  it('answers a provider that stopped at an output cap (OutputLimitError) like a result over it: -32603, reason logged', async () => {
    const warnings: string[] = [];
    const engine = createEngine({
      logger: { ...silentLogger, warn: (message: string) => void warnings.push(message) },
      maxPromptBytes: 10,
      maxResourceBytes: 10,
      prompts: { list: () => [{ name: 'p' }], get: () => Promise.reject(new OutputLimitError('it passed 10 characters')) },
      resources: { list: () => [], read: () => Promise.reject(new OutputLimitError('the file has more than 10 bytes')) },
    });
    await expect(engine.getPrompt('p', {}, ctx)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'The prompt is larger than this server allows',
    });
    await expect(engine.readResource('x://y', ctx)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'The resource is larger than this server serves',
    });
    expect(warnings).toEqual(['Prompt "p": it passed 10 characters', 'Resource x://y: the file has more than 10 bytes']);
    expect(engine.limits).toEqual({ maxPromptBytes: 10, maxResourceBytes: 10 });
  });

  it('refuses a resource read larger than maxResourceBytes (text as UTF-8, blobs decoded) with a generic -32603', async () => {
    const engine = createEngine({
      maxResourceBytes: 12,
      resources: staticResources({
        resources: [
          defineResource({ uri: 'x://text', name: 'text', read: () => 'é'.repeat(6) }),
          defineResource({ uri: 'x://over', name: 'over', read: () => 'é'.repeat(7) }),
          defineResource({ uri: 'x://blob', name: 'blob', read: () => new Uint8Array(12) }),
          defineResource({ uri: 'x://big-blob', name: 'big-blob', read: () => new Uint8Array(13) }),
        ],
      }),
    });
    expect((await engine.readResource('x://text', ctx)).contents).toHaveLength(1);
    expect((await engine.readResource('x://blob', ctx)).contents).toHaveLength(1);
    for (const uri of ['x://over', 'x://big-blob']) {
      await expect(engine.readResource(uri, ctx)).rejects.toMatchObject({
        code: ErrorCode.InternalError,
        message: 'The resource is larger than this server serves',
      });
    }
  });

  it('does not keep a failed catalogue build', async () => {
    let fail = true;
    const engine = createEngine({
      prompts: {
        list: () => {
          if (fail) throw new Error('boom');
          return [{ name: 'ok' }];
        },
        get: () => ({ messages: [] }),
      },
    });
    await expect(engine.listPrompts(undefined)).rejects.toThrow('boom');
    fail = false;
    expect((await engine.listPrompts(undefined)).items).toEqual([{ name: 'ok' }]);
  });
});
