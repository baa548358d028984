/**
 * The node:http adapter's own parsing: the request path it routes on must be
 * the one the WHATWG URL parser gives (the Fetch path's), for every target a
 * client can send, since the handler compares it with the endpoint path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathnameOf } from '../../../src/transport/http/node.js';

/** The path a Fetch server would see: origin-form targets appended to the origin, others parsed whole. */
function viaUrl(target: string): string {
  try {
    return new URL(target.startsWith('/') ? `http://localhost${target}` : target).pathname;
  } catch {
    return '/';
  }
}

describe('pathnameOf', () => {
  it('agrees with the URL parser on targets that need normalizing', () => {
    for (const target of [
      '/mcp',
      '/mcp?x=1',
      '/mcp#frag',
      '/a/../mcp',
      '/a/./mcp',
      '/a/%2e%2e/mcp',
      '/a/%2E/mcp',
      '/mcp/..',
      '/m cp',
      '/m"cp',
      '/m|cp',
      '/m\\cp',
      '//mcp',
      '/%6Dcp',
      '/mcp%',
      '/é',
      'http://example.com/mcp?q',
      '*',
      '//',
    ]) {
      expect(pathnameOf(target), target).toBe(viaUrl(target));
    }
  });

  it('agrees with the URL parser on arbitrary paths', () => {
    const piece = fc.constantFrom('/', '.', '..', '%2e', '%2E', '%', '?', '#', 'a', 'mcp', ' ', '\\', '~', '@', ':', ';', '=', '"', '{', '}', '|', 'é', '\t');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const target = `/${pieces.join('')}`;
        expect(pathnameOf(target)).toBe(viaUrl(target));
      }),
      { numRuns: 2000 },
    );
  });
});
