/**
 * A configured audience that is a URL is the endpoint's canonical URL: the
 * metadata document's `resource` and the challenge's `resource_metadata`
 * name it, not the URL this process sees (as behind a proxy terminating
 * TLS), and tokens must be issued for it; one for the URL seen is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Issuer, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

const PUBLIC = 'https://skills.example.com/mcp';
let issuer: Issuer;
let served: Served;
beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({ issuer: issuer.url, audience: PUBLIC });
});
afterAll(async () => {
  await served?.close();
  await issuer?.stop();
});

describe('--auth-audience as the canonical URL', () => {
  it('is named by the challenge and the metadata, and is the audience tokens need', async () => {
    const challenge = (await call(served.url, 'prompts/list')).headers.get('www-authenticate');
    expect(challenge).toBe('Bearer resource_metadata="https://skills.example.com/.well-known/oauth-protected-resource/mcp"');
    const document = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served.url))).json()) as { resource: string };
    expect(document.resource).toBe(PUBLIC);
    expect((await call(served.url, 'prompts/list', {}, await issuer.token('team-a', PUBLIC, 'skills:read'))).status).toBe(200);
    expect((await call(served.url, 'prompts/list', {}, await issuer.token('team-a', served.url, 'skills:read'))).status).toBe(401);
  });
});
