/**
 * Authentication and DNS rebinding over a real node:http server: missing,
 * wrong and malformed bearer tokens get 401 with `WWW-Authenticate`; the
 * comparison is constant-time (the code hashes both sides and uses
 * `crypto.timingSafeEqual`); the token never appears in what the server
 * logs at debug level; a foreign Origin or Host gets 403 unless allowed.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { BIN, HTTP_FIXTURE, HttpChild, httpBuilt, ROOT, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const TOKEN = 'tok-3f9c2e71-reliability-secret-b5d0';
const figures = new Figures();
let server: HttpChild | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(() => writeSection('http-security', `### Authentication and DNS rebinding (HTTP)\n\n${figures.table()}`));

async function start(http: Record<string, unknown>): Promise<URL> {
  server = new HttpChild(HTTP_FIXTURE, [], { RELIABILITY_OPTIONS: JSON.stringify({ dir: VALID_SKILLS, http }) });
  return server.url;
}

const DISCOVER = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: modern() };

describe.skipIf(!httpBuilt())('HTTP security', () => {
  it('answers missing, wrong and malformed tokens with 401 and WWW-Authenticate, and the right one with 200', async () => {
    const url = await start({ authToken: TOKEN });
    const headers = modernHeaders(DISCOVER, url);
    const body = JSON.stringify(DISCOVER);
    const cases: Record<string, string | undefined> = {
      missing: undefined,
      wrong: `Bearer ${TOKEN.slice(0, -1)}x`,
      'longer prefix match': `Bearer ${TOKEN}x`,
      shorter: `Bearer ${TOKEN.slice(0, 5)}`,
      empty: 'Bearer ',
      'no scheme': TOKEN,
      'basic scheme': `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`,
      'two tokens': `Bearer ${TOKEN} ${TOKEN}`,
      'non-ASCII': 'Bearer tök',
      huge: `Bearer ${'a'.repeat(8000)}`,
    };
    for (const [name, authorization] of Object.entries(cases)) {
      const answer = await httpSend(url, { headers: { ...headers, ...(authorization !== undefined ? { Authorization: authorization } : {}) }, body });
      expect(answer.status, name).toBe(401);
      // A static token and no authorization server: nothing to discover, so no resource_metadata.
      expect(answer.headers['www-authenticate'], name).toBe(name === 'missing' ? 'Bearer realm="mcp"' : 'Bearer realm="mcp", error="invalid_token"');
      expect(answer.body.includes(TOKEN), name).toBe(false);
    }
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      expect((await httpSend(url, { headers: { ...headers, Authorization: `${scheme} ${TOKEN}` }, body })).status).toBe(200);
    }
    await server!.stop();
    expect(server!.stderr.includes(TOKEN), 'the token was logged').toBe(false);
    // The CLI at debug level, token from the flag and from the environment.
    for (const [args, env] of [
      [['--auth-token', TOKEN], {}],
      [[], { SKILLPORT_AUTH_TOKEN: TOKEN }],
    ] as const) {
      server = new HttpChild(BIN, ['serve', VALID_SKILLS, '--http', '127.0.0.1:0', '--log-level', 'debug', ...args], env);
      const cli = await server.url;
      const h = modernHeaders(DISCOVER, cli);
      expect((await httpSend(cli, { headers: { ...h, Authorization: 'Bearer nope' }, body })).status).toBe(401);
      expect((await httpSend(cli, { headers: { ...h, Authorization: `Bearer ${TOKEN}` }, body })).status).toBe(200);
      await server.stop();
      expect(server.stderr).toContain('skillport info');
      expect(server.stderr.includes(TOKEN), 'the CLI logged the token').toBe(false);
    }
    figures.add(`Bad Authorization headers (${Object.keys(cases).length} shapes)`, '401 + WWW-Authenticate each; token never in a body or the debug log');
  });

  it('compares tokens in constant time', () => {
    const source = readFileSync(`${ROOT}src/transport/http/auth/static-token.ts`, 'utf8');
    expect(source).toMatch(/timingSafeEqual\(/);
    // Both sides are SHA-256 digests, so the buffers always have equal length.
    expect(source).toMatch(/createHash\('sha256'\)/);
    expect(source).not.toMatch(/===\s*expected|token\s*===|===\s*token/);
    figures.add('Token comparison', 'SHA-256 of both sides + crypto.timingSafeEqual (source checked)');
  });

  it('refuses a foreign Origin or Host with 403 unless allowed', async () => {
    const url = await start({ allowedOrigins: ['https://app.example.com'], allowedHosts: ['127.0.0.1', 'mcp.example.com'] });
    const body = JSON.stringify(DISCOVER);
    const base = modernHeaders(DISCOVER, url);
    const status = async (extra: Record<string, string>) => (await httpSend(url, { headers: { ...base, ...extra }, body })).status;
    expect(await status({ Origin: 'http://evil.example' })).toBe(403);
    expect(await status({ Origin: 'http://127.0.0.1.evil.example' })).toBe(403);
    expect(await status({ Origin: 'null' })).toBe(403);
    expect(await status({ Host: 'evil.example' })).toBe(403);
    expect(await status({ Host: `evil.example:${url.port}` })).toBe(403);
    expect(await status({ Origin: 'https://app.example.com' })).toBe(200);
    expect(await status({ Host: 'mcp.example.com' })).toBe(200);
    await server!.stop();
    const defaults = await start({});
    const status2 = async (extra: Record<string, string>) =>
      (await httpSend(defaults, { headers: { ...modernHeaders(DISCOVER, defaults), ...extra }, body })).status;
    expect(await status2({ Origin: 'http://evil.example' })).toBe(403);
    expect(await status2({ Host: 'evil.example' })).toBe(403);
    expect(await status2({ Origin: `http://localhost:${defaults.port}`, Host: `localhost:${defaults.port}` })).toBe(200);
    figures.add('Foreign Origin / Host (DNS rebinding)', '403; allowed ones 200');
  });
});
