/**
 * List results are built and serialized once per catalogue version and
 * shared between requests: the same catalogue gives byte-identical text,
 * a replaced catalogue is served at once (nothing stale), and a cursor minted
 * before a reload still pages the catalogue it came from.
 */
import { describe, expect, it } from 'vitest';
import { REMEMBERED_VALUE_LENGTH } from '../../src/core/completers.js';
import { createServer, definePrompt, livePrompts, staticPrompts } from '../../src/index.js';
import { type JsonRpcResponse, serializeMessage } from '../../src/jsonrpc/messages.js';
import type { Connection } from '../../src/server/index.js';
import { modernMeta } from '../_wire.js';

type Message = Record<string, any>;

const META = modernMeta();

function prompts(names: string[]) {
  return names.map((name) => definePrompt({ name, description: `${name}.`, get: () => name }));
}

type Era = '2025-06-18' | '2025-11-25' | '2026-07-28';
const ERAS: Era[] = ['2025-06-18', '2025-11-25', '2026-07-28'];

async function open(server: ReturnType<typeof createServer>, era: Era): Promise<Connection> {
  const connection = server.connect({ send() {} });
  if (era !== '2026-07-28') {
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return connection;
}

async function list(connection: Connection, era: Era, id: number, cursor?: string): Promise<{ response: JsonRpcResponse; text: string }> {
  const params: Message = cursor === undefined ? {} : { cursor };
  if (era === '2026-07-28') params._meta = META;
  const response = (await connection.receive({ jsonrpc: '2.0', id, method: 'prompts/list', params })) as JsonRpcResponse;
  const text = serializeMessage(response);
  expect(text).toBe(JSON.stringify(response));
  return { response, text };
}

function names(text: string): string[] {
  return (JSON.parse(text).result.prompts as Message[]).map((p) => p.name as string);
}

describe.each(ERAS)('prompts/list under %s', (era) => {
  it('serves the same catalogue as the identical text and result, and a replaced one afresh', async () => {
    const live = livePrompts(prompts(['a', 'b', 'c']));
    const server = createServer({ name: 't', version: '1', prompts: live });
    const connection = await open(server, era);

    const first = await list(connection, era, 1);
    const second = await list(connection, era, 1);
    expect(second.text).toBe(first.text);
    expect('result' in second.response && second.response.result).toBe('result' in first.response && first.response.result);
    expect(names(first.text)).toEqual(['a', 'b', 'c']);
    // Shared results cannot be changed by a consumer.
    expect(Object.isFrozen('result' in first.response && first.response.result)).toBe(true);

    // Another id: the same result text inside a different envelope.
    const other = await list(connection, era, 2);
    expect(other.text).toBe(first.text.replace('"id":1,', '"id":2,'));

    live.set(prompts(['x', 'y']));
    const after = await list(connection, era, 1);
    expect(names(after.text)).toEqual(['x', 'y']);
    expect(after.text).not.toBe(first.text);
    if (era === '2026-07-28') {
      const result = JSON.parse(after.text).result;
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 10_000, cacheScope: 'public' });
      expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 't', version: '1' });
    }
    // And it stays served from its own cache.
    expect((await list(connection, era, 1)).text).toBe(after.text);
    connection.close('disconnect');
    server.close();
  });

  it('keeps cursors on the catalogue they were minted for across a reload', async () => {
    const live = livePrompts(prompts(['a', 'b', 'c', 'd', 'e']));
    const server = createServer({ name: 't', version: '1', prompts: live, pageSize: 2 });
    const connection = await open(server, era);

    const page1 = await list(connection, era, 1);
    const cursor = JSON.parse(page1.text).result.nextCursor as string;
    const page2 = await list(connection, era, 1, cursor);
    expect(names(page2.text)).toEqual(['c', 'd']);

    live.set(prompts(['0', '1', '2', '3', '4', '5']));
    // The old cursor still serves the old catalogue's page, the same text as before.
    expect((await list(connection, era, 1, cursor)).text).toBe(page2.text);
    // A fresh listing is the new catalogue, with cursors of its own.
    const fresh = await list(connection, era, 1);
    expect(names(fresh.text)).toEqual(['0', '1']);
    const freshCursor = JSON.parse(fresh.text).result.nextCursor as string;
    expect(freshCursor).not.toBe(cursor);
    expect(names((await list(connection, era, 1, freshCursor)).text)).toEqual(['2', '3']);
    connection.close('disconnect');
    server.close();
  });
});

