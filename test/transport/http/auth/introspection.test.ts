/**
 * Opaque access tokens as a whole (RFC 7662), against the real provider's
 * introspection endpoint, whose answers the test may rewrite or hold on
 * their way out (_issuer.ts `introspection`) to show what the resource
 * server does with an answer the provider would not give. One rule per case:
 * `exp`, `nbf` and `iss` of an active answer; answers kept no longer than the
 * cache time nor the token's `exp` (a token revoked after its first use is
 * refused once that time passes); the in-flight cap; each kind of malformed
 * answer (503: the token may be good); the 16 KiB token cap, checked before
 * anything is asked. Waits are bounded and fail when what they wait for
 * does not happen.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../_http-client.js';
import { type Issuer, type RawAnswer, RS_CLIENT, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
const servers: Served[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
});
afterEach(() => issuer.introspection(undefined));
afterAll(async () => {
  for (const served of servers) {
    const text = served.log.join('\n');
    for (const token of tokens) expect(text).not.toContain(token);
    await served.close();
  }
  await issuer.stop();
});

/** A server that introspects opaque tokens, keeping answers `cacheMs`. */
async function serve(cacheMs = 30_000): Promise<Served> {
  const served = await serveWithOAuth(
    {
      issuer: issuer.url,
      introspection: { endpoint: `${issuer.url}/token/introspection`, clientId: RS_CLIENT.id, clientSecret: RS_CLIENT.secret },
      introspectionCacheMs: cacheMs,
    },
    undefined,
    false,
    undefined,
    // Room for a token past the 16 KiB cap in the header.
    { maxHeaderBytes: 64 * 1024 },
  );
  servers.push(served);
  return served;
}

let shared: Served | undefined;
const server = async () => {
  shared ??= await serve();
  return shared;
};

async function opaque(served: Served): Promise<string> {
  const token = await issuer.token('opaque', served.url, 'skills:read');
  tokens.push(token);
  return token;
}

const now = () => Math.floor(Date.now() / 1000);
const asked = () => issuer.hits.filter((path) => path === '/token/introspection').length;
const json = (body: unknown, status = 200): RawAnswer => ({ status, body: JSON.stringify(body) });

/** Holds the introspection endpoint's answers until `release()`; `held()` counts the questions it took. */
function holdIntrospection(): { held(): number; release(): void } {
  let held = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  issuer.introspection(async (real) => {
    held++;
    await released;
    return json(await real());
  });
  return { held: () => held, release };
}

/** The status of prompts/list with `token`, and the error description its challenge gives. */
async function answer(served: Served, token: string): Promise<{ status: number; reason: string | undefined }> {
  const response = await call(served.url, 'prompts/list', {}, token);
  await response.arrayBuffer();
  const challenge = response.headers.get('www-authenticate') ?? '';
  return { status: response.status, reason: /error_description="([^"]*)"/.exec(challenge)?.[1] };
}

describe('an active introspection answer', () => {
  it.each([
    ['whose exp has passed (beyond the leeway)', { exp: now() - 120 }, 'the access token has expired'],
    ['not valid yet (nbf beyond the leeway)', { nbf: now() + 120 }, 'the access token is not valid yet'],
    ['from another issuer', { iss: 'https://elsewhere.example' }, 'the access token was issued by another authorization server'],
    ['for another resource', { aud: 'https://elsewhere.example/mcp' }, 'the access token was issued for another resource'],
  ])('is refused when it says the token is %s', async (_what, change, reason) => {
    const served = await server();
    const token = await opaque(served);
    issuer.introspection(async (real) => json({ ...(await real()), ...change }));
    expect(await answer(served, token)).toEqual({ status: 401, reason });
  });

  it('is accepted as the provider gives it', async () => {
    const served = await server();
    expect(await answer(served, await opaque(served))).toEqual({ status: 200, reason: undefined });
  });
});

