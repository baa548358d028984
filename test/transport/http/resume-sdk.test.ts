/**
 * The official v1 client (@modelcontextprotocol/sdk StreamableHTTPClientTransport)
 * against `serveHttp`: its GET stream is cut, notifications are sent while
 * it is, and the client's own reconnection (GET with Last-Event-ID, after the
 * server's `retry`) gets each of them exactly once, in order.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, serveHttp } from '../../../src/http.js';
import { createServer, defineResource, liveResources } from '../../../src/index.js';
import { cuttableGets, eventually } from '../../_http-client.js';

const URIS = Array.from({ length: 6 }, (_, i) => `test://r${i}`);

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('the v1 client', () => {
  it('gets the notifications sent while its GET stream was cut, once each (2025-11-25)', async () => {
    const resources = liveResources({ resources: URIS.map((uri) => defineResource({ uri, name: uri.slice(7), read: () => uri })) });
    const server = createServer({ name: 'resume-sdk', version: '1', resources });
    running = await serveHttp(server, { host: '127.0.0.1', port: 0, resumption: { retryMs: 20 } });
    // The GET stream's fetch: each can be cut by the test; a reconnection waits until the test lets it through.
    const { fetch: fetchFn, gets, letThrough } = cuttableGets();
    const transport = new StreamableHTTPClientTransport(running.url, {
      fetch: fetchFn,
      reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
    });
    const client = new Client({ name: 'resume-v1', version: '1' });
    const received: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      received.push(notification.params.uri);
    });
    await client.connect(transport);
    for (const uri of URIS) await client.subscribeResource({ uri });
    await eventually(() => gets.length === 1);
    resources.updated(URIS[0] as string);
    resources.updated(URIS[1] as string);
    await eventually(() => received.length === 2);
    // The connection breaks under the client: it will reconnect with the last id it saw.
    gets[0]?.abort.abort();
    for (const uri of URIS.slice(2, 5)) resources.updated(uri);
    letThrough();
    await eventually(() => gets.length === 2);
    expect(gets[1]?.lastEventId).toMatch(/^g[0-9a-f]{32}_[0-9]+$/);
    await eventually(() => received.length === 5);
    resources.updated(URIS[5] as string);
    await eventually(() => received.length === 6);
    expect(received).toEqual(URIS);
    await client.close();
  });
});
