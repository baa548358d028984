/**
 * Where the authorization server's metadata is looked for: RFC 8414 §3.1
 * inserts the well-known segment between the host and the issuer's path;
 * OpenID Connect Discovery 1.0 §4 appends it (MCP 2025-11-25
 * basic/authorization §Authorization Server Metadata Discovery lists both).
 * And what is found there is used only when it names the issuer configured
 * (RFC 8414 §3.3), against the real provider.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { metadataUrls } from '../../../../src/transport/http/auth/discovery.js';
import { createOAuthGate } from '../../../../src/transport/http/auth/oauth.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

describe('metadataUrls', () => {
  it.each([
    [
      'https://login.example.com',
      ['https://login.example.com/.well-known/oauth-authorization-server', 'https://login.example.com/.well-known/openid-configuration'],
    ],
    [
      'https://tenant.example.com/',
      ['https://tenant.example.com/.well-known/oauth-authorization-server', 'https://tenant.example.com/.well-known/openid-configuration'],
    ],
    [
      'https://login.example.com/realms/acme',
      [
        'https://login.example.com/.well-known/oauth-authorization-server/realms/acme',
        'https://login.example.com/realms/acme/.well-known/openid-configuration',
      ],
    ],
  ])('%s', (issuer, urls) => {
    expect(metadataUrls(issuer)).toEqual(urls);
  });
});

describe('options refused at start', () => {
  it.each([
    [{ issuer: 'https://as.example', algorithms: ['HS256'] }, 'oauth.algorithms: HS256 is not an asymmetric JWS algorithm'],
    [{ issuer: 'https://as.example', algorithms: ['none'] }, 'oauth.algorithms: none is not an asymmetric JWS algorithm'],
    [{ issuer: 'https://as.example', scopes: ['a"b'] }, 'oauth.scopes: "a"b" is not a valid scope token (RFC 6749 §3.3)'],
    [{ issuer: 'https://as.example', scopes: ['a b'] }, 'oauth.scopes: "a b" is not a valid scope token (RFC 6749 §3.3)'],
  ])('%j', (options, message) => {
    expect(() => createOAuthGate(options)).toThrow(message);
  });
});

describe('the metadata found', () => {
  let issuer: Issuer | undefined;
  let served: Served | undefined;
  afterAll(async () => {
    await served?.close();
    await issuer?.stop();
  });

  it('is not used when it names another issuer than the one configured (RFC 8414 §3.3): 503, and the log says why', async () => {
    issuer = await startIssuer();
    // The same server under another identifier: its metadata names issuer.url, not this one.
    const configured = `${issuer.url}/`;
    served = await serveWithOAuth({ issuer: configured });
    const now = Math.floor(Date.now() / 1000);
    // Signed with the provider's key for the configured issuer: good, if the keys the metadata names were used.
    const token = await issuer.sign({ iss: configured, aud: served.url, sub: 'x', exp: now + 60 });
    const response = await call(served.url, 'prompts/list', {}, token);
    expect(response.status).toBe(503);
    await response.arrayBuffer();
    expect(issuer.hits).not.toContain('/jwks');
    expect(served.log.filter((line) => line.startsWith('warn') && line.includes('names another issuer'))).toHaveLength(1);
  });
});