describe('kept answers', () => {
  it('asks once for a token used twice within the cache time', async () => {
    const served = await server();
    const token = await opaque(served);
    const before = asked();
    expect((await answer(served, token)).status).toBe(200);
    expect((await answer(served, token)).status).toBe(200);
    expect(asked() - before).toBe(1);
  });

  it('refuses a token revoked after its first use once the cache time has passed', async () => {
    const served = await serve(200);
    const token = await opaque(served);
    expect((await answer(served, token)).status).toBe(200);
    await issuer.revoke('opaque', token);
    // Bounded: a kept answer that never expires fails here.
    await eventually(async () => (await answer(served, token)).status === 401, 10_000);
    expect(await answer(served, token)).toEqual({ status: 401, reason: 'the access token is not active' });
  });

  it("keeps an answer no longer than the token's exp, however long the cache time", async () => {
    const served = await server();
    const token = await opaque(served);
    // Expires in a second, within the leeway: accepted, but the answer may not outlive it.
    issuer.introspection(async (real) => json({ ...(await real()), exp: now() + 1 }));
    expect((await answer(served, token)).status).toBe(200);
    const before = asked();
    await eventually(async () => {
      await answer(served, token);
      return asked() > before;
    }, 10_000);
  });
});

describe('malformed answers: 503, the token may be good', () => {
  it.each<[string, (real: () => Promise<Record<string, unknown>>) => Promise<RawAnswer>]>([
    ['a status other than 200', async (real) => json(await real(), 500)],
    ['401: the provider refuses this server', async (real) => json(await real(), 401)],
    ['not JSON', async () => ({ status: 200, body: '<html>active</html>' })],
    ['a JSON array', async (real) => json([await real()])],
    ['no active member', async (real) => json({ ...(await real()), active: undefined })],
    ['active as a string', async (real) => json({ ...(await real()), active: 'true' })],
  ])('%s', async (_what, override) => {
    const served = await server();
    const token = await opaque(served);
    issuer.introspection(override);
    const response = await call(served.url, 'prompts/list', {}, token);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    await response.arrayBuffer();
    // Once the provider answers properly, the same token is good.
    issuer.introspection(undefined);
    expect((await answer(served, token)).status).toBe(200);
  });
});

describe('questions at once', () => {
  it('asks at most 32 at once: more distinct tokens get 503 at once, the rest are answered once it replies', async () => {
    const served = await serve();
    const { held, release } = holdIntrospection();
    const made = Array.from({ length: 40 }, (_, i) => `made-up-opaque-token-${i}-${'x'.repeat(20)}`);
    const answers = made.map((token) => answer(served, token));
    const settled: Array<{ status: number }> = [];
    for (const pending of answers) void pending.then((a) => settled.push(a));
    await eventually(() => held() === 32 && settled.length === 8);
    expect(settled.every((a) => a.status === 503)).toBe(true);
    release();
    const all = await Promise.all(answers);
    expect(all.filter((a) => a.status === 401 && a.reason === 'the access token is not active')).toHaveLength(32);
    expect(held()).toBe(32);
  });

  it('asks once for one token sent many times at once', async () => {
    const served = await serve();
    const token = await opaque(served);
    const { held, release } = holdIntrospection();
    const answers = Array.from({ length: 10 }, () => answer(served, token));
    await eventually(() => held() === 1);
    release();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(held()).toBe(1);
  });
});

describe('the token cap', () => {
  it('refuses a token longer than 16 KiB unread, and introspects one of exactly 16 KiB', async () => {
    const served = await server();
    const before = asked();
    expect(await answer(served, 'a'.repeat(16 * 1024 + 1))).toEqual({ status: 401, reason: 'the access token is too long' });
    expect(asked()).toBe(before);
    expect(await answer(served, 'a'.repeat(16 * 1024))).toEqual({ status: 401, reason: 'the access token is not active' });
    expect(asked()).toBe(before + 1);
  });
});
