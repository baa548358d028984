/**
 * The authorization server going down: keys already fetched keep checking
 * tokens (a refresh that fails keeps them), and a server that has none yet
 * answers 503 with Retry-After, not 500 and not 401, since the token may
 * well be good; once the authorization server is back, tokens are checked
 * again. Each outage is logged once, with its cause, by what met it (the
 * metadata, the key set, the introspection endpoint), and so is its end;
 * never a token or a credential.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Issuer, RS_CLIENT, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
const servers: Served[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  for (const served of servers) await served.close();
  await issuer.stop().catch(() => {});
});

async function serve(keyCooldownMs?: number): Promise<Served> {
  const served = await serveWithOAuth({
    issuer: issuer.url,
    introspection: { endpoint: `${issuer.url}/token/introspection`, clientId: RS_CLIENT.id, clientSecret: RS_CLIENT.secret },
    ...(keyCooldownMs !== undefined ? { keyCooldownMs } : {}),
  });
  servers.push(served);
  return served;
}

const now = () => Math.floor(Date.now() / 1000);

describe('the authorization server down', () => {
  it('keeps cached keys working; a server with no keys yet answers 503; both recover when it is back', async () => {
    const warm = await serve();
    const cold = await serve(0);
    const token = await issuer.token('team-a', warm.url, 'skills:read');
    const opaque = await issuer.token('opaque', cold.url, 'skills:read');
    expect((await call(warm.url, 'prompts/list', {}, token)).status).toBe(200);

    await issuer.stop();
    // The same token, and a new one signed with the same key: checked with the cached keys.
    expect((await call(warm.url, 'prompts/list', {}, token)).status).toBe(200);
    const fresh = await issuer.sign({ iss: issuer.url, aud: warm.url, sub: 'x', scope: 'skills:read', exp: now() + 60 });
    expect((await call(warm.url, 'prompts/list', {}, fresh)).status).toBe(200);

    for (const [url, t] of [
      [cold.url, await issuer.sign({ iss: issuer.url, aud: cold.url, sub: 'x', exp: now() + 60 })],
      [cold.url, opaque],
    ] as const) {
      const response = await call(url, 'prompts/list', {}, t);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32603);
    }

    await issuer.start();
    expect((await call(cold.url, 'prompts/list', {}, await issuer.token('team-a', cold.url, 'skills:read'))).status).toBe(200);
    expect((await call(cold.url, 'prompts/list', {}, opaque)).status).toBe(200);
  });
});

/** The lines of `served`'s log about the authorization server. */
const outageLines = (served: Served) => served.log.filter((line) => /authorization server|introspection/i.test(line));

describe('the authorization server down, in the log', () => {
  it('says why once per outage and once when it ends, for the metadata, the key set and introspection, without a token or secret', async () => {
    const cold = await serve(0);
    const opaque = await issuer.token('opaque', cold.url, 'skills:read');
    const signed = await issuer.sign({ iss: issuer.url, aud: cold.url, sub: 'x', scope: 'skills:read', exp: now() + 600 });
    // A key id the issuer does not publish: every use asks for the key set again (no cooldown here).
    const unknownKid = await issuer.sign({ iss: issuer.url, aud: cold.url, sub: 'x', scope: 'skills:read', exp: now() + 600 }, { kid: 'retired' });
    const tokens = [opaque, signed, unknownKid];
    const count = (level: string, what: RegExp) => outageLines(cold).filter((line) => line.startsWith(level) && what.test(line)).length;
    const counts = (level: string) => [/metadata/, /key set/, /introspection/].map((what) => count(level, what));
    try {
      // A first outage, before anything is known: every token gets 503; each cause is logged once
      // (the key set, whose place the metadata names, is not asked for).
      await issuer.stop();
      for (let i = 0; i < 5; i++) for (const token of [opaque, signed]) expect((await call(cold.url, 'prompts/list', {}, token)).status).toBe(503);
      expect(counts('warn'), outageLines(cold).join('\n')).toEqual([1, 0, 1]);
      // The cause, as node:fetch met it.
      expect(outageLines(cold).every((line) => line.includes('ECONNREFUSED'))).toBe(true);
      await issuer.start();
      for (let i = 0; i < 2; i++) for (const token of [opaque, signed]) expect((await call(cold.url, 'prompts/list', {}, token)).status).toBe(200);
      expect(counts('info'), outageLines(cold).join('\n')).toEqual([1, 0, 1]);

      // A second outage, with the metadata and keys kept: the key set (asked again for an unknown
      // kid, and kept) and introspection (a token not asked about yet) are logged once more, and their end.
      const another = await issuer.token('opaque', cold.url, 'skills:read');
      tokens.push(another);
      await issuer.stop();
      for (let i = 0; i < 5; i++) {
        expect((await call(cold.url, 'prompts/list', {}, another)).status).toBe(503);
        expect((await call(cold.url, 'prompts/list', {}, unknownKid)).status).toBe(401);
        expect((await call(cold.url, 'prompts/list', {}, signed)).status).toBe(200);
      }
      expect(counts('warn'), outageLines(cold).join('\n')).toEqual([1, 1, 2]);
      await issuer.start();
      expect((await call(cold.url, 'prompts/list', {}, another)).status).toBe(200);
      expect((await call(cold.url, 'prompts/list', {}, unknownKid)).status).toBe(401);
      expect(counts('info'), outageLines(cold).join('\n')).toEqual([1, 1, 2]);
    } finally {
      await issuer.start().catch(() => {});
    }
    for (const line of cold.log) {
      for (const secret of [...tokens, RS_CLIENT.secret]) expect(line).not.toContain(secret);
    }
  });
});

describe('key rotation', () => {
  it('picks up a new signing key on its unknown kid, at most once per cooldown', async () => {
    const quick = await serve(0);
    const slow = await serve(60_000);
    for (const served of [quick, slow])
      expect((await call(served.url, 'prompts/list', {}, await issuer.token('team-a', served.url, 'skills:read'))).status).toBe(200);
    await issuer.rotate();
    // Each server fetched its keys once already: the one whose cooldown has passed looks again.
    const rotated = await issuer.token('team-a', quick.url, 'skills:read');
    expect((await call(quick.url, 'prompts/list', {}, rotated)).status).toBe(200);
    const refused = await call(slow.url, 'prompts/list', {}, await issuer.token('team-a', slow.url, 'skills:read'));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error_description="the access token is signed with an unknown key"');
  });
});
