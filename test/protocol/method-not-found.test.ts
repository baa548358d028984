/**
 * The registries, not the engine, decide -32601: a method whose feature the
 * server lacks (core/engine.ts `Features`) is answered "Method not found"
 * after its params are read and before the engine is asked anything.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/core/engine.js';
import { definePrompt, staticPrompts } from '../../src/core/prompts.js';
import { ErrorCode } from '../../src/jsonrpc/errors.js';
import type { MethodContext } from '../../src/protocol/index.js';
import { negotiateLegacy } from '../../src/protocol/revisions.js';

/** Valid params for each method that needs a feature. */
const PARAMS: Record<string, Record<string, unknown>> = {
  'prompts/list': {},
  'prompts/get': { name: 'p' },
  'tools/list': {},
  'tools/call': { name: 't' },
  'completion/complete': { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } },
  'resources/list': {},
  'resources/templates/list': {},
  'resources/read': { uri: 'x://y' },
  'resources/subscribe': { uri: 'x://y' },
  'resources/unsubscribe': { uri: 'x://y' },
  'logging/setLevel': { level: 'info' },
  'skills/list': {},
  'skills/get': { uri: 'skill://x' },
  'resources/directory/read': { uri: 'skill://x/' },
};

/** An engine with no providers that records every operation asked of it. */
function watchedEngine(): { engine: Engine; asked: string[] } {
  const asked: string[] = [];
  const real = createEngine({});
  const engine = new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        asked.push(String(key));
        return value(...args);
      };
    },
  });
  return { engine, asked };
}

describe('-32601 from the registries', () => {
  for (const version of ['2025-06-18', '2025-11-25']) {
    it(`answers every method whose feature is absent without asking the engine (${version})`, async () => {
      const revision = negotiateLegacy(version);
      expect(revision.version).toBe(version);
      for (const [method, params] of Object.entries(PARAMS)) {
        const { engine, asked } = watchedEngine();
        const handler = revision.methods.get(method);
        expect(handler, method).toBeDefined();
        const ctx = { engine, principal: undefined } as unknown as MethodContext;
        await expect(handler?.(params, ctx), method).rejects.toMatchObject({
          code: ErrorCode.MethodNotFound,
          message: `Method not found: ${method}`,
          data: { method },
        });
        expect(asked, method).toEqual([]);
      }
    });
  }

  it('reads the params first: bad params of an absent feature stay -32602, as before', async () => {
    const handler = negotiateLegacy('2025-06-18').methods.get('prompts/get');
    const ctx = { engine: createEngine({}), principal: undefined } as unknown as MethodContext;
    await expect(handler?.({}, ctx)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('serves the method once the feature is there', async () => {
    const engine = createEngine({ prompts: staticPrompts([definePrompt({ name: 'p', get: () => 'hi' })]) });
    const handler = negotiateLegacy('2025-06-18').methods.get('prompts/list');
    const ctx = { engine, principal: undefined } as unknown as MethodContext;
    expect(await handler?.({}, ctx)).toMatchObject({ prompts: [{ name: 'p' }] });
  });
});
