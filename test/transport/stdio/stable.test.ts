/**
 * serveStdio writes a shared list result from bytes encoded once: the lines
 * must be exactly what JSON.stringify gives, every time, and follow a reload.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, livePrompts } from '../../../src/index.js';
import { serveStdio } from '../../../src/stdio.js';
import { RawStdioClient } from '../../_stdio-client.js';
import { modernMeta } from '../../_wire.js';

const META = modernMeta();

function prompts(names: string[]) {
  return names.map((name) => definePrompt({ name, description: `${name} — “quoted”.`, get: () => name }));
}

describe('serveStdio with stable results', () => {
  it('writes byte-identical list lines for one catalogue and new ones after a reload', async () => {
    const live = livePrompts(prompts(['a', 'b']));
    const server = createServer({ name: 't', version: '1', prompts: live });
    const client = RawStdioClient.inProcess(server);
    const list = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/list', params: { _meta: META } });
    // One at a time: an id may not be reused while its request is pending.
    client.write(list(1));
    await client.waitFor(() => client.rawLines.length >= 1);
    client.write(list(1));
    await client.waitFor(() => client.rawLines.length >= 2);
    const [first, second] = client.rawLines;
    expect(second).toBe(first);
    const parsed = JSON.parse(first!);
    expect(JSON.stringify(parsed)).toBe(first);
    expect(parsed.result.prompts.map((p: { name: string }) => p.name)).toEqual(['a', 'b']);
    expect(parsed.result.prompts[0].description).toBe('a — “quoted”.');

    live.set(prompts(['c']));
    client.write(list(2));
    await client.waitFor(() => client.rawLines.length >= 3);
    const third = client.rawLines[2]!;
    expect(JSON.parse(third).result.prompts.map((p: { name: string }) => p.name)).toEqual(['c']);
    expect(JSON.parse(third).id).toBe(2);
    await client.close();
    server.close();
  });
});

describe('serveStdio output batching', () => {
  it('sends the answers to pipelined requests in a few writes, all of them, in full lines', async () => {
    const server = createServer({ name: 't', version: '1', prompts: livePrompts(prompts(['a'])) });
    const input = new PassThrough();
    let writes = 0;
    let text = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes++;
        text += chunk.toString('utf8');
        callback();
      },
      writev(chunks, callback) {
        writes++;
        for (const { chunk } of chunks) text += (chunk as Buffer).toString('utf8');
        callback();
      },
    });
    const running = serveStdio(server, { input, output });
    const count = 200;
    let batch = '';
    for (let id = 1; id <= count; id++) batch += `${JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'a', _meta: META } })}\n`;
    input.write(batch);
    for (let i = 0; i < 100 && text.split('\n').filter(Boolean).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(count);
    expect(new Set(lines.map((line) => JSON.parse(line).id)).size).toBe(count);
    expect(writes).toBeLessThan(count / 10);
    // Stopping flushes what the last turn wrote.
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'prompts/get', params: { name: 'a', _meta: META } })}\n`);
    await running.done;
    expect(text.trimEnd().split('\n').at(-1)).toContain('"id":"last"');
    server.close();
  });
});
