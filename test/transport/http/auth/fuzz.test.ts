/**
 * A fuzz of token shapes against the resource server: random strings and
 * bytes, truncated and spliced JWTs, JWTs whose header or payload is
 * malformed or hostile (odd `alg`, `kid` objects, `crit`, `jku`/`x5u`
 * pointing elsewhere, `aud` arrays, huge claims), and headers near and past
 * the size limit. Every answer is 400, 401 or 431 (never 5xx, never a hang),
 * none names a hidden skill, and the server answers a good token after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_FROM_A, writeFolder } from './_folder.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { call, type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
let folder: { remove(): void };

beforeAll(async () => {
  issuer = await startIssuer();
  const written = writeFolder();
  folder = written;
  served = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] }, written.dir);
});
afterAll(async () => {
  await served?.close();
  folder?.remove();
  await issuer?.stop();
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

async function shapes(): Promise<string[]> {
  const next = random(14);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const good = await issuer.token('team-a', served.url, 'skills:read team:a');
  const [h, p, s] = good.split('.') as [string, string, string];
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: issuer.url, aud: served.url, sub: 'fuzz', scope: 'skills:read team:b', exp: now + 60 };
  const out: string[] = [
    '',
    '.',
    '..',
    '...',
    `${h}.`,
    `${h}.${p}`,
    `${h}.${p}.`,
    `${h}..${s}`,
    `.${p}.${s}`,
    `${h}.${p}.${s}.${s}`,
    `${p}.${h}.${s}`,
    `${b64('not json')}.${p}.${s}`,
    `${b64([1, 2])}.${p}.${s}`,
    `${b64({ alg: 'RS256', kid: { $ne: 1 } })}.${b64(claims)}.${s}`,
    `${b64({ alg: ['RS256'] })}.${b64(claims)}.${s}`,
    `${b64({ alg: 'RS256', kid: issuer.kid, crit: ['exp'] })}.${b64(claims)}.${s}`,
    `${b64({ alg: 'RS256', kid: 'x', jku: 'http://127.0.0.1:1/keys', x5u: 'http://127.0.0.1:1/x' })}.${b64(claims)}.${s}`,
    `${b64({ alg: 'RS256', kid: issuer.kid, jwk: issuer.publicJwk })}.${b64({ ...claims, aud: [served.url, 'x'] })}.${s}`,
    `${b64({ alg: 'none' })}.${b64(claims)}.`,
    `${b64({ alg: 'NONE' })}.${b64(claims)}.`,
    `${b64({ alg: 'HS256', kid: issuer.kid })}.${b64(claims)}.${s.slice(0, 43)}`,
    `${b64({ alg: 'RS256', kid: '../../etc/passwd' })}.${b64(claims)}.${s}`,
    `${h}.${b64({ ...claims, scope: 'x'.repeat(4000) })}.${s}`,
    'Bearer',
    'a'.repeat(15_000),
    'a'.repeat(20_000),
    `${h}.${p}.${s}`.replace(/[A-Z]/g, (c) => c.toLowerCase()),
    'beta-runbook',
  ];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=';
  for (let i = 0; i < 60; i++) {
    const length = 1 + Math.floor(next() * 300);
    let text = '';
    for (let j = 0; j < length; j++) text += pick([...alphabet]);
    out.push(text);
    // A good token cut at a random place, or with one character changed.
    const at = Math.floor(next() * good.length);
    out.push(good.slice(0, at));
    out.push(`${good.slice(0, at)}${pick([...alphabet])}${good.slice(at + 1)}`);
  }
  return out;
}

describe('token shapes', () => {
  it('never crash the server, never get past it, and never name a hidden skill', async () => {
    const statuses = new Set<number>();
    for (const token of await shapes()) {
      // Some shapes cannot be sent as a header value at all; the raw header carries the rest.
      for (const authorization of [`Bearer ${token}`, token, `bearer  ${token}  `]) {
        const response = await call(served.url, 'prompts/list', {}, undefined, { Authorization: authorization }).catch(() => undefined);
        if (!response) continue;
        const text = await response.text();
        // A changed character may leave a valid token (base64url padding bits): then it is team a's.
        if (response.status === 200) {
          expect(authorization).toMatch(/^bearer/i);
          expect(text).not.toMatch(/beta-runbook|beta-retro/);
          continue;
        }
        statuses.add(response.status);
        expect([400, 401, 431]).toContain(response.status);
        for (const hidden of HIDDEN_FROM_A) expect(text).not.toContain(hidden.replace(/\/$/, ''));
      }
    }
    expect(statuses.has(401)).toBe(true);
    const good = await issuer.token('team-a', served.url, 'skills:read team:a');
    expect((await call(served.url, 'prompts/list', {}, good)).status).toBe(200);
    expect(served.log.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
