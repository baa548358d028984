/**
 * Requests held open by a client that never answers the server's own
 * questions (2025 sessions: a prompt's missing required argument is asked
 * with `elicitation/create`). Each question times out (2025-06-18
 * basic/lifecycle §Timeouts: the sender cancels with `notifications/cancelled`
 * and stops waiting; the request that asked is answered with an error), and
 * the questions waiting on one client count against that client's caps: its
 * session (`limits.maxPendingInputs`) and, over HTTP, its stream places
 * (`maxStreamsPerClient`, `maxStreams`), never against the connections
 * every client shares. Over stdio and over a real node:http server; every
 * wait is bounded and fails when the thing does not happen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, definePrompt, type ServerLimits, staticPrompts } from '../../src/index.js';
import { json, post, RawHttpClient, SseReader } from '../_http-client.js';
import { RawStdioClient } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';

const VERSION = '2025-11-25';
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** A prompt with a required argument: asking for it without one makes the server ask the client. */
function heldServer(limits: Partial<ServerLimits> = {}) {
  return createServer({
    name: 'held',
    version: '1.0.0',
    prompts: staticPrompts([definePrompt({ name: 'hello', arguments: [{ name: 'who', required: true }], get: ({ who }) => `Hello ${who}` })]),
    limits,
  });
}

const ASK = (id: number | string): Message => ({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'hello' } });
const TOO_MANY = /^Too many questions wait for this client's answers \(\d+\)/;
const NO_ANSWER = /^The client did not answer elicitation\/create within \d+ ms$/;

describe('questions a stdio client never answers', () => {
  async function session(limits: Partial<ServerLimits>): Promise<RawStdioClient> {
    const client = RawStdioClient.inProcess(heldServer(limits), { maxConcurrentRequests: 4 });
    closers.push(() => client.close());
    await client.request('initialize', { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: 'held', version: '1' } });
    client.notify('notifications/initialized');
    return client;
  }

  it('withdraws each question after limits.inputTimeoutMs and answers its request, so requests never pile up', async () => {
    const client = await session({ inputTimeoutMs: 100 });
    // Three times the requests that may run at once: each must end for the next to start.
    for (let i = 1; i <= 12; i++) client.send(ASK(i));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.waitFor((m) => m.id === i + 1 && 'error' in m)));
    for (const answer of answers) expect(answer.error).toEqual({ code: -32603, message: expect.stringMatching(NO_ANSWER) });
    const questions = client.received.filter((m) => m.method === 'elicitation/create');
    expect(questions).toHaveLength(12);
    // Each question is withdrawn (notifications/cancelled naming it) after it was asked; the HTTP
    // case below checks the order on the asking request's own stream.
    for (const question of questions) {
      const cancelled = client.received.findIndex((m) => m.method === 'notifications/cancelled' && m.params?.requestId === question.id);
      expect(cancelled, `cancellation of ${question.id}`).toBeGreaterThan(client.received.indexOf(question));
    }
    expect((await client.request('ping', {})).result).toEqual({});
  });

  it('answers at once a request whose question would pass limits.maxPendingInputs, and serves the rest', async () => {
    const client = await session({ maxPendingInputs: 2 });
    for (let i = 1; i <= 3; i++) client.send(ASK(i));
    const refused = await client.waitFor((m) => m.id === 3 && 'error' in m);
    expect(refused.error).toEqual({ code: -32603, message: expect.stringMatching(TOO_MANY) });
    // Two of the four places are held by requests waiting on the client; others still run.
    expect((await client.request('ping', {})).result).toEqual({});
    const questions = await Promise.all([1, 2].map((n) => client.waitFor((m) => m.method === 'elicitation/create' && m.id === `skillport-${n}`)));
    for (const question of questions) client.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { who: 'you' } } });
    for (const id of [1, 2]) expect((await client.waitFor((m) => m.id === id)).result.messages[0].content.text).toBe('Hello you');
  });
});

