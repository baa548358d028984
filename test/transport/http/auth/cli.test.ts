/**
 * `skillport serve --http … --auth-issuer …`: the flags as the issue names
 * them, their usage errors (exit 2), and a server started by them that takes
 * a JWT and an opaque token from a real authorization server and refuses
 * the rest. The client secret comes from the environment variable named.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../../src/cli/main.js';
import { eventually } from '../../../_http-client.js';
import { runCli, sink, VALID } from '../../../cli/_run.js';
import { type Issuer, RS_CLIENT, startIssuer } from './_issuer.js';
import { call } from './_server.js';

let issuer: Issuer;
beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  await issuer?.stop();
});

describe('usage errors', () => {
  it.each([
    [['--auth-scope', 'a'], '--auth-scope applies only with --auth-issuer'],
    [['--auth-issuer', 'https://as.example', '--auth-token', 't'], '--auth-token and --auth-issuer exclude each other'],
    [['--auth-issuer', 'http://as.example'], '--auth-issuer must be an https URL (http only on loopback)'],
    [['--auth-issuer', 'not a url'], '--auth-issuer must be a URL'],
    [
      ['--auth-issuer', 'https://as.example', '--auth-introspection', 'https://as.example/i'],
      '--auth-introspection needs --auth-client-id and --auth-client-secret-env',
    ],
    [['--auth-issuer', 'https://as.example', '--auth-client-id', 'x'], '--auth-client-id and --auth-client-secret-env apply only with --auth-introspection'],
    [
      [
        '--auth-issuer',
        'https://as.example',
        '--auth-introspection',
        'https://as.example/i',
        '--auth-client-id',
        'x',
        '--auth-client-secret-env',
        'SKILLPORT_NOT_SET_ANYWHERE',
      ],
      '--auth-client-secret-env: the environment variable SKILLPORT_NOT_SET_ANYWHERE is not set',
    ],
  ])('%j: %s', async (flags, message) => {
    const result = await runCli('serve', VALID, '--http', '127.0.0.1:0', ...flags);
    expect(result.stderr).toContain(`skillport serve: ${message}\n`);
    expect(result.code).toBe(2);
  });
});

describe('serve --http with --auth-issuer', () => {
  it('serves tokens from the issuer, JWT and opaque, and refuses others', async () => {
    const stderr = sink();
    const stdin = new PassThrough();
    let stop: (() => void) | undefined;
    const flags = ['--auth-issuer', issuer.url, '--auth-scope', 'skills:read', '--auth-introspection', `${issuer.url}/token/introspection`];
    const secretFlags = ['--auth-client-id', RS_CLIENT.id, '--auth-client-secret-env', 'INTROSPECTION_SECRET'];
    const exited = run(
      ['serve', VALID, '--http', '127.0.0.1:0', ...flags, ...secretFlags],
      { stdin, stdout: new PassThrough(), stderr: stderr.stream, onShutdownSignal: (listener) => void (stop = listener) },
      { INTROSPECTION_SECRET: RS_CLIENT.secret },
    );
    await eventually(() => /at (http:\S+)/.test(stderr.text()));
    const url = (/at (http:\S+)/.exec(stderr.text()) as RegExpExecArray)[1] as string;
    try {
      expect((await call(url, 'prompts/list', {}, await issuer.token('team-a', url, 'skills:read'))).status).toBe(200);
      expect((await call(url, 'prompts/list', {}, await issuer.token('opaque', url, 'skills:read'))).status).toBe(200);
      expect((await call(url, 'prompts/list', {}, await issuer.token('noscope', url, 'team:a'))).status).toBe(403);
      expect((await call(url, 'prompts/list')).status).toBe(401);
    } finally {
      stop?.();
    }
    expect(await exited).toBe(0);
    expect(stderr.text()).toContain(`accepting access tokens from ${issuer.url} issued for ${url}`);
    expect(stderr.text()).not.toContain(RS_CLIENT.secret);
  });
});
