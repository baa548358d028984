/**
 * The official SDK clients with their own OAuth support against skillport
 * and a real authorization server: the first request gets 401, the client
 * follows `resource_metadata` to the Protected Resource Metadata, finds the
 * authorization server's metadata from it, gets a token through client
 * credentials for this server (RFC 8707 `resource`) and retries; then it
 * lists, gets and reads. SDK v1 over 2025-11-25, SDK v2 pinned to 2026-07-28.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2, ClientCredentialsProvider as ProviderV2 } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS, type Issuer, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] });
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
  await served?.close();
  await issuer?.stop();
});

/** Every exchange the client makes, as "METHOD origin-relative path -> status", its own or skillport's. */
function recordingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const who = url.origin === issuer.url ? 'AS' : 'MCP';
    log.push(`${who} ${init?.method ?? 'GET'} ${url.pathname} -> ${response.status}`);
    return response;
  };
}

function discovered(log: string[]): void {
  // The first MCP request is refused, then discovery runs from the challenge, then the retry succeeds.
  expect(log[0]).toBe('MCP POST /mcp -> 401');
  expect(log).toContain('MCP GET /.well-known/oauth-protected-resource/mcp -> 200');
  expect(log).toContain('AS GET /.well-known/openid-configuration -> 200');
  expect(log).toContain('AS POST /token -> 200');
  expect(log.indexOf('AS POST /token -> 200')).toBeLessThan(log.indexOf('MCP POST /mcp -> 200'));
}

describe('SDK v1 (2025-11-25) with ClientCredentialsProvider', () => {
  it('discovers the authorization server from the 401, gets a token, then lists, gets and reads', async () => {
    const log: string[] = [];
    const authProvider = new ProviderV1({ clientId: 'team-a', clientSecret: CLIENTS['team-a'] as string, scope: 'skills:read', expectedIssuer: issuer.url });
    const client = new ClientV1({ name: 'auth-v1', version: '1.0.0' });
    await client.connect(new HttpV1(new URL(served.url), { authProvider, fetch: recordingFetch(log) }));
    closers.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('auth-test');
    discovered(log);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('greeting');
    const got = await client.getPrompt({ name: 'greeting', arguments: { who: 'team' } });
    expect(got.messages.length).toBeGreaterThan(0);
    const resources = (await client.listResources()).resources;
    const skillMd = resources.find((r) => r.uri.endsWith('/greeting/SKILL.md'));
    expect(skillMd).toBeDefined();
    const read = await client.readResource({ uri: skillMd?.uri as string });
    expect(read.contents[0]).toMatchObject({ uri: skillMd?.uri });
  });
});

describe('SDK v2 (2026-07-28) with ClientCredentialsProvider', () => {
  it('discovers the authorization server from the 401, gets a token, then lists, gets and reads', async () => {
    const log: string[] = [];
    const authProvider = new ProviderV2({ clientId: 'team-a', clientSecret: CLIENTS['team-a'] as string, scope: 'skills:read', expectedIssuer: issuer.url });
    const client = new ClientV2({ name: 'auth-v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(new URL(served.url), { authProvider, fetch: recordingFetch(log) }));
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('greeting');
    discovered(log);
    const got = await client.getPrompt({ name: 'greeting', arguments: { who: 'team' } });
    expect(got.messages.length).toBeGreaterThan(0);
    const skillMd = (await client.listResources()).resources.find((r) => r.uri.endsWith('/greeting/SKILL.md'));
    expect(skillMd).toBeDefined();
    expect((await client.readResource({ uri: skillMd?.uri as string })).contents[0]).toMatchObject({ uri: skillMd?.uri });
  });
});