describe('questions an HTTP client never answers (node:http)', () => {
  async function start(limits: Partial<ServerLimits>, options: Parameters<typeof RawHttpClient.node>[1] = {}): Promise<RawHttpClient> {
    const client = await RawHttpClient.node(heldServer(limits), options);
    closers.push(() => client.close());
    return client;
  }

  async function openSession(t: RawHttpClient): Promise<Record<string, string>> {
    const opened = await post(t, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: 'held', version: '1' } },
    });
    const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') as string, 'mcp-protocol-version': VERSION };
    await opened.body?.cancel();
    await (await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    return headers;
  }

  /** POSTs a prompts/get that needs an answer: its question on an open SSE answer, or its answer at once. */
  async function ask(
    t: RawHttpClient,
    headers: Record<string, string>,
    id: number,
  ): Promise<{ question?: Message | undefined; reader?: SseReader; answer?: Message }> {
    const response = await post(t, ASK(id), headers);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { answer: await json(response) };
    const reader = new SseReader(response);
    closers.push(() => reader.cancel());
    await reader.until((r) => r.events.length > 0);
    return { question: reader.events[0], reader };
  }

  it('keeps serving other clients and /healthz while one session leaves 60 questions unanswered (maxConnections 40)', async () => {
    const t = await start({}, { maxConnections: 40 });
    const headers = await openSession(t);
    // One after another, each on a connection of its own until answered: held ones keep theirs.
    const asked: Array<Awaited<ReturnType<typeof ask>>> = [];
    for (let id = 1; id <= 60; id++) asked.push(await ask(t, headers, id));
    const questions = asked.filter((a) => a.question);
    // The session's own cap (8 by default) holds; the others are answered at once, precisely.
    expect(questions).toHaveLength(8);
    for (const { question } of questions) expect(question?.method).toBe('elicitation/create');
    for (const { answer } of asked.filter((a) => a.answer)) expect(answer?.error).toEqual({ code: -32603, message: expect.stringMatching(TOO_MANY) });
    expect((await fetch(new URL('/healthz', t.url))).status).toBe(200);
    const other = await openSession(t);
    expect(other['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("counts a request waiting for its client against that client's stream places (maxStreamsPerClient), and gives the place back once answered", async () => {
    const t = await start({}, { maxStreamsPerClient: 3 });
    const a = await openSession(t);
    const b = await openSession(t);
    const asked = [await ask(t, a, 1), await ask(t, a, 2), await ask(t, b, 3)];
    expect(asked.map((x) => x.question?.method)).toEqual(['elicitation/create', 'elicitation/create', 'elicitation/create']);
    const fourth = await ask(t, b, 4);
    expect(fourth.answer?.error).toEqual({ code: -32603, message: expect.stringMatching(/^Too many requests wait for this client's answers/) });
    const stream = () => t.fetch(new Request(t.url, { headers: { ...a, accept: 'text/event-stream' } }));
    const refused = await stream();
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    // The first question answered: its request ends and its place is free.
    const [first] = asked;
    await (await post(t, { jsonrpc: '2.0', id: first?.question?.id, result: { action: 'accept', content: { who: 'you' } } }, a)).text();
    await first?.reader?.until((r) => r.events.some((e) => e.id === 1));
    expect(first?.reader?.events.find((e) => e.id === 1)?.result.messages[0].content.text).toBe('Hello you');
    await first?.reader?.toEnd();
    const opened = await stream();
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
  });

  it('withdraws a question left unanswered past limits.inputTimeoutMs on its request’s stream, answers the request and frees its place', async () => {
    const t = await start({ inputTimeoutMs: 200 }, { maxStreamsPerClient: 1 });
    const headers = await openSession(t);
    for (const id of [1, 2]) {
      // The second asks only if the first gave its stream place back.
      const { question, reader } = await ask(t, headers, id);
      expect(question?.method).toBe('elicitation/create');
      const events = (await reader?.toEnd()) ?? [];
      expect(events.map((e) => e.method ?? e.id)).toEqual(['elicitation/create', 'notifications/cancelled', id]);
      expect(events[1]?.params).toMatchObject({ requestId: question?.id });
      expect(events[2]?.error).toEqual({ code: -32603, message: expect.stringMatching(NO_ANSWER) });
    }
  });

  it('answers at once a question its answer cannot carry (a client that accepts only JSON)', async () => {
    const t = await start({});
    const headers = await openSession(t);
    // A hang guard: before the fix, the question was dropped and the request waited for ever.
    const response = await post(t, ASK(1), { ...headers, accept: 'application/json' }, { signal: AbortSignal.timeout(10_000) });
    expect((await json(response)).error).toEqual({ code: -32603, message: expect.stringMatching(/text\/event-stream/) });
  });
});

// The 2026-07-28 revision asks nothing of its own (an InputRequiredResult instead): untouched.
describe('2026-07-28 is not affected', () => {
  it('ends an input-required prompts/get at once with its result', async () => {
    const client = RawStdioClient.inProcess(heldServer({ maxPendingInputs: 1 }));
    closers.push(() => client.close());
    const params = modern({ name: 'hello' });
    params._meta['io.modelcontextprotocol/clientCapabilities'] = { elicitation: {} };
    for (const id of [1, 2]) expect((await client.request('prompts/get', params, id)).result.resultType).toBe('input_required');
  });
});
