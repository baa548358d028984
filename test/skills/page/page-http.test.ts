/**
 * The catalogue page over real HTTP from `skillport serve --http`: behind
 * the same gate as the MCP endpoint, with OAuth tokens from a real
 * authorization server (oidc-provider) each team sees only the skills it
 * may use, in the list, the search and each skill's view (a skill it may
 * not use is answered as one that does not exist); with a static token the
 * page needs the token; and `/` answers every request that does not ask for
 * HTML with the 404 it gave before the page, and HTML too with `--no-page`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFolder } from '../../transport/http/auth/_folder.js';
import { type Issuer, startIssuer } from '../../transport/http/auth/_issuer.js';
import { type ServedCli, serveCli } from './_serve.js';

const HTML = { accept: 'text/html' };
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function served(args: string[]): Promise<ServedCli> {
  const cli = await serveCli(args);
  cleanups.push(() => cli.stop());
  return cli;
}

async function page(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** The skill names the list links to. */
function listed(body: string): string[] {
  return [...body.matchAll(/<h3><a href="\?skill=[^"]*">([^<]+)<\/a><\/h3>/g)].map((m) => m[1] as string).sort();
}

describe('the catalogue page with OAuth', () => {
  let issuer: Issuer;
  let cli: ServedCli;

  beforeAll(async () => {
    issuer = await startIssuer();
    cleanups.push(() => issuer.stop());
    const folder = writeFolder();
    cleanups.push(folder.remove);
    cli = await served([folder.dir, '--auth-issuer', issuer.url, '--auth-scope', 'skills:read']);
  });

  it('asks for a token as the MCP endpoint does', async () => {
    const answer = await page(cli.page, HTML);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(answer.body).not.toContain('playbook');
  });

  it('shows each team only the skills it may use, in the list, the search and the views', async () => {
    const a = { ...HTML, authorization: `Bearer ${await issuer.token('team-a', cli.url, 'skills:read team:a')}` };
    const b = { ...HTML, authorization: `Bearer ${await issuer.token('team-b', cli.url, 'skills:read team:b')}` };
    const none = { ...HTML, authorization: `Bearer ${await issuer.token('team-a', cli.url, 'skills:read')}` };
    expect(listed((await page(cli.page, a)).body)).toEqual(['alpha-playbook', 'outer', 'public-notes', 'shared-style']);
    expect(listed((await page(cli.page, b)).body)).toEqual(['beta-runbook', 'inner', 'outer', 'public-notes', 'shared-style']);
    expect(listed((await page(cli.page, none)).body)).toEqual(['outer', 'public-notes']);
    // The search ranks within what the caller may use.
    expect(listed((await page(`${cli.page}?q=beta+runbook&part=main`, a)).body)).not.toContain('beta-runbook');
    expect(listed((await page(`${cli.page}?q=beta+runbook&part=main`, b)).body)[0]).toBe('beta-runbook');
    // A skill the caller may not use is a skill that does not exist.
    const hidden = await page(`${cli.page}?skill=beta-runbook&part=main`, a);
    const missing = await page(`${cli.page}?skill=no-such&part=main`, a);
    expect(hidden.status).toBe(404);
    expect(hidden.body.replace('beta-runbook', 'X')).toBe(missing.body.replace('no-such', 'X'));
    expect((await page(`${cli.page}?skill=beta-runbook`, b)).body).toContain(
      '<a href="#file-references%2Fsecret-plan.md" rel="nofollow noopener noreferrer">the plan</a>',
    );
    // A nested skill's files are shown only to who may use it.
    const outerA = (await page(`${cli.page}?skill=outer&part=main`, a)).body;
    const outerB = (await page(`${cli.page}?skill=outer&part=main`, b)).body;
    expect(outerA).not.toContain('torque');
    expect(outerB).toContain('parts/inner/references/torque.md');
  });
});

describe('the catalogue page with a static token', () => {
  let cli: ServedCli;
  let bare: ServedCli;
  const token = 'page-test-token-0123456789abcdef';

  beforeAll(async () => {
    const folder = writeFolder();
    cleanups.push(folder.remove);
    [cli, bare] = await Promise.all([served([folder.dir, '--auth-token', token]), served([folder.dir, '--auth-token', token, '--no-page'])]);
  });

  it('needs the token, and then shows the catalogue', async () => {
    expect((await page(cli.page, HTML)).status).toBe(401);
    expect((await page(cli.page, { ...HTML, authorization: 'Bearer wrong' })).status).toBe(401);
    const shown = await page(cli.page, { ...HTML, authorization: `Bearer ${token}` });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(listed(shown.body)).toContain('public-notes');
    expect(cli.stderr()).toContain('catalogue page for browsers at');
    expect(bare.stderr()).not.toContain('catalogue page');
  });

  it('answers / as before to every request that does not ask for HTML, and to all with --no-page', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const headers of [{ accept: 'application/json' }, { accept: '*/*' }, {}]) {
      const withPage = await page(cli.page, { ...auth, ...headers });
      const without = await page(bare.page, { ...auth, ...headers });
      expect(withPage.status).toBe(404);
      expect(withPage.headers.get('content-type')).toBe(without.headers.get('content-type'));
      // The same error; the gate's hint about tokens is the transport's to add to its own 404 alone.
      expect(JSON.parse(withPage.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Not Found' } });
      expect(JSON.parse(without.body).error.message).toMatch(/^Not Found/);
    }
    const html = await page(bare.page, { ...auth, ...HTML });
    expect(html.status).toBe(404);
    expect(html.body).not.toContain('<html');
  });
});
