/**
 * The natural try/catch around `ctx.input` asks the user on every revision
 * (issue: "ctx.input on 2026-07-28 is a trap"). On 2025 sessions the wait is
 * a real request to the client, so the catch never runs unless the client
 * fails to answer. On 2026-07-28 `ctx.input` throws an InputPendingError to
 * end the round; a handler that swallows it still ends the round with an
 * InputRequiredResult (its result was made without the answer), and the
 * retry with the answer runs it again, now finding it.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, isInputPendingError, staticTools } from '../../src/index.js';
import type { Connection } from '../../src/server/index.js';
import { modernMeta } from '../_wire.js';

type Message = Record<string, any>;

const ASK = {
  method: 'elicitation/create' as const,
  params: { mode: 'form' as const, message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
};

/** A tool written the natural way: a failed question falls back to a default. */
function connect(sent: Message[], caught: unknown[]): Connection {
  const server = createServer({
    name: 't',
    version: '1',
    tools: staticTools([
      defineTool({
        name: 'greet',
        call: async (_args, ctx) => {
          try {
            const answer = await ctx.input?.('name', ASK);
            return `Hello, ${answer?.content?.name ?? 'stranger'}.`;
          } catch (error) {
            caught.push(error);
            return 'Hello, stranger.';
          }
        },
      }),
    ]),
  });
  return server.connect({ send: (message) => void sent.push(message as Message), carriesRequests: true });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out');
}

describe('try { await ctx.input(…) } catch { … } asks the user', () => {
  it.each(['2025-06-18', '2025-11-25'])('on %s: the question goes out on the session, and the answer comes back to the handler', async (version) => {
    const sent: Message[] = [];
    const caught: unknown[] = [];
    const connection = connect(sent, caught);
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } },
    });
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const answered = connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet' } });
    const question = await until(() => sent.find((m) => m.method === 'elicitation/create'));
    await connection.receive({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Ada' } } });
    expect(((await answered) as Message).result.content).toEqual([{ type: 'text', text: 'Hello, Ada.' }]);
    expect(caught).toEqual([]);
  });

  it('on 2026-07-28: the swallowed wait still ends the round with the question, and the retry gets the answer', async () => {
    const caught: unknown[] = [];
    const connection = connect([], caught);
    const meta = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const first = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', _meta: meta } })) as Message;
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { name: ASK } });
    expect(typeof first.result.requestState).toBe('string');
    // The handler did catch it: what it made of the wait is not sent.
    expect(caught).toHaveLength(1);
    expect(isInputPendingError(caught[0])).toBe(true);

    const retry = (await connection.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'greet', _meta: meta, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.result.requestState },
    })) as Message;
    expect(retry.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada.' }] });
    expect(caught).toHaveLength(1);
  });

  it('on 2026-07-28: a client that cannot answer gets the handler’s own fallback, not a question', async () => {
    const caught: unknown[] = [];
    const connection = connect([], caught);
    const answer = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', _meta: modernMeta() } })) as Message;
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, stranger.' }] });
    expect(caught).toHaveLength(1);
    expect(isInputPendingError(caught[0])).toBe(false);
  });
});
