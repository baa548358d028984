/**
 * toNodeHandler when a reply cannot be written: a 500, logged, when nothing
 * was sent yet; an answer whose stream fails after its headers went is cut
 * off, logged, so the client cannot take it for a whole one.
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

  /** A stream that sends one event, then fails. */
  const failing = (): ReadableStream<Uint8Array> =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
        setTimeout(() => controller.error(new Error('the source broke')), 20);
      },
    });

  it('cuts the answer off, and logs it, when its stream fails after the headers went', async () => {
    const body = failing();
    const { url, errors } = await serving(() => Promise.resolve({ status: 200, headers: { 'Content-Type': 'text/event-stream' }, body }));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    // Not a clean end: the chunked body stops without its last chunk (RFC 9112 §7.1), and the client's read fails.
    await expect(response.text()).rejects.toThrow();
    expect(errors).toEqual(['Failed to write an HTTP response']);
  });

  it('cuts off the streamed answer of a fetch handler the same way', async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => void errors.push(message) };
    const handler = { fetch: () => new Response(failing(), { headers: { 'Content-Type': 'text/event-stream' } }) };
    const server: Server = createNodeServer(toNodeHandler(handler, { logger }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(errors).toEqual(['The fetch handler failed']);
  });
});
