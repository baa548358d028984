/**
 * The official SDK clients over Streamable HTTP against the built package:
 * v1 (@modelcontextprotocol/sdk) with sessions and in stateless mode, at
 * 2025-11-25 and 2025-06-18; v2 (@modelcontextprotocol/client) at
 * 2026-07-28. The server is test/fixtures/servers/live-http.mjs, a real
 * process on an ephemeral 127.0.0.1 port.
 */
import type { ChildProcess } from 'node:child_process';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startHttpFixture } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { offering } from './_offering.js';

const FIXTURE = `${ROOT}test/fixtures/servers/live-http.mjs`;
const EXPECTED_PROMPTS = ['simple', 'with_args', 'content_kinds', 'many', 'pair'];

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

/** Starts the fixture and resolves with its endpoint. */
function startServer(stateless = false): Promise<{ url: URL; child: ChildProcess }> {
  return startHttpFixture(FIXTURE, stateless ? ['--stateless'] : [], closers);
}

async function connectV1(url: URL, version?: '2025-06-18') {
  const transport = new HttpV1(url);
  // v1 always offers its newest revision; the offer is rewritten to pin an older one.
  if (version) offering(transport, version);
  const client = new ClientV1({ name: 'sdk-v1-http', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

async function allPromptNames(client: ClientV1): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    names.push(...page.prompts.map((p) => p.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { names, pages };
}

async function journeyV1(client: ClientV1): Promise<void> {
  expect(client.getServerVersion()).toMatchObject({ name: 'fixture', version: '1.0.0' });
  const { names, pages } = await allPromptNames(client);
  expect(pages).toBe(2);
  expect(names).toEqual(EXPECTED_PROMPTS);
  const got = await client.getPrompt({ name: 'with_args', arguments: { arg1: 'one', arg2: 'two' } });
  expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'arg1=one arg2=two' } }]);
  const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'with_args' }, argument: { name: 'arg1', value: 'ALP' } });
  expect(completed.completion.values).toEqual(['alpha', 'alphabet']);
  const context = await client.complete({
    ref: { type: 'ref/prompt', name: 'pair' },
    argument: { name: 'variety', value: '' },
    context: { arguments: { fruit: 'apple' } },
  });
  expect(context.completion.values).toEqual(['gala', 'fuji']);
  const read = await client.readResource({ uri: 'test://template/123/data' });
  expect(read.contents).toEqual([{ uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":123}' }]);
  const binary = await client.readResource({ uri: 'test://static-binary' });
  expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png' });
  await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
}

describe.each([undefined, '2025-06-18'] as const)('SDK v1 over Streamable HTTP with sessions (offering %s)', (version) => {
  it('lists across pages, gets with arguments, completes and reads resources', async () => {
    const { url } = await startServer();
    const { client, transport } = await connectV1(url, version);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    await journeyV1(client);
  });

  it('receives prompt list changes and updates of a subscribed resource on the GET stream, and ends the session', async () => {
    const { url, child } = await startServer();
    const { client, transport } = await connectV1(url, version);
    const seen: string[] = [];
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push('prompts'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`updated ${n.params.uri}`));
    await client.subscribeResource({ uri: 'test://watched' });
    // The GET stream opens right after initialized; wait for it before changing anything.
    await eventually(async () => {
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 50));
      return seen.includes('prompts') && seen.includes('updated test://watched');
    });
    expect((await allPromptNames(client)).names).toContain('added');
    expect((await client.readResource({ uri: 'test://watched' })).contents[0]).toMatchObject({ text: expect.stringMatching(/^version \d+$/) });
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  });
});

describe('SDK v1 over Streamable HTTP, stateless server', () => {
  it('works without a session id', async () => {
    const { url } = await startServer(true);
    const { client, transport } = await connectV1(url);
    expect(transport.sessionId).toBeUndefined();
    await journeyV1(client);
  });
});

describe('SDK v2 over Streamable HTTP on 2026-07-28', () => {
  async function connectV2(url: URL, options: ConstructorParameters<typeof ClientV2>[1]) {
    const client = new ClientV2({ name: 'sdk-v2-http', version: '2.0.0' }, options);
    await client.connect(new HttpV2(url));
    closers.push(() => client.close());
    return client;
  }

  it('discovers, lists every page, gets, completes and reads without a handshake', async () => {
    const { url } = await startServer();
    const client = await connectV2(url, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
    const got = await client.getPrompt({ name: 'with_args', arguments: { arg1: 'x', arg2: 'line\nbreak' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'arg1=x arg2=line\nbreak' });
    const many = await client.complete({ ref: { type: 'ref/prompt', name: 'many' }, argument: { name: 'value', value: '' } });
    expect(many.completion).toMatchObject({ total: 250, hasMore: true });
    const template = await client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '12' } });
    expect(template.completion.values).toEqual(['123', '124']);
    expect((await client.listResources()).resources).toHaveLength(3);
    expect((await client.readResource({ uri: 'test://static-binary' })).contents[0]).toMatchObject({ mimeType: 'image/png' });
    await expect(client.readResource({ uri: 'test://nonexistent' })).rejects.toMatchObject({ code: -32602 });
  });

  it('receives list changes and resource updates through subscriptions/listen', async () => {
    const { url, child } = await startServer();
    const client = await connectV2(url, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const seen: Array<{ method: string; id: unknown; uri?: string }> = [];
    client.setNotificationHandler('notifications/prompts/list_changed', (n) => {
      seen.push({ method: n.method, id: n.params?._meta?.['io.modelcontextprotocol/subscriptionId'] });
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      seen.push({ method: n.method, id: n.params._meta?.['io.modelcontextprotocol/subscriptionId'], uri: n.params.uri });
    });
    const subscription = await client.listen({ promptsListChanged: true, resourceSubscriptions: ['test://watched'] }, { timeout: 5000 });
    expect(subscription.honoredFilter).toEqual({ promptsListChanged: true, resourceSubscriptions: ['test://watched'] });
    child.kill('SIGUSR2');
    await eventually(() => seen.length === 2);
    expect(seen).toContainEqual({ method: 'notifications/prompts/list_changed', id: expect.any(String) });
    expect(seen).toContainEqual({ method: 'notifications/resources/updated', id: expect.any(String), uri: 'test://watched' });
    const after = await client.listPrompts(undefined, { cacheMode: 'bypass' } as never);
    expect(after.prompts.map((p) => p.name)).toContain('added');
    await subscription.close();
    expect(await subscription.closed).toBe('local');
  });

  it('probes in auto mode and stays modern; a legacy-only v2 client gets a session', async () => {
    const { url } = await startServer();
    const auto = await connectV2(url, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } } as never);
    expect(auto.getProtocolEra()).toBe('modern');
    const legacy = await connectV2(url, { supportedProtocolVersions: ['2025-06-18'] });
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-06-18');
    expect((await legacy.listPrompts()).prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
  });
});
