/**
 * What a client may keep subscribed, and for how long a request is kept: a
 * legacy session's `resources/subscribe` URIs and a 2026-07-28 listen filter
 * are capped in number and URI length (-32602 past either), and an open
 * listen request keeps its filter, not its message.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createServer, definePrompt, livePrompts, liveResources } from '../../src/index.js';
import type { Connection } from '../../src/server/index.js';
import { modernMeta } from '../_wire.js';

type Message = Record<string, any>;

const META = modernMeta();
const LIMITS = { maxSubscriptions: 3, maxSubscriptionUriBytes: 32 };

function live(sent: Message[] = []): Connection {
  const server = createServer({
    name: 't',
    version: '1',
    resources: liveResources(),
    prompts: livePrompts([definePrompt({ name: 'p', get: () => 'x' })]),
    limits: LIMITS,
  });
  return server.connect({ send: (message) => void sent.push(message as Message) });
}

async function legacy(): Promise<(method: string, uri: string) => Promise<Message>> {
  const connection = live();
  await connection.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  let id = 0;
  return async (method, uri) => (await connection.receive({ jsonrpc: '2.0', id: ++id, method, params: { uri } })) as Message;
}

describe('resources/subscribe (2025-06-18, 2025-11-25)', () => {
  it('holds at most maxSubscriptions URIs per session; more is -32602 until one is unsubscribed', async () => {
    const call = await legacy();
    for (const uri of ['x://a', 'x://b', 'x://c']) expect((await call('resources/subscribe', uri)).result).toEqual({});
    const over = await call('resources/subscribe', 'x://d');
    expect(over.error).toMatchObject({ code: -32602, data: { field: 'uri', max: 3 } });
    // One already held is no new subscription.
    expect((await call('resources/subscribe', 'x://b')).result).toEqual({});
    expect((await call('resources/unsubscribe', 'x://a')).result).toEqual({});
    expect((await call('resources/subscribe', 'x://d')).result).toEqual({});
  });

  it('refuses a URI longer than maxSubscriptionUriBytes in UTF-8 with -32602', async () => {
    const call = await legacy();
    expect((await call('resources/subscribe', `x://${'a'.repeat(28)}`)).result).toEqual({});
    expect((await call('resources/subscribe', `x://${'a'.repeat(29)}`)).error).toMatchObject({ code: -32602, data: { maxBytes: 32 } });
    // 14 two-byte characters: 28 characters of text, 32 bytes with the scheme; one more is over.
    expect((await call('resources/subscribe', `x://${'é'.repeat(14)}`)).result).toEqual({});
    expect((await call('resources/subscribe', `x://${'é'.repeat(15)}`)).error?.code).toBe(-32602);
  });
});

describe('subscriptions/listen (2026-07-28)', () => {
  async function listen(uris: string[]): Promise<{ response: Message | undefined; sent: Message[]; connection: Connection }> {
    const sent: Message[] = [];
    const connection = live(sent);
    const pending = connection.receive({
      jsonrpc: '2.0',
      id: 'l',
      method: 'subscriptions/listen',
      params: { _meta: META, notifications: { resourceSubscriptions: uris } },
    });
    const response = (await Promise.race([pending, new Promise((resolve) => setImmediate(resolve))])) as Message | undefined;
    return { response, sent, connection };
  }

  it('refuses a filter with more than maxSubscriptions distinct URIs, or a longer URI, with -32602 and no acknowledgement', async () => {
    const many = await listen(['x://a', 'x://b', 'x://c', 'x://d']);
    expect(many.response?.error).toMatchObject({ code: -32602, data: { field: 'notifications.resourceSubscriptions', max: 3 } });
    expect(many.sent).toEqual([]);
    const long = await listen([`x://${'a'.repeat(29)}`]);
    expect(long.response?.error).toMatchObject({ code: -32602, data: { field: 'notifications.resourceSubscriptions', maxBytes: 32 } });
  });

  it('acknowledges a filter at the caps, duplicates counted once', async () => {
    const { response, sent, connection } = await listen(['x://a', 'x://b', 'x://a', `x://${'c'.repeat(28)}`]);
    expect(response).toBeUndefined();
    expect(sent[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: ['x://a', 'x://b', `x://${'c'.repeat(28)}`] } },
    });
    connection.close('disconnect');
  });

  it('keeps no open listen request its message: only the filter lives on', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const connection = live();
    let collected = false;
    const registry = new FinalizationRegistry(() => {
      collected = true;
    });
    (() => {
      const message = {
        jsonrpc: '2.0',
        id: 'l',
        method: 'subscriptions/listen',
        params: { _meta: META, notifications: { promptsListChanged: true }, pad: 'p'.repeat(1000) },
      };
      registry.register(message.params, 'params');
      void connection.receive(message);
    })();
    for (let i = 0; i < 20 && !collected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    }
    expect(collected).toBe(true);
    connection.close('disconnect');
  });
});
