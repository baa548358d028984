/**
 * The official SDK clients as real peers over real stdio pipes: v1
 * (@modelcontextprotocol/sdk, negotiating 2025-11-25 and 2025-06-18) and v2
 * (@modelcontextprotocol/client, speaking 2026-07-28 and 2025-06-18).
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '../_stdio-client.js';
import { offering } from './_offering.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Resolves when `check` holds, polling briefly; the bound keeps a broken server from hanging the test. */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const EXPECTED_PROMPTS = ['simple', 'with_args', 'content_kinds', 'many', 'pair', 'fails', 'slow', 'multiline'];

async function connectV1(version?: '2025-06-18') {
  const transport = new StdioV1({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' });
  // v1 always offers its newest revision; the offer is rewritten to pin an older one.
  if (version) offering(transport, version);
  const client = new ClientV1({ name: 'sdk-v1-test', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

describe.each([undefined, '2025-06-18'] as const)('SDK v1 client (offering %s)', (version) => {
  it('lists across pages, gets with arguments, completes, and reads resources', async () => {
    const { client } = await connectV1(version);
    expect(client.getServerVersion()).toMatchObject({ name: 'fixture', version: '1.0.0' });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(EXPECTED_PROMPTS);

    const got = await client.getPrompt({ name: 'with_args', arguments: { arg1: 'one', arg2: 'two' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'arg1=one arg2=two' } }]);

    const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'with_args' }, argument: { name: 'arg1', value: 'ALP' } });
    expect(prompt.completion.values).toEqual(['alpha', 'alphabet']);
    const context = await client.complete({
      ref: { type: 'ref/prompt', name: 'pair' },
      argument: { name: 'variety', value: '' },
      context: { arguments: { fruit: 'apple' } },
    });
    expect(context.completion.values).toEqual(['gala', 'fuji']);
    const template = await client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '2' } });
    expect(template.completion.values).toEqual(['200', '123', '124']);

    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched']);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    const read = await client.readResource({ uri: 'test://template/123/data' });
    expect(read.contents).toEqual([{ uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":123}' }]);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('receives prompt list changes and updates of a subscribed resource', async () => {
    const { client, transport } = await connectV1(version);
    const seen: string[] = [];
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push('prompts'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`updated ${n.params.uri}`));
    await client.subscribeResource({ uri: 'test://watched' });
    process.kill(transport.pid as number, 'SIGUSR2');
    await eventually(() => seen.includes('prompts') && seen.includes('updated test://watched'));
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      all.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(all).toContain('added');
    expect((await client.readResource({ uri: 'test://watched' })).contents[0]).toMatchObject({ text: 'version 2' });
  });
});

/** A subclass probes with server/discover in the session process itself, instead of a throwaway sibling. */
class InPlaceStdio extends StdioV2 {}

async function connectV2(options: ConstructorParameters<typeof ClientV2>[1], inPlace = true) {
  const Transport = inPlace ? InPlaceStdio : StdioV2;
  const transport = new Transport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' });
  const client = new ClientV2({ name: 'sdk-v2-test', version: '2.0.0' }, options);
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

describe('SDK v2 client on 2026-07-28', () => {
  const modern = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

  it('discovers, lists all pages, gets, completes and reads without a handshake', async () => {
    const { client } = await connectV2(modern);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getProtocolEra()).toBe('modern');
    const all = await client.listPrompts();
    expect(all.prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
    const first = await client.request({ method: 'prompts/list', params: {} });
    expect(first.prompts).toHaveLength(3);
    expect(typeof first.nextCursor).toBe('string');

    const got = await client.getPrompt({ name: 'with_args', arguments: { arg1: 'x', arg2: 'line\nbreak' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'arg1=x arg2=line\nbreak' });
    const many = await client.complete({ ref: { type: 'ref/prompt', name: 'many' }, argument: { name: 'value', value: '' } });
    expect(many.completion).toMatchObject({ total: 250, hasMore: true });
    expect(many.completion.values).toHaveLength(100);
    const template = await client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '12' } });
    expect(template.completion.values).toEqual(['123', '124']);
    const resources = await client.listResources();
    expect(resources.resources).toHaveLength(3);
    const binary = await client.readResource({ uri: 'test://static-binary' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png' });
    await expect(client.readResource({ uri: 'test://nonexistent' })).rejects.toMatchObject({ code: -32602 });
  });

  it('works with the default sibling probe, where the session process never sees discover', async () => {
    const { client } = await connectV2(modern, false);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
  });

  it('receives list changes and resource updates through subscriptions/listen', async () => {
    const { client, transport } = await connectV2(modern);
    const seen: Array<{ method: string; id: unknown; uri?: string }> = [];
    client.setNotificationHandler('notifications/prompts/list_changed', (n) => {
      seen.push({ method: n.method, id: n.params?._meta?.['io.modelcontextprotocol/subscriptionId'] });
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      seen.push({ method: n.method, id: n.params._meta?.['io.modelcontextprotocol/subscriptionId'], uri: n.params.uri });
    });
    const subscription = await client.listen({ promptsListChanged: true, resourceSubscriptions: ['test://watched'] }, { timeout: 5000 });
    expect(subscription.honoredFilter).toEqual({ promptsListChanged: true, resourceSubscriptions: ['test://watched'] });
    process.kill(transport.pid as number, 'SIGUSR2');
    await eventually(() => seen.length === 2);
    expect(seen).toContainEqual({ method: 'notifications/prompts/list_changed', id: expect.any(String) });
    expect(seen).toContainEqual({ method: 'notifications/resources/updated', id: expect.any(String), uri: 'test://watched' });
    const after = await client.listPrompts(undefined, { cacheMode: 'bypass' } as never);
    expect(after.prompts.map((p) => p.name)).toContain('added');
    await subscription.close();
    expect(await subscription.closed).toBe('local');
  });
});

describe('SDK v2 client, revision chosen by the client', () => {
  it('negotiates 2025-06-18 and serves the same journey', async () => {
    const { client } = await connectV2({ supportedProtocolVersions: ['2025-06-18'] });
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-06-18');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
    const got = await client.getPrompt({ name: 'simple' });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Hello from simple.' });
  });

  it('probes with server/discover in auto mode and stays modern', async () => {
    const { client } = await connectV2({ versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } } as never);
    expect(client.getProtocolEra()).toBe('modern');
  });
});
