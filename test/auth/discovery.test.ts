/**
 * Where the authorization server's metadata is looked for: RFC 8414 §3.1
 * inserts the well-known segment between the host and the issuer's path;
 * OpenID Connect Discovery 1.0 §4 appends it (MCP 2025-11-25
 * basic/authorization §Authorization Server Metadata Discovery lists both).
 */
import { describe, expect, it } from 'vitest';
import { metadataUrls } from '../../src/transport/http/auth/discovery.js';
import { createOAuthGate } from '../../src/transport/http/auth/oauth.js';

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
