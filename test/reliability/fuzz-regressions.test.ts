/**
 * Minimal cases the fuzzers found, kept as plain regression tests over a
 * real stdio pipe, each named after the behaviour it pins.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLineReader } from '../../src/transport/stdio/line-reader.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { FIXTURE, responseProblems } from './_harness.js';

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