describe('stable results', () => {
  it('are shared between connections of one server but not between servers', async () => {
    const definitions = prompts(['a', 'b']);
    const one = createServer({ name: 'one', version: '1', prompts: livePrompts(definitions) });
    const two = createServer({ name: 'two', version: '2', prompts: livePrompts(definitions), cache: { ttlMs: 5 } });
    const texts = [];
    for (const server of [one, one, two]) {
      const connection = await open(server, '2026-07-28');
      texts.push((await list(connection, '2026-07-28', 1)).text);
      connection.close('disconnect');
    }
    expect(texts[1]).toBe(texts[0]);
    const [fromOne, fromTwo] = [JSON.parse(texts[0]!).result, JSON.parse(texts[2]!).result];
    expect(fromOne._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'one', version: '1' });
    expect(fromTwo._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'two', version: '2' });
    expect(fromTwo.ttlMs).toBe(5);
    one.close();
    two.close();
  });
});

describe('completion answers over a fixed list', () => {
  const values = Array.from({ length: 300 }, (_, i) => `value-${String(i).padStart(3, '0')}`);

  async function complete(connection: Connection, era: Era, id: number, value: string): Promise<{ response: Message; text: string }> {
    const params: Message = { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'v', value } };
    if (era === '2026-07-28') params._meta = META;
    const response = (await connection.receive({ jsonrpc: '2.0', id, method: 'completion/complete', params })) as Message;
    const text = serializeMessage(response as JsonRpcResponse);
    expect(text).toBe(JSON.stringify(response));
    return { response, text };
  }

  it('are remembered per partial value, shared and encoded once, and evicted least recently used first', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([definePrompt({ name: 'pick', arguments: [{ name: 'v', complete: values }], get: () => 'x' })]),
    });
    for (const era of ERAS) {
      const connection = await open(server, era);
      const first = await complete(connection, era, 1, 'value-1');
      expect(first.response.result.completion.values).toHaveLength(100);
      expect(first.response.result.completion.hasMore).toBe(true);
      const again = await complete(connection, era, 2, 'value-1');
      // The same shared result, not an equal copy.
      expect(again.response.result).toBe(first.response.result);
      expect(again.text).toBe(first.text.replace('"id":1', '"id":2'));
      // 256 other partials push it out; it is then computed afresh, with the same content.
      for (let i = 0; i < 256; i++) await complete(connection, era, 10 + i, `value-${String(i).padStart(3, '0')}`);
      const evicted = await complete(connection, era, 3, 'value-1');
      expect(evicted.response.result).not.toBe(first.response.result);
      expect(evicted.response.result).toEqual(first.response.result);
      connection.close('disconnect');
    }
    server.close();
  });

  it('answer a value longer than the remembered bound afresh each time, so long values cannot fill the memory', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([definePrompt({ name: 'pick', arguments: [{ name: 'v', complete: values }], get: () => 'x' })]),
    });
    const connection = await open(server, '2026-07-28');
    const atBound = `value-1${'0'.repeat(REMEMBERED_VALUE_LENGTH - 7)}`;
    const first = await complete(connection, '2026-07-28', 1, atBound);
    expect((await complete(connection, '2026-07-28', 2, atBound)).response.result).toBe(first.response.result);
    const long = `${atBound}0`;
    const once = await complete(connection, '2026-07-28', 3, long);
    const twice = await complete(connection, '2026-07-28', 4, long);
    expect(twice.response.result).not.toBe(once.response.result);
    expect(twice.response.result).toEqual(once.response.result);
    connection.close('disconnect');
    server.close();
  });

  it('are encoded per request when a completer function returns them', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([
        definePrompt({ name: 'pick', arguments: [{ name: 'v', complete: (value) => values.filter((v) => v.startsWith(value)).slice(0, 3) }], get: () => 'x' }),
      ]),
    });
    const connection = await open(server, '2025-11-25');
    const first = await complete(connection, '2025-11-25', 1, 'value-1');
    const again = await complete(connection, '2025-11-25', 2, 'value-1');
    expect(again.response.result).not.toBe(first.response.result);
    expect(again.response.result).toEqual(first.response.result);
    connection.close('disconnect');
    server.close();
  });
});

describe('fixed prompts', () => {
  it('answer prompts/get with one result per revision, encoded and serialized once', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([
        definePrompt({ name: 'fixed', description: 'Fixed.', output: 'A body that never changes.' }),
        definePrompt({ name: 'built', get: () => 'A body that never changes.' }),
      ]),
    });
    for (const era of ERAS) {
      const connection = await open(server, era);
      const get = async (id: number, name: string) => {
        const params: Message = { name };
        if (era === '2026-07-28') params._meta = META;
        const response = (await connection.receive({ jsonrpc: '2.0', id, method: 'prompts/get', params })) as Message;
        expect(serializeMessage(response as JsonRpcResponse)).toBe(JSON.stringify(response));
        return response.result;
      };
      const fixed = await get(1, 'fixed');
      expect(fixed.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'A body that never changes.' } }]);
      expect(await get(2, 'fixed')).toBe(fixed);
      const built = await get(3, 'built');
      expect(built.messages).toEqual(fixed.messages);
      expect(await get(4, 'built')).not.toBe(built);
      connection.close('disconnect');
    }
    server.close();
  });
});
