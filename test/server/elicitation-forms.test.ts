/**
 * An elicitation form as each 2025 revision can carry it
 * (src/protocol/rev2025-06-18/elicitation.ts): 2025-11-25 gets the form as
 * the handler wrote it (titled single-selects, multi-selects, defaults);
 * 2025-06-18, whose schema has neither, gets titled single-selects as `enum`
 * with `enumNames`, no `default` but on a boolean, and a multi-select is
 * refused to the handler (InputUnavailableError) instead of sent. Every
 * question that goes out is checked against its revision's official schema.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, isInputUnavailableError, staticTools } from '../../src/index.js';
import type { Connection } from '../../src/server/index.js';
import { type RevisionName, schemaErrors } from '../_schema.js';

type Message = Record<string, any>;

const SINGLE = {
  type: 'object',
  properties: {
    colour: {
      type: 'string',
      title: 'Colour',
      oneOf: [
        { const: 'red', title: 'Red' },
        { const: 'green', title: 'Green' },
      ],
      default: 'red',
    },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
    note: { type: 'string', description: 'Anything else', maxLength: 200, default: 'none' },
    count: { type: 'integer', minimum: 1, default: 2 },
    urgent: { type: 'boolean', default: false },
  },
  required: ['colour'],
};
const MULTI = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } } };

function connect(sent: Message[], caught: unknown[]): Connection {
  const asking = (name: string, requestedSchema: Record<string, unknown>) =>
    defineTool({
      name,
      call: async (_args, ctx) => {
        try {
          const answer = await ctx.input('form', { method: 'elicitation/create', params: { message: 'Choose', requestedSchema } });
          return JSON.stringify(answer.content ?? null);
        } catch (error) {
          caught.push(error);
          return 'fallback';
        }
      },
    });
  const server = createServer({ name: 't', version: '1', tools: staticTools([asking('single', SINGLE), asking('multi', MULTI)]) });
  return server.connect({ send: (message) => void sent.push(message as Message), carriesRequests: true });
}

async function session(version: RevisionName, sent: Message[], caught: unknown[]): Promise<Connection> {
  const connection = connect(sent, caught);
  const params = { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } };
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params });
  await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return connection;
}

async function question(sent: Message[]): Promise<Message> {
  for (let i = 0; i < 200; i++) {
    const found = sent.find((m) => m.method === 'elicitation/create');
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no question was sent');
}

describe('elicitation forms per revision', { tags: ['schema'] }, () => {
  it('on 2025-06-18: titled choices as enum and enumNames, defaults only on booleans, valid by its schema', async () => {
    const sent: Message[] = [];
    const connection = await session('2025-06-18', sent, []);
    const answered = connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'single' } });
    const asked = await question(sent);
    expect(schemaErrors('2025-06-18', 'ElicitRequest', asked)).toEqual([]);
    const { properties } = asked.params.requestedSchema;
    expect(properties.colour).toEqual({ type: 'string', title: 'Colour', enum: ['red', 'green'], enumNames: ['Red', 'Green'] });
    expect(properties.size).toEqual(SINGLE.properties.size);
    expect(properties.note).toEqual({ type: 'string', description: 'Anything else', maxLength: 200 });
    expect(properties.count).toEqual({ type: 'integer', minimum: 1 });
    expect(properties.urgent).toEqual({ type: 'boolean', default: false });
    expect(asked.params.requestedSchema.required).toEqual(['colour']);
    await connection.receive({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { colour: 'green' } } });
    expect(((await answered) as Message).result.content).toEqual([{ type: 'text', text: '{"colour":"green"}' }]);
  });

  it('on 2025-11-25: the form as written, valid by its schema', async () => {
    const sent: Message[] = [];
    const connection = await session('2025-11-25', sent, []);
    void connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'single' } });
    const asked = await question(sent);
    expect(schemaErrors('2025-11-25', 'ElicitRequest', asked)).toEqual([]);
    expect(asked.params.requestedSchema).toEqual(SINGLE);
    void connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'multi' } });
    for (let i = 0; i < 200 && sent.filter((m) => m.method === 'elicitation/create').length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    const multi = sent.filter((m) => m.method === 'elicitation/create')[1];
    expect(schemaErrors('2025-11-25', 'ElicitRequest', multi)).toEqual([]);
  });

  it('on 2025-06-18: a multi-select is refused to the handler, and nothing is sent', async () => {
    const sent: Message[] = [];
    const caught: unknown[] = [];
    const connection = await session('2025-06-18', sent, caught);
    const answer = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'multi' } })) as Message;
    expect(answer.result.content).toEqual([{ type: 'text', text: 'fallback' }]);
    expect(caught).toHaveLength(1);
    expect(isInputUnavailableError(caught[0])).toBe(true);
    expect(String((caught[0] as Error).message)).toContain('"tags"');
    expect(sent.filter((m) => m.method === 'elicitation/create')).toEqual([]);
    // The form the revision cannot carry would fail its schema: the refusal is not over-cautious.
    const raw = { jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: { message: 'Choose', requestedSchema: MULTI } };
    expect(schemaErrors('2025-06-18', 'ElicitRequest', raw)).not.toEqual([]);
  });
});
