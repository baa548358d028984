/**
 * Minimal cases the fuzzers found, kept as plain regression tests over a
 * real stdio pipe, each named after the behaviour it pins.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLineReader } from '../../src/transport/stdio/line-reader.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { METHODS } from './_fuzz.js';
import { FIXTURE, responseProblems, SentRequests } from './_harness.js';

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('fuzz regressions', () => {
  it('answers a request whose id is a fractional number with -32600 and id null (MCP ids are strings or integers)', { tags: ['schema'] }, async () => {
    client = RawStdioClient.spawn(FIXTURE);
    client.send({ jsonrpc: '2.0', id: 1.5, method: 'resources/read', params: modern({ uri: 7 }) });
    const reply = await client.waitFor((m) => 'error' in m);
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
    expect(responseProblems('2026-07-28', reply)).toEqual([]);
  });

  it('answers a listen over the listen cap by its id and era: -32600 with id null for the id 1.5, -32603 with the id for a valid one', {
    tags: ['schema'],
  }, async () => {
    // Seed 9090 found the id 1.5 echoed in a -32603: the stdio transport refused a listen
    // over its cap before the resolver had looked at the id (JSON-RPC 2.0 §5: an id that
    // cannot be read is answered with null; MCP ids are strings or integers).
    client = RawStdioClient.spawn(FIXTURE);
    const listen = (id: unknown, params: Record<string, unknown> = modern({ notifications: { promptsListChanged: true } })) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params });
    // The fixture keeps the default cap, 32 open listen requests.
    const open = Array.from({ length: 32 }, (_, i) => listen(`open-${i}`));
    // In one write: all of them are read and started in order, so the last three meet the cap.
    client.write([...open, listen(1.5), listen('over'), listen('legacy', { notifications: {} })].join('\n'));
    const fractional = await client.waitFor((m) => m.id === null && 'error' in m);
    expect(fractional).toMatchObject({ id: null, error: { code: -32600 } });
    expect(responseProblems('2026-07-28', fractional)).toEqual([]);
    const over = await client.waitFor((m) => m.id === 'over');
    expect(over).toMatchObject({ error: { code: -32603, message: expect.stringMatching(/listen/) } });
    expect(responseProblems('2026-07-28', over)).toEqual([]);
    // Without the envelope the request is not a 2026-07-28 listen at all: the legacy rules answer it.
    const legacy = await client.waitFor((m) => m.id === 'legacy');
    expect(legacy).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/No session/) } });
    expect(responseProblems('2025-11-25', legacy)).toEqual([]);
  });

  it("judges a reply by every request sent under its id, however many came first (the fuzzer's own bookkeeping)", { tags: ['schema'] }, () => {
    // Seed 4242: the 90th request under "dup" was a ping without the envelope; with only
    // the first eight requests of an id kept, its legacy answer `{}` was judged as a 2026-07-28 one.
    const sent = new SentRequests();
    for (let i = 0; i < 89; i++) sent.record('dup', METHODS[i % METHODS.length] as string, true);
    sent.record('dup', 'ping', false);
    expect(sent.judge({ jsonrpc: '2.0', id: 'dup', result: {} }, '2025-11-25')).toBeUndefined();
    // Still a referee: an answer that fits none of them is reported.
    expect(sent.judge({ jsonrpc: '2.0', id: 'dup', result: 'x' }, '2025-11-25')).toMatch(/other requests sent under this id/);
    expect(sent.judge({ jsonrpc: '2.0', id: 'never', result: {} }, '2025-11-25')).toBeUndefined();
    expect(sent.judge({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'x' } }, '2025-11-25')).toMatch(/id null/);
  });

  it('answers a line of JSON that is not an object (null, a number, a string) with -32600 and lives on', async () => {
    client = RawStdioClient.spawn(FIXTURE);
    for (const line of ['null', '7', '"x"', 'true']) {
      client.write(line);
      expect(await client.waitFor((m) => 'error' in m)).toMatchObject({ id: null, error: { code: -32600 } });
      client.received.length = 0;
    }
    expect((await client.request('server/discover', modern(), 'after')).result).toBeDefined();
  });

  it('measures a long line in linear work: each byte of a line near the cap is sized a bounded number of times', () => {
    // 64 KiB is what a pipe delivers per read; a 4 MiB line arrives in 64 chunks.
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const lines: number[] = [];
    const reader = createLineReader(4 * 1024 * 1024, { line: (l) => lines.push(l.length), overflow: () => lines.push(-1) });
    const original = Buffer.byteLength.bind(Buffer);
    let measured = 0;
    const sizing = vi.spyOn(Buffer, 'byteLength').mockImplementation((value, encoding) => {
      measured += typeof value === 'string' ? value.length : 0;
      return original(value, encoding);
    });
    try {
      for (let i = 0; i < 63; i++) reader.push(chunk);
      reader.push('\n');
    } finally {
      sizing.mockRestore();
    }
    expect(lines).toEqual([63 * 64 * 1024]);
    // Re-measuring the whole buffer on every chunk is quadratic: 63 chunks would size ~130 MB.
    expect(measured).toBeLessThanOrEqual(2 * 63 * 64 * 1024);
  });

  it('refuses a line over the cap that arrives whole in one chunk', () => {
    const seen: string[] = [];
    const reader = createLineReader(2000, { line: () => seen.push('line'), overflow: () => seen.push('overflow') });
    reader.push(`${'a'.repeat(3000)}\n${'b'.repeat(10)}\n`);
    reader.push(`${'c'.repeat(1500)}`);
    reader.push(`${'c'.repeat(1500)}\nd\n`);
    expect(seen).toEqual(['overflow', 'line', 'overflow', 'line']);
  });
});
