/**
 * What a session keeps of its client's `initialize` (src/server/handshake.ts):
 * the capabilities the server can use, the client's name, title and version
 * cut short, within the 1 KiB budget whatever the client sends; and a
 * session's `ctx.client.capabilities` is that, over a real stdio session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, definePrompt, staticPrompts } from '../../src/index.js';
import { cutForJson, HANDSHAKE_BUDGET_BYTES, keptCapabilities, keptClientInfo } from '../../src/server/handshake.js';
import { RawStdioClient } from '../_stdio-client.js';

const bytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).byteLength;

describe('keptCapabilities', () => {
  it('keeps the members the server can use, as presence, and nothing else', () => {
    const pad = 'x'.repeat(100_000);
    const kept = keptCapabilities({
      elicitation: { form: { pad }, url: {}, other: pad },
      sampling: { context: { pad }, tools: {} },
      roots: { listChanged: true, pad },
      experimental: { anything: { pad } },
      tasks: { list: {} },
      [pad]: {},
    });
    expect(kept).toEqual({ elicitation: { form: {}, url: {} }, sampling: { context: {}, tools: {} }, roots: { listChanged: true } });
  });

  it('keeps a member only when it is an object (a flag only when boolean)', () => {
    expect(keptCapabilities({ elicitation: true, sampling: [], roots: { listChanged: 'yes' } })).toEqual({ roots: {} });
    expect(keptCapabilities('nothing')).toEqual({});
    expect(keptCapabilities(null)).toEqual({});
  });
});

describe('keptClientInfo', () => {
  it('keeps name, title and version, each cut, and the whole within the budget with the largest capabilities', () => {
    // The worst case for JSON: control characters, escaped as six bytes each.
    for (const filler of ['n', '\u0001', '"', '😀', '\ud800', 'é']) {
      const long = filler.repeat(10_000);
      const info = keptClientInfo({ name: long, title: long, version: long, description: long, icons: [{ src: long }] });
      expect(Object.keys(info ?? {})).toEqual(['name', 'title', 'version']);
      const capabilities = keptCapabilities({ elicitation: { form: {}, url: {} }, sampling: { context: {}, tools: {} }, roots: { listChanged: false } });
      expect(bytes({ clientCapabilities: capabilities, clientInfo: info }), JSON.stringify(filler)).toBeLessThanOrEqual(HANDSHAKE_BUDGET_BYTES);
    }
  });

  it('keeps what real clients send whole, and only strings', () => {
    expect(keptClientInfo({ name: 'claude-ai', version: '0.1.0', title: 'Claude' })).toEqual({ name: 'claude-ai', version: '0.1.0', title: 'Claude' });
    expect(keptClientInfo({ name: 7, version: { v: 1 } })).toEqual({});
    expect(keptClientInfo(undefined)).toBeUndefined();
  });
});

describe('cutForJson', () => {
  it('never cuts inside a character', () => {
    expect(cutForJson('ab😀c', 5)).toBe('ab');
    expect(cutForJson('ab😀c', 6)).toBe('ab😀');
    expect(cutForJson('a\nb', 3)).toBe('a\n');
    expect(cutForJson('x'.repeat(10), 4)).toBe('xxxx');
  });
});

describe('a session’s ctx.client.capabilities', () => {
  let client: RawStdioClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('is what the session kept of the handshake', async () => {
    let seen: unknown;
    const server = createServer({
      name: 'caps',
      version: '1.0.0',
      prompts: staticPrompts([definePrompt({ name: 'caps', get: (_args, ctx) => ((seen = ctx.client?.capabilities), 'ok') })]),
    });
    client = RawStdioClient.inProcess(server);
    await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {}, experimental: { pad: { pad: 'x'.repeat(1000) } } },
      clientInfo: { name: 'c', version: '1' },
    });
    client.notify('notifications/initialized');
    expect((await client.request('prompts/get', { name: 'caps' })).result).toBeDefined();
    expect(seen).toEqual({ sampling: {} });
  });
});
