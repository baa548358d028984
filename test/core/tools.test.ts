import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../src/core/context.js';
import { isToolArgumentsError, ToolArgumentsError } from '../../src/core/errors.js';
import { combineTools, defineTool, liveTools, staticTools } from '../../src/core/tools.js';
import { ErrorCode, InvalidParamsError, isProtocolError } from '../../src/jsonrpc/errors.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };

describe('defineTool', () => {
  it('checks arguments against a JSON Schema before the tool runs', async () => {
    let runs = 0;
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
    const tool = defineTool({
      name: 'count',
      inputSchema: schema,
      call: ({ n }) => {
        runs++;
        return `n=${n}`;
      },
    });
    expect(await tool.call({ n: 2 }, ctx)).toEqual({ content: [{ type: 'text', text: 'n=2' }] });
    const refused = await tool.call({ n: 0 }, ctx).catch((error: unknown) => error);
    expect(isToolArgumentsError(refused)).toBe(true);
    expect((refused as { issues: string[] }).issues).toEqual(['/n: 0 is less than 1.']);
    await expect(tool.call({}, ctx)).rejects.toThrow(/required property "n"/);
    expect(runs).toBe(1);
    // The schema is listed as given, and not marked by the validator.
    expect(tool.tool.inputSchema).toBe(schema);
    expect(Object.getOwnPropertyNames(schema)).toEqual(['type', 'properties', 'required']);
  });

  it('takes a Standard Schema: listed as JSON Schema, validated and transformed by its library', async () => {
    const tool = defineTool({
      name: 'shout',
      inputSchema: z.object({ text: z.string().transform((s) => s.toUpperCase()) }),
      call: ({ text }) => text,
    });
    expect(tool.tool.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect((await tool.call({ text: 'hi' }, ctx)).content).toEqual([{ type: 'text', text: 'HI' }]);
    await expect(tool.call({ text: 3 }, ctx)).rejects.toThrow(/\/text: /);
  });

  it("checks a call's arguments once, whether prepare ran in an earlier request (a task) or in the call", async () => {
    let checks = 0;
    const counted = z.object({ n: z.number().transform((n) => n * 2) });
    const standard = counted['~standard'];
    const schema = {
      '~standard': {
        ...standard,
        validate: (value: unknown) => {
          checks++;
          return standard.validate(value);
        },
      },
    };
    const tool = defineTool({
      name: 'double',
      task: 'optional',
      inputSchema: schema as unknown as typeof counted,
      prepare: ({ n }) => `prepared ${n}`,
      call: ({ n }, _ctx, prepared) => `${prepared}, ran ${n}`,
    });
    const prepared = await tool.prepare({ n: 2 }, ctx);
    expect(checks).toBe(1);
    // The prepared arguments are the transformed ones, and the call does not check them again.
    expect((await tool.call({ n: 2 }, ctx, prepared)).content).toEqual([{ type: 'text', text: 'prepared 4, ran 4' }]);
    expect(checks).toBe(1);
    expect((await tool.call({ n: 3 }, ctx)).content).toEqual([{ type: 'text', text: 'prepared 6, ran 6' }]);
    expect(checks).toBe(2);
  });

  it('defaults to no arguments, and refuses a schema that is not an object schema', async () => {
    const bare = defineTool({ name: 'bare', call: () => 'ok' });
    expect(bare.tool.inputSchema).toEqual({ type: 'object', additionalProperties: false });
    await expect(bare.call({ x: 1 }, ctx)).rejects.toThrow(/Invalid arguments/);
    expect(() => defineTool({ name: 'a', inputSchema: { type: 'string' }, call: () => '' })).toThrow(/"type": "object"/);
    expect(() => defineTool({ name: 'b', inputSchema: z.string() as never, call: () => '' })).toThrow(/"type": "object"/);
    const opaque = { '~standard': { version: 1 as const, vendor: 'opaque', validate: (value: unknown) => ({ value }) } };
    expect(() => defineTool({ name: 'c', inputSchema: opaque, call: () => '' })).toThrow(/opaque schema of inputSchema gives no JSON Schema/);
  });

  it('answers a throw as a tool error, but a protocol error as itself', async () => {
    const failing = defineTool({
      name: 'f',
      call: () => {
        throw new Error('disk full');
      },
    });
    expect(await failing.call({}, ctx)).toEqual({ content: [{ type: 'text', text: 'disk full' }], isError: true });
    const refusing = defineTool({
      name: 'r',
      call: () => {
        throw new InvalidParamsError('no such account');
      },
    });
    await expect(refusing.call({}, ctx)).rejects.toThrow('no such account');
  });

  it('answers invalid arguments the tool finds itself as those the schema finds', async () => {
    const picky = defineTool({
      name: 'p',
      inputSchema: { type: 'object', properties: { day: { type: 'string' } } },
      call: ({ day }) => {
        if (day === 'someday') throw new ToolArgumentsError('p', ['/day: not a day of the week']);
        return String(day);
      },
    });
    const refused = await picky.call({ day: 'someday' }, ctx).catch((error: unknown) => error);
    expect(isToolArgumentsError(refused)).toBe(true);
    expect((refused as Error).message).toBe('Invalid arguments for tool "p": /day: not a day of the week');
  });

  it('fills content from structured content and holds it to the output schema', async () => {
    const logged: unknown[] = [];
    const logger = { ...silentLogger, error: (message: string, details: unknown) => logged.push(message, details) };
    const outputSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const good = defineTool({ name: 'g', outputSchema, call: () => ({ structuredContent: { ok: true } }) });
    expect(await good.call({}, ctx)).toEqual({ content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } });
    const bad = defineTool({ name: 'b', outputSchema, call: () => ({ structuredContent: { ok: 'yes' } }) as never });
    const error = await bad.call({}, { ...ctx, logger }).catch((e: unknown) => e);
    expect(isProtocolError(error) && error.code).toBe(ErrorCode.InternalError);
    expect(logged[0]).toMatch(/does not match its outputSchema/);
    const none = defineTool({ name: 'n', outputSchema, call: () => 'text only' });
    await expect(none.call({}, { ...ctx, logger })).rejects.toThrow('Tool "n" failed');
    // A failure needs no structured content.
    const failing = defineTool({ name: 'x', outputSchema, call: () => ({ content: [{ type: 'text', text: 'no' }], isError: true }) });
    expect((await failing.call({}, ctx)).isError).toBe(true);
  });
});

