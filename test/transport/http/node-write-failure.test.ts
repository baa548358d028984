/**
 * toNodeHandler when a reply cannot be written: a 500, logged, when nothing
 * was sent yet; a stream whose source fails ends with what was sent.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../../src/http.js';
import type { HttpReply } from '../../../src/transport/http/request.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A node server around a handler whose `reply` gives `answer`, and what it logged as errors. */
async function serving(answer: () => Promise<HttpReply>): Promise<{ url: string; errors: string[] }> {
  const errors: string[] = [];
  const reply = answer;
  const fetch = Object.assign(() => Promise.reject(new Error('not used')), { reply });
  const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => void errors.push(message) };
  const server: Server = createNodeServer(toNodeHandler({ fetch, reply } as never, { logger }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, errors };
}

describe('toNodeHandler, a reply that cannot be written', () => {
  it('answers 500 when the write throws before anything was sent', async () => {
    const { url, errors } = await serving(() => Promise.resolve({ status: 99, headers: {}, body: 'never' }));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(errors).toEqual(['Failed to write an HTTP response']);
  });

  it('ends the answer when its stream fails after the headers went, as a stream that ended', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
        setTimeout(() => controller.error(new Error('the source broke')), 20);
      },
    });
    const { url, errors } = await serving(() => Promise.resolve({ status: 200, headers: { 'Content-Type': 'text/event-stream' }, body }));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    // The answer ends with what was sent: the client is not left waiting (writeStream ends a failed source).
    expect(await response.text()).toBe('data: one\n\n');
    expect(errors).toEqual([]);
  });
});
