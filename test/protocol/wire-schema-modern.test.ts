/**
 * Every kind of response and notification the server sends on 2026-07-28,
 * captured from a real stdio pipe and validated against the official schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { schemaErrors } from '../_schema.js';
import { RawStdioClient } from '../_stdio-client.js';
import { type Message, modern, modernMeta } from '../_wire.js';

const REV = '2026-07-28';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function expectSchema(name: string, value: unknown): void {
  expect(schemaErrors(REV, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

function expectResult(name: string, response: Message, cacheable: boolean): Message {
  expect(response.error, JSON.stringify(response.error)).toBeUndefined();
  expectSchema('JSONRPCResultResponse', response);
  expectSchema(name, response.result);
  const result = response.result as Message;
  expect(result.resultType).toBe('complete');
  expect(result._meta[SERVER_INFO]).toMatchObject({ name: 'fixture', version: '1.0.0' });
  // Cache hints only on cacheable results (2026-07-28 server/utilities/caching).
  expect('ttlMs' in result).toBe(cacheable);
  expect('cacheScope' in result).toBe(cacheable);
  return result;
}

// The schema defines the -32022 and -32020 errors as whole responses and the
// standard JSON-RPC errors as error objects.
const ENVELOPE_DEFINITIONS = new Set(['UnsupportedProtocolVersionError', 'HeaderMismatchError']);

/** An error validated against the 2026 definition for its code. */
function expectError(response: Message, code: number, definition: string): Message {
  expect(response.error?.code, JSON.stringify(response)).toBe(code);
  expectSchema('JSONRPCErrorResponse', response);
  expectSchema(definition, ENVELOPE_DEFINITIONS.has(definition) ? response : response.error);
  return response.error as Message;
}

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('2026-07-28 on the wire', () => {
  it('serves discover, lists, gets, completions and reads without a handshake', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    const discover = expectResult('DiscoverResult', await client.request('server/discover', modern()), true);
    expect(discover.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18']);
    expect(discover.capabilities).toEqual({ logging: {}, completions: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } });
    expect(discover.ttlMs).toBe(0);
    expect(discover.cacheScope).toBe('public');

    let cursor: string | undefined;
    const names: string[] = [];
    do {
      const page = expectResult('ListPromptsResult', await client.request('prompts/list', modern(cursor ? { cursor } : {})), true);
      names.push(...page.prompts.map((p: Message) => p.name));
      cursor = page.nextCursor;
    } while (cursor && names.length < 100);
    expect(names).toHaveLength(8);

    const kinds = expectResult('GetPromptResult', await client.request('prompts/get', modern({ name: 'content_kinds' })), false);
    expect(kinds.messages).toHaveLength(5);
    expectResult('GetPromptResult', await client.request('prompts/get', modern({ name: 'with_args', arguments: { arg1: 'a', arg2: 'b' } })), false);
    const complete = expectResult(
      'CompleteResult',
      await client.request('completion/complete', modern({ ref: { type: 'ref/prompt', name: 'many' }, argument: { name: 'value', value: 'value-1' } })),
      false,
    );
    // 100 prefix matches fill the page; fuzzy matches (e.g. value-010) remain, so hasMore.
    expect(complete.completion.values).toHaveLength(100);
    expect(complete.completion.values[0]).toBe('value-100');
    expect(complete.completion.hasMore).toBe(true);
    expectResult('ListResourcesResult', await client.request('resources/list', modern()), true);
    expectResult('ListResourceTemplatesResult', await client.request('resources/templates/list', modern()), true);
    expectResult('ReadResourceResult', await client.request('resources/read', modern({ uri: 'test://static-binary' })), true);
    expectResult('ReadResourceResult', await client.request('resources/read', modern({ uri: 'test://template/7/data' })), true);
  });

  it('rejects bad envelopes and removed methods with the 2026 codes', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    const unsupported = expectError(await client.request('prompts/list', { _meta: modernMeta('2099-01-01') }), -32022, 'UnsupportedProtocolVersionError');
    expect(unsupported.data).toEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });

    const noCapabilities = { _meta: { 'io.modelcontextprotocol/protocolVersion': REV } };
    expectError(await client.request('prompts/list', noCapabilities), -32602, 'InvalidParamsError');
    const noVersion = { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } };
    expectError(await client.request('prompts/list', noVersion), -32602, 'InvalidParamsError');
    // clientInfo is optional (basic/index §_meta: servers MUST NOT require it).
    const withoutInfo = { _meta: { 'io.modelcontextprotocol/protocolVersion': REV, 'io.modelcontextprotocol/clientCapabilities': {} } };
    expect((await client.request('prompts/list', withoutInfo)).result).toBeDefined();

    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'tools/list']) {
      expectError(await client.request(method, modern({ uri: 'test://watched' })), -32601, 'MethodNotFoundError');
    }

    const missing = expectError(await client.request('resources/read', modern({ uri: 'test://nonexistent' })), -32602, 'InvalidParamsError');
    expect(missing.data).toEqual({ uri: 'test://nonexistent' });
    expectError(await client.request('prompts/get', modern({ name: 'nope' })), -32602, 'InvalidParamsError');
    expectError(await client.request('prompts/list', modern({ cursor: 'garbage' })), -32602, 'InvalidParamsError');
    expectError(await client.request('prompts/get', modern({ name: 'fails' })), -32603, 'InternalError');

    // Statelessness: a full envelope earlier does not excuse a missing one later (basic/index §Statelessness).
    await client.request('server/discover', modern());
    expectError(await client.request('prompts/list', noCapabilities), -32602, 'InvalidParamsError');
    expect(client.received.some((m) => m.error?.code === -32002)).toBe(false);
  });

  it('acknowledges a listen, filters and tags its notifications, and ends it with a result on shutdown', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    client.send({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: modern({ notifications: { promptsListChanged: true, toolsListChanged: true, resourceSubscriptions: ['test://watched'] } }),
    });
    client.send({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: modern({ notifications: { resourcesListChanged: true } }) });
    const ack = await client.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUBSCRIPTION_ID] === 'listen-1');
    expectSchema('SubscriptionsAcknowledgedNotification', ack);
    // toolsListChanged is dropped: this server has no tools.
    expect(ack.params.notifications).toEqual({ promptsListChanged: true, resourceSubscriptions: ['test://watched'] });
    await client.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUBSCRIPTION_ID] === 7);

    client.child.kill('SIGUSR2');
    const prompts = await client.waitFor((m) => m.method === 'notifications/prompts/list_changed');
    expectSchema('PromptListChangedNotification', prompts);
    expect(prompts.params._meta[SUBSCRIPTION_ID]).toBe('listen-1');
    const updated = await client.waitFor((m) => m.method === 'notifications/resources/updated');
    expectSchema('ResourceUpdatedNotification', updated);
    expect(updated.params).toEqual({ uri: 'test://watched', _meta: { [SUBSCRIPTION_ID]: 'listen-1' } });
    const listChanged = await client.waitFor((m) => m.method === 'notifications/resources/list_changed');
    expect(listChanged.params._meta[SUBSCRIPTION_ID]).toBe(7);
    // Each subscription got only what it asked for.
    expect(client.notifications('notifications/prompts/list_changed')).toHaveLength(1);
    expect(client.notifications('notifications/resources/list_changed')).toHaveLength(1);

    client.child.kill('SIGTERM');
    const ended = await client.waitFor((m) => m.id === 'listen-1' && 'result' in m);
    expectSchema('JSONRPCResultResponse', ended);
    expectSchema('SubscriptionsListenResult', ended.result);
    expect(ended.result).toMatchObject({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'listen-1' } });
    await client.waitFor((m) => m.id === 7 && 'result' in m);
    expect(await client.exited).toEqual({ code: 0, signal: null });
  });

  it('sends nothing more for a cancelled listen or request', async () => {
    client = RawStdioClient.fixture();
    client.send({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: modern({ notifications: { promptsListChanged: true } }) });
    await client.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    client.notify('notifications/cancelled', modern({ requestId: 'l' }));
    client.send({ jsonrpc: '2.0', id: 's', method: 'prompts/get', params: modern({ name: 'slow' }) });
    client.notify('notifications/cancelled', modern({ requestId: 's', reason: 'test' }));
    await client.request('server/discover', modern());
    client.child.kill('SIGUSR2');
    await client.request('server/discover', modern());
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.request('server/discover', modern());
    expect(client.notifications('notifications/prompts/list_changed')).toHaveLength(0);
    expect(client.received.filter((m) => m.id === 'l' || m.id === 's')).toEqual([]);
  });
});
