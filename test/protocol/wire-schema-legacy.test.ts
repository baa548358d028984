/**
 * Every kind of response and notification the server sends on the legacy
 * revisions, captured from a real stdio pipe and validated against that
 * revision's official JSON Schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RevisionName, schemaErrors } from '../_schema.js';
import { initialize, RawStdioClient } from '../_stdio-client.js';
import type { Message } from '../_wire.js';

function expectSchema(revision: RevisionName, name: string, value: unknown): void {
  expect(schemaErrors(revision, name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

function expectResult(revision: RevisionName, name: string, response: Message): Message {
  expect(response.error, JSON.stringify(response.error)).toBeUndefined();
  expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse', response);
  expectSchema(revision, name, response.result);
  return response.result as Message;
}

function expectError(revision: RevisionName, response: Message, code: number): Message {
  expect(response.error?.code, JSON.stringify(response)).toBe(code);
  expectSchema(revision, revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse', response);
  return response.error as Message;
}

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe.each(['2025-06-18', '2025-11-25'] as const)('legacy revision %s on the wire', (revision) => {
  it('answers the handshake, lists, gets, completions and reads with schema-valid results', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    const init = expectResult(revision, 'InitializeResult', await initialize(client, revision));
    expect(init.protocolVersion).toBe(revision);
    expect(init.capabilities).toEqual({ logging: {}, completions: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } });
    // Implementation.description and icons exist only from 2025-11-25 on.
    expect('icons' in init.serverInfo).toBe(revision !== '2025-06-18');
    expect('description' in init.serverInfo).toBe(revision !== '2025-06-18');

    expect(expectResult(revision, 'EmptyResult', await client.request('ping'))).toEqual({});

    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = expectResult(revision, 'ListPromptsResult', await client.request('prompts/list', cursor ? { cursor } : {}));
      names.push(...page.prompts.map((p: Message) => p.name));
      for (const prompt of page.prompts) expect('icons' in prompt).toBe(revision !== '2025-06-18' && prompt.name === 'with_args');
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(3);
    expect(names).toEqual(['simple', 'with_args', 'content_kinds', 'many', 'pair', 'fails', 'slow', 'multiline']);

    for (const [name, args] of [
      ['simple', {}],
      ['with_args', { arg1: 'a', arg2: 'b' }],
      ['content_kinds', {}],
      ['pair', { fruit: 'apple' }],
    ] as const) {
      expectResult(revision, 'GetPromptResult', await client.request('prompts/get', { name, arguments: args }));
    }
    const kinds = expectResult(revision, 'GetPromptResult', await client.request('prompts/get', { name: 'content_kinds' }));
    expect(kinds.messages.map((m: Message) => m.content.type)).toEqual(['text', 'image', 'audio', 'resource_link', 'resource']);
    expect('icons' in kinds.messages[3].content).toBe(revision !== '2025-06-18');

    const completion = expectResult(
      revision,
      'CompleteResult',
      await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'with_args' }, argument: { name: 'arg1', value: 'al' } }),
    );
    expect(completion.completion.values).toEqual(['alpha', 'alphabet']);
    const many = expectResult(
      revision,
      'CompleteResult',
      await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'many' }, argument: { name: 'value', value: '' } }),
    );
    expect(many.completion).toMatchObject({ total: 250, hasMore: true });
    expect(many.completion.values).toHaveLength(100);
    const template = expectResult(
      revision,
      'CompleteResult',
      await client.request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '12' },
      }),
    );
    expect(template.completion.values).toEqual(['123', '124']);

    const resources = expectResult(revision, 'ListResourcesResult', await client.request('resources/list'));
    expect(resources.resources.map((r: Message) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched']);
    const templates = expectResult(revision, 'ListResourceTemplatesResult', await client.request('resources/templates/list'));
    expect(templates.resourceTemplates[0].uriTemplate).toBe('test://template/{id}/data');
    const text = expectResult(revision, 'ReadResourceResult', await client.request('resources/read', { uri: 'test://static-text' }));
    expect(text.contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'static text' }]);
    const binary = expectResult(revision, 'ReadResourceResult', await client.request('resources/read', { uri: 'test://static-binary' }));
    expect(binary.contents[0].blob).toMatch(/^iVBOR/);
    const data = expectResult(revision, 'ReadResourceResult', await client.request('resources/read', { uri: 'test://template/123/data' }));
    expect(JSON.parse(data.contents[0].text)).toEqual({ id: 123 });
  });

  it('answers every client mistake with the specified error, schema-valid', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    await initialize(client, revision);
    const unknown = expectError(revision, await client.request('prompts/get', { name: 'nope' }), -32602);
    expect(unknown.message).toContain('nope');
    const missing = expectError(revision, await client.request('prompts/get', { name: 'with_args', arguments: { arg1: 'x' } }), -32602);
    expect(missing.message).toContain('arg2');
    expectError(revision, await client.request('prompts/get', { name: 'with_args', arguments: { arg1: 1, arg2: 'x' } }), -32602);
    expectError(revision, await client.request('prompts/get', {}), -32602);
    expectError(revision, await client.request('prompts/list', { cursor: 'garbage' }), -32602);
    expectError(revision, await client.request('prompts/list', { cursor: 42 }), -32602);
    expectError(revision, await client.request('tools/list'), -32601);
    expectError(revision, await client.request('server/discover'), -32601);
    expectError(
      revision,
      await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }),
      -32602,
    );
    expectError(revision, await client.request('completion/complete', { ref: { type: 'ref/unknown' }, argument: { name: 'x', value: '' } }), -32602);
    const notFound = expectError(revision, await client.request('resources/read', { uri: 'test://nonexistent' }), -32002);
    expect(notFound.data).toEqual({ uri: 'test://nonexistent' });
    expectError(revision, await client.request('resources/read', { uri: 'test://template/abc/data' }), -32002);
    const internal = expectError(revision, await client.request('prompts/get', { name: 'fails' }), -32603);
    expect(JSON.stringify(internal)).not.toContain('secret');
    await client.waitForStderr('secret internal detail');
    expectError(revision, await client.request('initialize', { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'a', version: '1' } }), -32600);
  });

  it('negotiates down to the newest legacy revision for an unknown version', async () => {
    client = RawStdioClient.fixture();
    const init = await initialize(client, '1900-01-01');
    expect(init.result.protocolVersion).toBe('2025-11-25');
  });

  it('sends schema-valid change notifications, and resource updates only to subscribers', { tags: ['schema'] }, async () => {
    client = RawStdioClient.fixture();
    await initialize(client, revision);
    expectResult(revision, 'EmptyResult', await client.request('resources/subscribe', { uri: 'test://watched' }));
    client.child.kill('SIGUSR2');
    const prompts = await client.waitFor((m) => m.method === 'notifications/prompts/list_changed');
    expectSchema(revision, 'PromptListChangedNotification', prompts);
    const list = await client.waitFor((m) => m.method === 'notifications/resources/list_changed');
    expectSchema(revision, 'ResourceListChangedNotification', list);
    const updated = await client.waitFor((m) => m.method === 'notifications/resources/updated');
    expectSchema(revision, 'ResourceUpdatedNotification', updated);
    expect(updated.params).toEqual({ uri: 'test://watched' });
    const listed = await client.request('prompts/list', { cursor: (await client.request('prompts/list')).result.nextCursor });
    expect(listed.result.prompts.length).toBeGreaterThan(0);

    expectResult(revision, 'EmptyResult', await client.request('resources/unsubscribe', { uri: 'test://watched' }));
    const before = client.notifications('notifications/resources/updated').length;
    client.child.kill('SIGUSR2');
    await client.waitFor((m) => m.method === 'notifications/prompts/list_changed' && client!.notifications(m.method).length === 2);
    // The ping round trip orders: any update would have been written before its reply.
    await client.request('ping');
    expect(client.notifications('notifications/resources/updated')).toHaveLength(before);
  });
});
