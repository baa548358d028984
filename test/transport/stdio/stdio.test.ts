/**
 * The stdio transport as a client sees it: the real CLI and the fixture
 * server over real pipes.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { schemaErrors } from '../../_schema.js';
import { BIN, FIXTURE, initialize, RawStdioClient, ROOT } from '../../_stdio-client.js';
import { modern } from '../../_wire.js';

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('stdio transport', () => {
  it('writes only JSON-RPC messages to stdout, even with debug logging, and logs to stderr', async () => {
    client = RawStdioClient.spawn(BIN, ['serve', `${ROOT}test/fixtures/skills/valid`, '--log-level', 'debug']);
    await initialize(client, '2025-11-25');
    await client.request('prompts/list');
    client.send({ jsonrpc: '2.0', id: 'r', result: {} });
    expect((await client.request('prompts/get', { name: 'greeting', arguments: { who: 'x' } })).result).toBeDefined();
    await client.close();
    expect(client.rawLines.length).toBeGreaterThanOrEqual(3);
    for (const line of client.rawLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(client.stderr).toContain('skillport info: serving 10 prompts and 2 tools from 4 skills over stdio');
    expect(client.stderr).toContain('skillport debug: Ignored a response message');
  });

  it('keeps a message with newlines in its strings on one line', async () => {
    client = RawStdioClient.fixture();
    const response = await client.request('prompts/get', modern({ name: 'multiline', arguments: { text: 'a\nb\r\nc\u2028d' } }));
    expect(response.result.messages[0].content.text).toBe('a\nb\r\nc\u2028d');
    expect(client.rawLines.every((line) => !line.includes('\n'))).toBe(true);
  });

  it('answers malformed JSON with -32700 and id null, then keeps serving', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    client.write('{"jsonrpc": "2.0", "id": 1, "method": ');
    const parseError = await client.waitFor((m) => m.error?.code === -32700);
    expect(parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } });
    // JSON-RPC 2.0 §5 requires id null here; the MCP schemas type ids as string|number,
    // so the shape is checked with the id substituted, as the conformance suite does.
    expect(schemaErrors('2025-11-25', 'JSONRPCErrorResponse', { ...parseError, id: 0 })).toEqual([]);
    client.write('[{"jsonrpc":"2.0","id":2,"method":"ping"}]');
    expect(await client.waitFor((m) => m.error?.code === -32600)).toMatchObject({ id: null, error: { message: expect.stringContaining('Batch') } });
    expect((await client.request('server/discover', modern())).result.resultType).toBe('complete');
  });

  it('rejects a message nested deeper than the limit without parsing it, and keeps serving', async () => {
    client = RawStdioClient.fixture();
    client.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    expect(await client.waitFor((m) => m.error?.code === -32600)).toMatchObject({
      id: null,
      error: { message: expect.stringContaining('nested deeper than 64') },
    });
    expect((await client.request('server/discover', modern())).result).toBeDefined();
  });

  it('rejects an oversized message and keeps serving', async () => {
    client = RawStdioClient.spawn(FIXTURE);
    client.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(await client.waitFor((m) => m.error?.code === -32600, 10_000)).toMatchObject({ id: null });
    expect((await client.request('server/discover', modern())).result).toBeDefined();
  });

  it('explains what to send when a request has neither a session nor the 2026 envelope', async () => {
    client = RawStdioClient.fixture();
    expect((await client.request('ping')).result).toEqual({});
    const response = await client.request('prompts/list');
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toContain('initialize');
    expect(response.error.message).toContain('io.modelcontextprotocol/protocolVersion');
  });

  it('serves both eras in one process', async () => {
    client = RawStdioClient.fixture();
    await initialize(client, '2025-06-18');
    const legacy = await client.request('prompts/list');
    const modernList = await client.request('prompts/list', modern());
    expect(legacy.result.resultType).toBeUndefined();
    expect(modernList.result.resultType).toBe('complete');
    const names = (list: Array<{ name: string }>) => list.map((p) => p.name);
    expect(names(modernList.result.prompts)).toEqual(names(legacy.result.prompts));
    // Icons exist from 2025-11-25 on: the modern answer has them, the 2025-06-18 session's does not.
    expect(modernList.result.prompts[1].icons).toBeDefined();
    expect(legacy.result.prompts[1].icons).toBeUndefined();
  });

  it('rejects a request id that is still in flight', async () => {
    client = RawStdioClient.fixture();
    client.send({ jsonrpc: '2.0', id: 'dup', method: 'prompts/get', params: modern({ name: 'slow' }) });
    const second = await client.request('prompts/get', modern({ name: 'simple' }), 'dup');
    expect(second.error.code).toBe(-32600);
    client.notify('notifications/cancelled', modern({ requestId: 'dup' }));
  });

  it('answers what was sent before stdin closed, then exits 0', () => {
    const input = `${[
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: modern({ name: 'simple' }) }),
    ].join('\n')}\n`;
    const result = spawnSync(process.execPath, [FIXTURE], { input, encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id)
      .sort();
    expect(ids).toEqual([1, 2]);
  });

  it('exits 0 on SIGTERM', async () => {
    client = RawStdioClient.spawn(BIN, ['serve']);
    await client.request('server/discover', modern());
    client.child.kill('SIGTERM');
    expect(await client.exited).toEqual({ code: 0, signal: null });
  });
});