describe('tool sets', () => {
  const one = defineTool({ name: 'one', call: () => '1' });
  const two = defineTool({ name: 'two', call: () => '2' });

  it('refuse duplicate names and unknown tools', async () => {
    expect(() => staticTools([one, one])).toThrow('Duplicate tool name "one"');
    await expect(staticTools([one]).call('two', {}, ctx)).rejects.toThrow('Unknown tool: "two"');
    await expect(combineTools(staticTools([one]), staticTools([one])).list()).rejects.toThrow(
      'Duplicate tool name "one" in providers 1 and 2 of combineTools()',
    );
  });

  it('combine providers and follow a live set', async () => {
    const live = liveTools([one]);
    const combined = combineTools(live, staticTools([two]));
    let changes = 0;
    const stop = combined.watch?.(() => changes++);
    expect((await combined.list()).map((t) => t.name)).toEqual(['one', 'two']);
    expect((await combined.call('two', {}, ctx)).content).toEqual([{ type: 'text', text: '2' }]);
    live.set([defineTool({ name: 'three', call: () => '3' })]);
    expect(changes).toBe(1);
    expect((await combined.list()).map((t) => t.name)).toEqual(['three', 'two']);
    stop?.();
    live.set([]);
    expect(changes).toBe(1);
  });
});
