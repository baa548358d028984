/**
 * A required prompt argument given with an empty value is a missing one, on
 * the wire: -32602 naming it, on every revision and both transports, and the
 * prompt's provider never runs. (The engine checks; this pins that every
 * revision adapter and transport leaves the check to it.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, definePrompt, staticPrompts } from '../../src/index.js';
import { HTTP_CLIENTS, json, modernPost, post, type RawHttpClient } from '../_http-client.js';
import { BIN, initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';

const LEGACY = ['2025-06-18', '2025-11-25'] as const;

/** The error the engine sends for "who" of the skill `greeting` (or of the prompt below). */
const missingWho = (prompt: string) => ({
  code: -32602,
  message: `Missing required argument "who" for prompt "${prompt}"`,
  data: { name: prompt, argument: 'who' },
});

describe('an empty required argument over stdio', () => {
  let client: RawStdioClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it.each(LEGACY)('answers -32602 naming it in a %s session', async (version) => {
    client = RawStdioClient.spawn(BIN, ['serve', `${ROOT}test/fixtures/skills/valid`, '--log-level', 'silent']);
    await initialize(client, version);
    const response = await client.request('prompts/get', { name: 'greeting', arguments: { who: '' } });
    expect(response.error).toEqual(missingWho('greeting'));
  });

  it('answers -32602 naming it on 2026-07-28', async () => {
    client = RawStdioClient.spawn(BIN, ['serve', `${ROOT}test/fixtures/skills/valid`, '--log-level', 'silent']);
    const response = await client.request('prompts/get', modern({ name: 'greeting', arguments: { who: '', language: 'german' } }));
    expect(response.error).toEqual(missingWho('greeting'));
    // A value, even a blank one, is served.
    const served = await client.request('prompts/get', modern({ name: 'greeting', arguments: { who: ' ' } }));
    expect(served.result.messages[0].content.text).toContain('Say hello to');
  });
});

for (const [label, makeTarget] of Object.entries(HTTP_CLIENTS)) {
  describe(`an empty required argument over Streamable HTTP, ${label}`, () => {
    let target: RawHttpClient | undefined;
    let calls = 0;
    afterEach(async () => {
      await target?.close();
      target = undefined;
    });

    async function start(): Promise<RawHttpClient> {
      calls = 0;
      const server = createServer({
        name: 'test',
        version: '1.0.0',
        prompts: staticPrompts([definePrompt({ name: 'hello', arguments: [{ name: 'who', required: true }], get: ({ who }) => (calls++, `Hello ${who}`) })]),
      });
      target = await makeTarget(server);
      return target;
    }

    it.each(LEGACY)('answers -32602 naming it in a %s session', async (version) => {
      const t = await start();
      const opened = await post(t, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') as string, 'mcp-protocol-version': version };
      await opened.body?.cancel();
      await (await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
      const answer: Message = await json(
        await post(t, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'hello', arguments: { who: '' } } }, headers),
      );
      expect(answer.error).toEqual(missingWho('hello'));
      expect(calls).toBe(0);
    });

    it('answers -32602 naming it on 2026-07-28', async () => {
      const t = await start();
      const answer = await json(await modernPost(t, 'prompts/get', { name: 'hello', arguments: { who: '' } }));
      expect(answer.error).toEqual(missingWho('hello'));
      expect(calls).toBe(0);
    });
  });
}
