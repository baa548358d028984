/**
 * The clients of the cluster tests: the official v2 client pinned to
 * 2026-07-28, the v1 client with a legacy session (counting the GET streams
 * it opened), and raw 2026-07-28 prompts/list requests that no client cache
 * answers. Each client is closed by the `closers` the test runs after it.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';

export type Closers = Array<() => Promise<unknown>>;

export async function modernClient(url: string, closers: Closers): Promise<ClientV2> {
  const client = new ClientV2({ name: 'cluster-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(url)));
  closers.push(() => client.close());
  return client;
}

/** A v1 client with a legacy session; `streams` counts the GET streams it got open. */
export async function legacyClient(url: string, closers: Closers): Promise<{ client: ClientV1; transport: HttpV1; streams: () => number }> {
  let streams = 0;
  const transport = new HttpV1(new URL(url), {
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if ((init?.method ?? 'GET') === 'GET' && response.ok) streams++;
      return response;
    }) as typeof fetch,
  });
  const client = new ClientV1({ name: 'cluster-v1', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport, streams: () => streams };
}

/** Every prompt name, paged by hand with raw 2026-07-28 requests. */
export async function rawPromptNames(url: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const body = { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: modern(cursor === undefined ? {} : { cursor }) };
    const { result } = JSON.parse((await httpSend(url, { headers: modernHeaders(body), body: JSON.stringify(body) })).body);
    names.push(...result.prompts.map((p: { name: string }) => p.name));
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return names;
}
