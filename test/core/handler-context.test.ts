/**
 * The context handlers get: every member there (types and values), for a
 * server's context and one made by hand; `requestContext` outside a server;
 * and `ctx.input` typed from a Standard Schema (the type assertions are
 * checked by `npm run check`, which type-checks the tests).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { formSchemaOf } from '../../src/core/elicitation.js';
import {
  type Can,
  createServer,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type HandlerContext,
  type InputResponse,
  isInputUnavailableError,
  type LogLevel,
  requestContext,
  silentLogger,
} from '../../src/index.js';

const confirmSchema = z.object({ confirm: z.boolean(), copies: z.number().int() });
const confirmRequest = { method: 'elicitation/create' as const, params: { message: 'Sure?', requestedSchema: confirmSchema } };

describe('HandlerContext types', () => {
  it('gives definePrompt, defineTool and the resource definitions every member, none optional', () => {
    definePrompt({
      name: 'p',
      get: (_args, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
        return '';
      },
    });
    defineTool({
      name: 't',
      prepare: (_args, ctx) => expectTypeOf(ctx).toEqualTypeOf<HandlerContext>(),
      call: (_args, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
        return '';
      },
    });
    defineResource({ uri: 'a://b', name: 'b', read: (ctx) => (expectTypeOf(ctx).toEqualTypeOf<HandlerContext>(), '') });
    defineResourceTemplate({ uriTemplate: 'a://{x}', name: 'x', read: (_uri, _vars, ctx) => (expectTypeOf(ctx).toEqualTypeOf<HandlerContext>(), '') });

    expectTypeOf<HandlerContext['log']>().toEqualTypeOf<(level: LogLevel, data: unknown, logger?: string) => void>();
    expectTypeOf<HandlerContext['progress']>().toEqualTypeOf<(progress: number, total?: number, message?: string) => void>();
    expectTypeOf<HandlerContext['client']>().toEqualTypeOf<{ readonly capabilities: Readonly<Record<string, unknown>> }>();
    expectTypeOf<HandlerContext['can']>().toEqualTypeOf<Can>();
    expectTypeOf<Can['progress']>().toEqualTypeOf<boolean>();
    expectTypeOf<Can['log']>().parameter(0).toEqualTypeOf<LogLevel>();
    expectTypeOf<Can['input']>().parameter(0).toEqualTypeOf<'elicitation/create' | 'sampling/createMessage' | 'roots/list'>();
    // Optional members would include undefined.
    expectTypeOf<HandlerContext['input']>().not.toEqualTypeOf<undefined>();
    expectTypeOf<undefined>().not.toExtend<HandlerContext['log']>();
    expectTypeOf<undefined>().not.toExtend<HandlerContext['input']>();
  });

  it("types an elicitation's answer from its Standard Schema, and the JSON Schema one as before", async () => {
    type Answer = InputResponse<typeof confirmRequest>;
    expectTypeOf<Answer>().toEqualTypeOf<
      { action: 'accept'; content: { confirm: boolean; copies: number } } | { action: 'decline' | 'cancel'; content?: undefined }
    >();
    const ctx = requestContext({ input: (async () => ({ action: 'accept', content: { confirm: true, copies: 2 } })) as never });
    const answer = await ctx.input('confirm', confirmRequest);
    if (answer.action === 'accept') {
      expectTypeOf(answer.content.confirm).toEqualTypeOf<boolean>();
      expectTypeOf(answer.content.copies).toEqualTypeOf<number>();
      // @ts-expect-error a field the schema does not have
      expect(answer.content.confrim).toBeUndefined();
    } else {
      expectTypeOf(answer.content).toEqualTypeOf<undefined>();
    }
    const plain = { method: 'elicitation/create' as const, params: { message: 'x', requestedSchema: { type: 'object', properties: {} } } };
    expectTypeOf<InputResponse<typeof plain>['content']>().toEqualTypeOf<Record<string, string | number | boolean | string[]> | undefined>();
  });
});

describe('requestContext and contexts made by hand', () => {
  it('fills every member with what does nothing, and says nothing can reach a client', async () => {
    const ctx = requestContext();
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.logger).toBe(silentLogger);
    expect(ctx.client.capabilities).toEqual({});
    expect([ctx.can.progress, ctx.can.log('emergency'), ctx.can.input('elicitation/create')]).toEqual([false, false, false]);
    expect(ctx.log('error', 'x')).toBeUndefined();
    expect(ctx.progress(1)).toBeUndefined();
    const refused = await ctx.input('q', { method: 'roots/list' }).catch((error: unknown) => error);
    expect(isInputUnavailableError(refused)).toBe(true);
  });

  it('keeps the members given', () => {
    const logged: unknown[] = [];
    const ctx = requestContext({ log: (_level, data) => logged.push(data), client: { capabilities: { roots: {} } } });
    ctx.log('info', 'kept');
    expect(logged).toEqual(['kept']);
    expect(ctx.client.capabilities).toEqual({ roots: {} });
  });

  it('gives a handler called with a { signal, logger } context the full context, and the same object when it is full', async () => {
    const seen: HandlerContext[] = [];
    const tool = defineTool({ name: 't', call: (_args, ctx) => (seen.push(ctx), 'ok') });
    const bare = { signal: new AbortController().signal, logger: silentLogger };
    await tool.call({}, bare);
    const filled = seen[0] as HandlerContext;
    expect(filled).not.toBe(bare);
    expect(typeof filled.log).toBe('function');
    expect(filled.can.progress).toBe(false);
    expect(filled.signal).toBe(bare.signal);

    const full = requestContext();
    await tool.call({}, full);
    expect(seen[1]).toBe(full);
  });

  it("keeps a hand-made context's accessors live in the filled copy", async () => {
    const controller = new AbortController();
    const seen: HandlerContext[] = [];
    const prompt = definePrompt({ name: 'p', get: (_args, ctx) => (seen.push(ctx), '') });
    const ctx = {
      signal: controller.signal,
      logger: silentLogger,
      get cancelled() {
        return controller.signal.aborted;
      },
    };
    await prompt.get({}, ctx);
    controller.abort();
    expect(seen[0]?.cancelled).toBe(true);
  });
});

describe("an elicitation's Standard Schema as a client receives it", () => {
  it('is a flat object of primitive fields with only the members the spec lists', () => {
    const schema = z.object({ mail: z.email(), id: z.uuid(), tags: z.array(z.enum(['a', 'b'])), n: z.number().optional() });
    expect(formSchemaOf(schema, 'k')).toEqual({
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email' },
        id: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        n: { type: 'number' },
      },
      required: ['mail', 'id', 'tags'],
    });
  });

  it.each([
    ['a nested object', z.object({ a: z.object({ b: z.string() }) }), 'field "a" is not a string'],
    ['a nullable field', z.object({ a: z.string().nullable() }), 'field "a" is not a string'],
    ['a list of free strings', z.object({ a: z.array(z.string()) }), 'field "a" is an array whose items'],
    ['a schema that is no object', z.string(), 'must be an object schema'],
  ])('throws a TypeError for %s', (_what, schema, message) => {
    expect(() => formSchemaOf(schema, 'k')).toThrow(TypeError);
    expect(() => formSchemaOf(schema, 'k')).toThrow(message);
  });
});

describe('createServer logging', () => {
  it('is on without the option, and off with logging: false', () => {
    expect(createServer({ name: 's', version: '1' }).engine.features.logging).toBe(true);
    expect(createServer({ name: 's', version: '1', logging: false }).engine.features.logging).toBeFalsy();
  });
});
