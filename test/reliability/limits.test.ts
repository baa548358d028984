/**
 * Every limit, configured small and then crossed, over stdio and over a
 * real node:http server: message size, JSON depth and prompt output size
 * (the server's `limits`), request body, header size, header, request and
 * idle timeouts (slow-loris clients), and a rejected body that must not
 * break the connection it came on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { RawStdioClient } from '../_stdio-client.js';
import { modern } from '../_wire.js';
import { HTTP_FIXTURE, HttpChild, httpBuilt, responseProblems } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const figures = new Figures();
let dir: string;
const BIG_SKILL = 'x'.repeat(5000);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillport-limits-'));
  mkdirSync(join(dir, 'big'));
  writeFileSync(join(dir, 'big', 'SKILL.md'), `---\nname: big\ndescription: A large skill.\n---\n${BIG_SKILL}\n`);
  mkdirSync(join(dir, 'small'));
  writeFileSync(join(dir, 'small', 'SKILL.md'), '---\nname: small\ndescription: A small skill.\n---\nSmall.\n');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  writeSection('limits', `### Limits\n\nEach limit set small and crossed; the defaults are listed in the table below the sections.\n\n${figures.table()}`);
});

const LIMITS = { maxMessageBytes: 2000, maxJsonDepth: 10, maxPromptBytes: 1000 };

function nested(depth: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 'deep',
    method: 'server/discover',
    params: { ...modern(), x: JSON.parse(`${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}`) },
  });
}

describe('protocol limits over stdio', () => {
  let client: RawStdioClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('refuses a message nested deeper than maxJsonDepth with -32600 and id null, and serves one at the limit', { tags: ['schema'] }, async () => {
    client = RawStdioClient.spawn(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir, stdio: true, limits: LIMITS }) });
    client.write(nested(LIMITS.maxJsonDepth + 1));
    const refused = await client.waitFor((m) => 'error' in m);
    expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
    expect(responseProblems('2026-07-28', refused)).toEqual([]);
    client.write(nested(LIMITS.maxJsonDepth));
    expect((await client.waitFor((m) => m.id === 'deep')).result).toBeDefined();
    figures.add('JSON depth over the limit, stdio', '-32600, id null');
  });

  it('refuses a line longer than maxMessageBytes with -32600 and keeps serving', async () => {
    client = RawStdioClient.spawn(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir, stdio: true, limits: LIMITS }) });
    client.send({ jsonrpc: '2.0', id: 'long', method: 'server/discover', params: modern({ pad: 'p'.repeat(LIMITS.maxMessageBytes) }) });
    expect(await client.waitFor((m) => 'error' in m)).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await client.request('server/discover', modern(), 'after')).result).toBeDefined();
    figures.add('Message over maxMessageBytes, stdio', '-32600, id null');
  });

  it('refuses a prompt larger than maxPromptBytes with a generic -32603 and logs the reason', async () => {
    client = RawStdioClient.spawn(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir, stdio: true, limits: LIMITS }) });
    const refused = await client.request('prompts/get', modern({ name: 'big' }), 'big');
    expect(refused.error).toEqual({ code: -32603, message: expect.any(String) });
    expect(refused.error.message).not.toContain('1000');
    expect(JSON.stringify(refused)).not.toContain(BIG_SKILL.slice(0, 100));
    expect((await client.request('prompts/get', modern({ name: 'small' }), 'small')).result.messages).toHaveLength(1);
    await client.close();
    expect(client.stderr).toMatch(/big.*1000/);
    figures.add('Prompt over maxPromptBytes, stdio', '-32603 generic, reason logged');
  });
});

describe.skipIf(!httpBuilt())('limits over HTTP', () => {
  let server: HttpChild | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(options: Record<string, unknown> = {}): Promise<URL> {
    server = new HttpChild(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir, ...options }) });
    return server.url;
  }

  function post(url: URL, body: unknown, agent?: Agent) {
    const value = typeof body === 'string' ? (JSON.parse(body) as unknown) : body;
    return httpSend(url, { headers: modernHeaders(value, url), body: typeof body === 'string' ? body : JSON.stringify(body), ...(agent ? { agent } : {}) });
  }

  it('applies the server limits to HTTP bodies: maxMessageBytes gives 413, maxJsonDepth gives 400 with -32600 and id null', async () => {
    const url = await start({ limits: LIMITS });
    const long = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern({ pad: 'p'.repeat(LIMITS.maxMessageBytes) }) };
    expect((await post(url, long)).status).toBe(413);
    const deep = await post(url, nested(LIMITS.maxJsonDepth + 1));
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body)).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await post(url, nested(LIMITS.maxJsonDepth))).status).toBe(200);
    const big = await post(url, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: modern({ name: 'big' }) });
    expect(JSON.parse(big.body).error.code).toBe(-32603);
    figures.add('Body over maxMessageBytes (or maxBodyBytes), HTTP', '413');
    figures.add('JSON depth over the limit, HTTP', '400, -32600, id null');
    figures.add('Prompt over maxPromptBytes, HTTP', '-32603 generic');
  });

  it('answers an oversized body with 413 that the client reads, and a body left unread does not break the next request on the connection', async () => {
    const url = await start({ http: { maxBodyBytes: 100_000 } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() };
      for (const size of [200_000, 1_000_000, 3_000_000]) {
        const over = await post(url, { ...discover, params: { ...discover.params, pad: 'p'.repeat(size) } }, agent);
        expect(over.status).toBe(413);
        expect((await post(url, discover, agent)).status).toBe(200);
      }
      // Refused before the body is read (wrong Accept), with a large body behind it.
      for (const size of [16_000, 1_000_000]) {
        const refused = await httpSend(url, {
          headers: { ...modernHeaders(discover, url), Accept: 'text/html' },
          body: JSON.stringify({ ...discover, pad: 'p'.repeat(size) }),
          agent,
        });
        expect(refused.status).toBe(406);
        expect((await post(url, discover, agent)).status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    figures.add('Body over maxBodyBytes then a request on the same connection', '413 read by the client; next request 200');
  });

  it('answers headers larger than the cap with 431', async () => {
    const url = await start();
    const answer = await httpSend(url, { headers: { ...modernHeaders({}, url), 'X-Pad': 'h'.repeat(20_000) }, body: '{}' });
    expect(answer.status).toBe(431);
    figures.add('Headers over 16 KiB (node maxHeaderSize)', '431');
  });

  /** Opens a raw socket and drips `text` one byte per `everyMs`; resolves with what the server sent when it closed the socket. */
  function drip(url: URL, text: string, everyMs: number, guardMs = 20_000): Promise<{ closed: boolean; received: string }> {
    return new Promise((resolve) => {
      const socket: Socket = connect(Number(url.port), url.hostname);
      let received = '';
      let at = 0;
      const timer = setInterval(() => {
        if (at < text.length && socket.writable) socket.write(text[at++] as string);
      }, everyMs);
      const guard = setTimeout(() => finish(false), guardMs);
      function finish(closed: boolean): void {
        clearInterval(timer);
        clearTimeout(guard);
        socket.destroy();
        resolve({ closed, received });
      }
      socket.on('data', (c) => (received += c.toString()));
      socket.on('close', () => finish(true));
      socket.on('error', () => finish(true));
    });
  }

  it('cuts off a slow-loris client that never finishes its headers (headersTimeoutMs)', async () => {
    const url = await start({ http: { headersTimeoutMs: 1000 } });
    const request = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n${'X-Slow: 1\r\n'.repeat(200)}\r\n`;
    const outcome = await drip(url, request, 50);
    expect(outcome.closed).toBe(true);
    expect(outcome.received === '' || outcome.received.startsWith('HTTP/1.1 408')).toBe(true);
    figures.add('Slow-loris headers (1 byte / 50 ms, headersTimeoutMs 1000)', 'connection closed');
  });

  it('cuts off a client that sends its body too slowly (requestTimeoutMs)', async () => {
    const url = await start({ http: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 } });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() });
    const head = Object.entries({ ...modernHeaders(JSON.parse(body), url), 'Content-Length': String(body.length) })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n\r\n`);
    socket.destroy();
    const outcome = await drip(url, `POST ${url.pathname} HTTP/1.1\r\n${head}\r\n\r\n${body}`, 20);
    expect(outcome.closed).toBe(true);
    expect(outcome.received.startsWith('HTTP/1.1 200')).toBe(false);
    figures.add('Slow body (1 byte / 20 ms, requestTimeoutMs 2000)', 'connection closed');
  });

  it('closes a connection that stays idle after its response (keep-alive idle timeout)', async () => {
    const url = await start({ http: { idleTimeoutMs: 1000 } });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() });
    const head = Object.entries({ ...modernHeaders(JSON.parse(body), url), 'Content-Length': String(Buffer.byteLength(body)), Connection: 'keep-alive' })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    const outcome = await new Promise<{ closed: boolean; received: string }>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n\r\n${body}`));
      let received = '';
      const guard = setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, received });
      }, 20_000);
      socket.on('data', (c) => (received += c.toString()));
      socket.on('close', () => {
        clearTimeout(guard);
        resolve({ closed: true, received });
      });
    });
    expect(outcome.received.startsWith('HTTP/1.1 200')).toBe(true);
    expect(outcome.closed).toBe(true);
    figures.add('Idle keep-alive connection (idleTimeoutMs 1000)', 'closed by the server');
  });
});
