/**
 * The claim rules (src/transport/http/auth/claims.ts), one set for JWTs and
 * introspection answers: the same claims get the same verdict from both
 * kinds, which differ only in what they must carry.
 */
import { describe, expect, it } from 'vitest';
import { BadToken, type ClaimContext, principalOf, type TokenKind } from '../../../../src/transport/http/auth/claims.js';

const NOW = 1_800_000_000;
const CONTEXT: ClaimContext = { issuer: 'https://issuer.example', audience: 'https://rs.example/mcp', leewaySeconds: 30, now: NOW };
const GOOD = { iss: CONTEXT.issuer, aud: CONTEXT.audience, sub: 'alice', exp: NOW + 600, scope: 'a b' };

function verdict(claims: Record<string, unknown>, kind: TokenKind): string {
  try {
    principalOf(claims, kind, CONTEXT, undefined);
    return 'admitted';
  } catch (error) {
    if (error instanceof BadToken) return error.message;
    throw error;
  }
}

describe('claim rules', () => {
  it.each([
    ['a good token', GOOD, 'admitted'],
    ['another issuer', { ...GOOD, iss: 'https://evil.example' }, 'the access token was issued by another authorization server'],
    ['another audience', { ...GOOD, aud: ['https://elsewhere.example/mcp'] }, 'the access token was issued for another resource'],
    ['expired beyond the leeway', { ...GOOD, exp: NOW - 31 }, 'the access token has expired'],
    ['expired within the leeway', { ...GOOD, exp: NOW - 29 }, 'admitted'],
    ['not valid yet beyond the leeway', { ...GOOD, nbf: NOW + 31 }, 'the access token is not valid yet'],
    ['a time claim that is no number', { ...GOOD, nbf: 'soon' }, 'the access token is not valid yet'],
    ['neither subject nor client', { ...GOOD, sub: undefined }, 'the access token names neither a subject nor a client'],
  ])('gives %s the same verdict as a JWT and as an introspection answer', (_, claims, expected) => {
    expect(verdict(claims, 'jwt')).toBe(expected);
    expect(verdict(claims, 'introspection')).toBe(expected);
  });

  it('asks a JWT for iss and exp (RFC 9068 §2.2), which an introspection answer may leave out (RFC 7662 §2.2)', () => {
    const { iss: _iss, exp: _exp, ...bare } = GOOD;
    expect(verdict({ ...bare, exp: GOOD.exp }, 'jwt')).toBe('the access token was issued by another authorization server');
    expect(verdict({ ...bare, iss: GOOD.iss }, 'jwt')).toBe('the access token lacks a required claim');
    expect(verdict(bare, 'introspection')).toBe('admitted');
  });

  it('reads the principal: subject, client, scopes, and the audiences of the audience claim', () => {
    expect(principalOf({ ...GOOD, client_id: 'app', groups: ['x'] }, 'jwt', CONTEXT, 'groups')).toEqual({
      subject: 'alice',
      client: 'app',
      scopes: ['a', 'b'],
      audiences: ['x'],
    });
  });
});
