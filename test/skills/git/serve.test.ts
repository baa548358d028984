/**
 * `skillport serve git+file://…` as clients see it: the CLI (in-process, through
 * `run`) serving Streamable HTTP on 127.0.0.1, the official SDK clients
 * connected to it, and commits pushed to a real bare repository reaching them
 * by the pull interval or by a signed webhook.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/main.js';
import { runCli } from '../../cli/_run.js';
import { createRepo, skillMd } from './_repo.js';
import { revertAndRead, VERSION_A } from './_revert.js';

const SECRET = 'hook secret for the test';
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Runs `skillport serve ...args` in-process until the test ends; resolves with its endpoint and what it logged. */
async function serve(args: string[], env: Record<string, string>): Promise<{ url: URL; log: () => string }> {
  let log = '';
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  let stop: (() => void) | undefined;
  const exited = run(
    ['serve', ...args, '--http', '127.0.0.1:0'],
    { stdin: new PassThrough(), stdout: new PassThrough(), stderr, onShutdownSignal: (h) => void (stop = h) },
    env,
  );
  closers.push(async () => {
    stop?.();
    expect(await exited, log).toBe(0);
  });
  await until(() => /at http:\/\/\S+\/mcp/.test(log) || (!!exited && log.includes('skillport:')));
  const match = /at (http:\/\/\S+\/mcp)/.exec(log);
  if (!match) throw new Error(`serve did not start:\n${log}`);
  return { url: new URL(match[1] as string), log: () => log };
}

async function modernClient(url: URL) {
  const client = new ClientV2({ name: 'git-v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(url));
  closers.push(() => client.close());
  const seen: string[] = [];
  for (const method of ['notifications/prompts/list_changed', 'notifications/tools/list_changed', 'notifications/resources/list_changed'] as const) {
    client.setNotificationHandler(method, () => void seen.push(method));
  }
  const subscription = await client.listen({ promptsListChanged: true, toolsListChanged: true, resourcesListChanged: true }, { timeout: 5000 });
  closers.push(() => subscription.close());
  return { client, seen };
}

const promptNames = async (client: ClientV2 | ClientV1) =>
  (await (client as ClientV2).listPrompts(undefined, { cacheMode: 'bypass' } as never)).prompts.map((p) => p.name).sort();

describe('skillport serve with a git source', () => {
  it('serves the first commit, and a pushed one after the pull interval with list_changed to the client', async () => {
    const r = createRepo({ 'skills/alpha/SKILL.md': skillMd('alpha', 'The first skill.'), 'README.md': 'not served\n' });
    closers.push(() => r.remove());
    const { url, log } = await serve([`git+${r.url}#main:skills`, '--pull-interval', '1', '--cache-dir', r.cache], r.env);
    expect(log()).toContain(`of ${r.url} at ${r.first.slice(0, 12)}`);
    const { client, seen } = await modernClient(url);
    expect(await promptNames(client)).toEqual(['alpha']);
    const legacy = new ClientV1({ name: 'git-v1', version: '1' });
    await legacy.connect(new HttpV1(url));
    closers.push(() => legacy.close());
    expect((await legacy.getPrompt({ name: 'alpha' })).messages[0]?.content).toMatchObject({ text: expect.stringContaining('Body of alpha.') });

    const second = r.push({ 'skills/beta/SKILL.md': skillMd('beta', 'The second skill.') });
    await until(() => seen.includes('notifications/prompts/list_changed') && seen.includes('notifications/tools/list_changed'));
    expect(seen).toContain('notifications/prompts/list_changed');
    expect(seen).toContain('notifications/tools/list_changed');
    expect(seen).toContain('notifications/resources/list_changed');
    expect(await promptNames(client)).toEqual(['alpha', 'beta']);
    expect(await promptNames(legacy)).toEqual(['alpha', 'beta']);
    expect(log()).toContain(`at commit ${second.slice(0, 12)}`);
  });

  it('keeps serving the last good commit through a broken commit and a vanished repository', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    closers.push(() => r.remove());
    const { url, log } = await serve([`git+${r.url}#main`, '--pull-interval', '1', '--cache-dir', r.cache], r.env);
    const { client } = await modernClient(url);
    const broken = r.push({ 'alpha/SKILL.md': '---\nname: alpha\ndescription: [unclosed\n---\n' });
    await until(() => log().includes(`commit ${broken.slice(0, 12)} is not served`));
    expect(log()).toContain(`still serving commit ${r.first.slice(0, 12)}`);
    expect(await promptNames(client)).toEqual(['alpha']);
    r.move(true);
    await until(() => log().includes('git fetch failed'));
    expect(await promptNames(client)).toEqual(['alpha']);
    expect((await client.getPrompt({ name: 'alpha' })).messages[0]?.content).toMatchObject({ text: expect.stringContaining('Good.') });
  });

  it('serves a commit seen before again after a force-push revert, to reads and prompts, and logs no error', async () => {
    const r = createRepo(VERSION_A);
    closers.push(() => r.remove());
    const { url, log } = await serve([`git+${r.url}#main`, '--pull-interval', '1', '--cache-dir', r.cache], r.env);
    const legacy = new ClientV1({ name: 'git-revert', version: '1' });
    await legacy.connect(new HttpV1(url));
    closers.push(() => legacy.close());
    await revertAndRead(r, log, legacy);
    const { client } = await modernClient(url);
    expect((await client.readResource({ uri: 'skill://alpha/notes.md' })).contents[0]).toMatchObject({ text: 'notes of A\n' });
  });

  it('fetches at once on a signed webhook (GitHub and GitLab) when polling is off, and not on a bad one', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    closers.push(() => r.remove());
    const { url, log } = await serve([`git+${r.url}#main`, '--pull-interval', '0', '--cache-dir', r.cache], { ...r.env, SKILLPORT_HOOK_SECRET: SECRET });
    const hook = new URL('/hooks/git', url);
    const { client, seen } = await modernClient(url);
    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'Second.') });
    const body = '{"ref":"refs/heads/main"}';
    const bad = await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` }, body });
    expect(bad.status).toBe(401);
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Hub-Signature-256': signature }, body })).status).toBe(202);
    await until(() => seen.includes('notifications/prompts/list_changed'));
    expect(await promptNames(client)).toEqual(['alpha', 'beta']);
    expect(log()).toContain(`at commit ${second.slice(0, 12)}`);

    r.push({ 'gamma/SKILL.md': skillMd('gamma', 'Third.') });
    expect((await fetch(hook, { method: 'POST', headers: { 'X-Gitlab-Token': SECRET }, body })).status).toBe(202);
    await until(async () => (await promptNames(client)).includes('gamma'));
    expect(await promptNames(client)).toEqual(['alpha', 'beta', 'gamma']);
    expect(log()).not.toContain(SECRET);
  });

  it('answers 404 at /hooks/git when no secret is configured', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    closers.push(() => r.remove());
    const { url } = await serve([`git+${r.url}#main`, '--pull-interval', '0', '--cache-dir', r.cache], r.env);
    expect((await fetch(new URL('/hooks/git', url), { method: 'POST', headers: { 'X-Gitlab-Token': SECRET }, body: '{}' })).status).toBe(404);
  });

  it('removes its checkout when it stops', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    closers.push(() => r.remove());
    await serve([`git+${r.url}#main`, '--cache-dir', r.cache], r.env);
    const [key] = readdirSync(r.cache);
    expect(readdirSync(join(r.cache, key as string))).toHaveLength(1);
    await (closers.pop() as () => Promise<void>)();
    expect(readdirSync(join(r.cache, key as string))).toEqual([]);
    expect(existsSync(r.cache)).toBe(true);
  });
});

