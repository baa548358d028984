/**
 * `skillport serve --http --auth-token` with the official SDK v2 client
 * (@modelcontextprotocol/client): configured with the token as a header it
 * works; without it, a plain client gets a 401 that says a bearer token is
 * required, and an OAuth-capable client (one given an `authProvider`), which
 * goes looking for an authorization server, is told that there is none and
 * what to send instead, rather than failing on a bare 404.
 */
import { Client, type OAuthClientProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, HttpChild, httpBuilt } from '../reliability/_harness.js';

const TOKEN = 'e2e-static-token-7d1f';
const servers: HttpChild[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function serve(): Promise<URL> {
  const server = new HttpChild(BIN, ['serve', '--http', '127.0.0.1:0', '--auth-token', TOKEN]);
  servers.push(server);
  return server.url;
}

/** Every exchange the client makes, as "METHOD /path -> status". */
function recordingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    log.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} -> ${response.status}`);
    return response;
  };
}

/** An interactive OAuth client's provider, as an app would give one; it never gets as far as redirecting. */
function oauthProvider(): OAuthClientProvider {
  const stored: { client?: never; tokens?: never; verifier?: string } = {};
  return {
    get redirectUrl() {
      return 'http://127.0.0.1:9/callback';
    },
    get clientMetadata() {
      return { redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'e2e' };
    },
    clientInformation: () => stored.client,
    saveClientInformation: (client) => void (stored.client = client as never),
    tokens: () => stored.tokens,
    saveTokens: (tokens) => void (stored.tokens = tokens as never),
    redirectToAuthorization: () => {
      throw new Error('redirected to an authorization server that does not exist');
    },
    saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier ?? '',
  };
}

describe.skipIf(!httpBuilt())('a static --auth-token and the SDK v2 client', () => {
  it('serves a client configured with the token as a header', async () => {
    const url = await serve();
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    await client.close();
  });

  it('answers a client without the token with a 401 that says a bearer token is required', async () => {
    const url = await serve();
    const log: string[] = [];
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const failure = await client.connect(new StreamableHTTPClientTransport(url, { fetch: recordingFetch(log) })).then(
      () => undefined,
      (error: Error & { data?: { status?: number } }) => error,
    );
    expect(failure?.data?.status).toBe(401);
    expect(failure?.message).toContain('Unauthorized: a valid bearer token is required');
    expect(log).toEqual(['POST /mcp -> 401']);
  });

  it('tells an OAuth-capable client that there is no authorization server and what to send instead', async () => {
    const url = await serve();
    const log: string[] = [];
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const failure = await client.connect(new StreamableHTTPClientTransport(url, { fetch: recordingFetch(log), authProvider: oauthProvider() })).then(
      () => undefined,
      (error: Error) => error,
    );
    // The SDK falls back to the MCP server's origin as its authorization server (2025-03-26
    // behaviour) and ends at dynamic client registration; that answer now says what to do.
    expect(failure?.message).toContain('this server runs no OAuth authorization server; send its static token as Authorization: Bearer <token>');
    // No metadata document points anywhere: every discovery probe is a 404.
    const probes = log.filter((line) => line.includes('/.well-known/'));
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.filter((line) => !line.endsWith('-> 404'))).toEqual([]);
  });
});
