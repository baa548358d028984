/**
 * serveStdio under a client that stops reading: no new request starts while
 * stdout holds more than `maxBufferedOutputBytes`, at most
 * `maxConcurrentRequests` run at once, stdin is not read while either holds
 * (so the pipe pushes back on the client), and everything received is
 * answered once the output drains. A cancellation never waits in line.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, livePrompts, staticPrompts } from '../../../src/index.js';
import { serveStdio } from '../../../src/stdio.js';
import { modernMeta } from '../../_wire.js';

const META = modernMeta();
const get = (id: number, name = 'p') => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name, _meta: META } })}\n`;
const cancel = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, _meta: META } })}\n`;
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A stdout whose reader is stuck until `release()`: what it was given piles up in its buffer. */
function stuckOutput(): { output: Writable; text: () => string; release: () => void } {
  let held: Array<() => void> = [];
  let released = false;
  let text = '';
  const output = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      if (released) done();
      else held.push(done);
    },
  });
  return {
    output,
    text: () => text,
    release() {
      released = true;
      for (const done of held.splice(0)) done();
      held = [];
    },
  };
}

describe('serveStdio backpressure', () => {
  it('starts no request and reads no input while stdout holds more than maxBufferedOutputBytes, then answers everything', async () => {
    let calls = 0;
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([
        definePrompt({
          name: 'p',
          get: () => {
            calls++;
            return 'x'.repeat(2000);
          },
        }),
      ]),
    });
    const input = new PassThrough();
    const stdout = stuckOutput();
    const running = serveStdio(server, { input, output: stdout.output, maxBufferedOutputBytes: 4096 });
    for (let id = 1; id <= 200; id++) input.write(get(id));
    await turns(20);
    // The answers of the first few fill the buffer; the rest wait in line.
    expect(calls).toBeLessThan(20);
    // With stdout full, what comes next is not even read.
    for (let id = 201; id <= 250; id++) input.write(get(id));
    await turns(20);
    expect(input.readableLength).toBeGreaterThan(0);
    stdout.release();
    for (let i = 0; i < 200 && stdout.text().split('\n').length <= 250; i++) await turns(5);
    expect(calls).toBe(250);
    const ids = stdout
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as number);
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    input.end();
    await running.done;
  });

  it('runs at most maxConcurrentRequests requests at once, and a cancellation reaches a request running or waiting', async () => {
    const gates: Array<() => void> = [];
    const started: string[] = [];
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([
        definePrompt({
          name: 'p',
          get: async () => {
            started.push('p');
            await new Promise<void>((resolve) => gates.push(resolve));
            return 'done';
          },
        }),
      ]),
    });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const running = serveStdio(server, { input, output, maxConcurrentRequests: 2 });
    for (let id = 1; id <= 5; id++) input.write(get(id));
    await turns(10);
    expect(started).toHaveLength(2);
    // 1 is running, 5 is waiting: neither is answered, and 5 never starts.
    input.write(cancel(1) + cancel(5));
    await turns(10);
    for (let i = 0; i < 20 && gates.length > 0; i++) {
      for (const open of gates.splice(0)) open();
      await turns(10);
    }
    expect(started).toHaveLength(4);
    const ids = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as number);
    expect(ids.sort()).toEqual([2, 3, 4]);
    input.end();
    await running.done;
  });

  it('gives listen requests a cap of their own: they take no request place, and one over maxListenRequests is refused at once', async () => {
    const server = createServer({ name: 't', version: '1', prompts: livePrompts([definePrompt({ name: 'p', get: () => 'x' })]) });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const running = serveStdio(server, { input, output, maxConcurrentRequests: 1, maxListenRequests: 2 });
    const listen = (id: string) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { promptsListChanged: true }, _meta: META } })}\n`;
    input.write(listen('l1') + listen('l2') + listen('l3') + get(1) + get(2));
    await turns(20);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((m) => m.method === 'notifications/subscriptions/acknowledged')).toHaveLength(2);
    expect(lines.find((m) => m.id === 'l3')?.error).toMatchObject({ code: -32603 });
    // Both listens open, one request place: the requests are still answered.
    expect(lines.filter((m) => m.id === 1 || m.id === 2).map((m) => m.result?.messages?.length)).toEqual([1, 1]);
    input.end();
    await running.done;
  });

  it('lets a cancellation pass waiting lines that are not objects', async () => {
    const gates: Array<() => void> = [];
    const server = createServer({
      name: 't',
      version: '1',
      prompts: staticPrompts([definePrompt({ name: 'p', get: () => new Promise<string>((resolve) => gates.push(() => resolve('done'))) })]),
    });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const running = serveStdio(server, { input, output, maxConcurrentRequests: 1 });
    input.write(`${get(1)}null\n7\n${get(2)}${cancel(2)}`);
    await turns(10);
    for (let i = 0; i < 10 && gates.length > 0; i++) {
      for (const open of gates.splice(0)) open();
      await turns(10);
    }
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((m) => m.id)).toEqual([1, null, null]);
    input.end();
    await running.done;
  });

  it('refuses options that are not positive integers', () => {
    const server = createServer({ name: 't', version: '1' });
    expect(() => serveStdio(server, { input: new PassThrough(), output: new PassThrough(), maxConcurrentRequests: 0 })).toThrow(TypeError);
    expect(() => serveStdio(server, { input: new PassThrough(), output: new PassThrough(), maxBufferedOutputBytes: 1.5 })).toThrow(TypeError);
  });
});