describe('list, get and check with a git source', () => {
  it('read the head commit and leave no checkout behind', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.'), 'beta/SKILL.md': '---\nname: beta\n---\nNo description.\n' });
    closers.push(() => r.remove());
    const cli = (...args: string[]) => runCliWithEnv(r.env, ...args);
    const listed = await cli('list', `git+${r.url}#main`, '--cache-dir', r.cache);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^alpha\s+Good\./m);
    const got = await cli('get', 'alpha', '--dir', `git+${r.url}#main`, '--cache-dir', r.cache);
    expect(got.stdout).toContain('Body of alpha.');
    const checked = await cli('check', `git+${r.url}#main`, '--cache-dir', r.cache);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/^beta\/SKILL\.md:\d+: error: /m);
    const [key] = readdirSync(r.cache);
    expect(readdirSync(join(r.cache, key as string))).toEqual([]);
  });

  it('refuse ext::, a git source beside a folder, --watch and git-only flags without a git source', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    closers.push(() => r.remove());
    const ext = await runCli('list', 'git+ext::sh -c id');
    expect(ext.code).toBe(1);
    expect(ext.stderr).toContain('unsupported git source');
    expect((await runCli('serve', `git+${r.url}`, './skills')).stderr).toContain('a git repository or index URL must be the only source');
    expect((await runCli('serve', `git+${r.url}`, '--watch')).stderr).toContain('--watch does not apply to a git or index source');
    expect((await runCli('serve', './skills', '--pull-interval', '5')).stderr).toContain('--pull-interval applies only to a git or index source');
    expect((await runCli('serve', `git+${r.url}`, '--pull-interval=-1')).stderr).toContain('--pull-interval must be a whole number of seconds');
    expect((await runCli('serve', `git+${r.url}`, '--hook-secret-env', 'X')).stderr).toContain('--hook-secret-env applies only with --http');
  });
});

/** runCli with an environment (git's HOME and PATH). */
async function runCliWithEnv(env: Record<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const stdin = new PassThrough();
  stdin.end();
  const code = await run(args, { stdin, stdout: sink((t) => void (stdout += t)), stderr: sink((t) => void (stderr += t)), onShutdownSignal: () => {} }, env);
  return { code, stdout, stderr };
}
