/**
 * A git source's user and password never reach a command line, which every
 * user of the host can read (`/proc/PID/cmdline`, `ps`): a repository served
 * over real smart HTTPS with Basic authentication on 127.0.0.1 (test/skills/git/
 * _http-remote.ts), fetched by the real git while every process's command
 * line is read over and over. The server holds git's requests until the
 * watcher has seen git's HTTPS helper at least once, so the look is sure to
 * happen while the credentials are in use.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type GitSkillsFolder, loadGitSkills } from '../../../src/skills.js';
import { BIN } from '../../_stdio-client.js';
import { commandLines, type HttpRemote, serveHttpRemote } from './_http-remote.js';
import { createRepo, GIT, skillMd } from './_repo.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A distinctive run of characters inside the password: what must never be seen. */
const MARK = `Mk${randomBytes(9).toString('hex')}`;
/** A password with the characters that end or split a URL's user information. */
const PASSWORD = `p/a@s:s ${MARK}%+#`;
const USER = 'reader';

type Repo = ReturnType<typeof createRepo>;

function repo(): Repo {
  const made = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Served over HTTPS.') });
  cleanups.push(() => made.remove());
  return made;
}

/** The remote over HTTPS, with the operator's git configuration trusting its certificate (and `extra` lines). */
async function httpsRemote(r: Repo, extra = '', redirectTo?: string): Promise<HttpRemote> {
  const remote = await serveHttpRemote({
    repository: r.bare,
    user: USER,
    password: PASSWORD,
    home: join(r.dir, 'backend-home'),
    dir: r.dir,
    ...(redirectTo !== undefined ? { redirectTo } : {}),
  });
  cleanups.push(() => remote.close());
  trust(r, remote, extra);
  return remote;
}

/** The operator's ~/.gitconfig: trust the test certificates (the remotes'), plus `extra`. */
function trust(r: Repo, remote: HttpRemote, extra = ''): void {
  const ca = join(r.dir, 'trusted.pem');
  writeFileSync(ca, remote.certificate, { flag: 'a' });
  writeFileSync(join(r.env.HOME as string, '.gitconfig'), `[http]\n\tsslCAInfo = ${ca}\n${extra}`);
}

const withCredentials = (remote: HttpRemote, password = PASSWORD) =>
  `git+${remote.url.replace('https://', `https://${USER}:${encodeURIComponent(password)}@`)}#main`;

async function open(r: Repo, source: string): Promise<GitSkillsFolder> {
  const folder = await loadGitSkills(source, { cacheDir: r.cache, git: GIT, env: r.env, pullIntervalMs: 0, gitTimeoutMs: 20_000 });
  cleanups.push(() => folder.close());
  return folder;
}

interface Sighting {
  pid: number;
  line: string;
  /** Whether git's HTTPS helper had been seen by then. */
  afterHelper: boolean;
}

/**
 * Reads every process's command line in a loop (yielding to the event loop
 * between rounds, as the HTTPS server runs in this process) until stopped or
 * for 30 s at most. `helperSeen` resolves once a `remote-https` helper for
 * `url` was seen, or when the watch ends without one.
 */
function watchProcesses(url: string) {
  const port = new URL(url).port;
  const leaks: Sighting[] = [];
  let helpers = 0;
  let rounds = 0;
  let stopped = false;
  let seen: () => void = () => {};
  const helperSeen = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const deadline = Date.now() + 30_000;
  const done = (async () => {
    while (!stopped && Date.now() < deadline) {
      rounds++;
      for (const { pid, line } of commandLines()) {
        if (line.includes(MARK) || line.includes(encodeURIComponent(PASSWORD))) leaks.push({ pid, line, afterHelper: helpers > 0 });
        if (line.includes('remote-https') && line.includes(`:${port}`)) {
          helpers++;
          seen();
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    seen();
  })();
  return {
    helperSeen,
    async stop() {
      stopped = true;
      await done;
      return { leaks, helpers, rounds };
    },
  };
}

describe('the credentials of a git source', () => {
  it('never appear on a command line while git fetches with them, and the fetch succeeds', async () => {
    const r = repo();
    const remote = await httpsRemote(r);
    const watch = watchProcesses(remote.url);
    // No answer from the remote until git's helper has been looked at.
    remote.hold(watch.helperSeen);
    const folder = await open(r, withCredentials(remote));
    expect(folder.catalogue.prompts.map((p) => p.name)).toEqual(['alpha']);
    const second = r.push({ 'beta/SKILL.md': skillMd('beta', 'Pushed after.') });
    expect(await folder.sync()).toEqual({ changed: true, commit: second });
    const seen = await watch.stop();
    expect(seen.helpers).toBeGreaterThan(0);
    expect(seen.leaks).toEqual([]);
    // This process (the one serving the skills) too.
    expect(readFileSync('/proc/self/cmdline', 'latin1')).not.toContain(MARK);
    expect(remote.counts.served).toBeGreaterThan(0);
  });

  it('fail the fetch when they are missing or wrong, without showing them', async () => {
    const r = repo();
    const remote = await httpsRemote(r);
    const refused = (source: string) =>
      open(r, source).then(
        () => 'served',
        (error: Error) => error.message,
      );
    expect(await refused(`git+${remote.url}#main`)).toMatch(/git fetch failed/);
    const wrong = await refused(withCredentials(remote, `${PASSWORD}x`));
    expect(wrong).toMatch(/^cannot load https:\/\/\*\*\*@127\.0\.0\.1:\d+\/remote\.git#main: git fetch failed/);
    expect(wrong).not.toContain(MARK);
    expect(remote.counts.refused).toBeGreaterThan(0);
    expect(remote.counts.served).toBe(0);
  });

  it('are not handed to the operator’s credential helpers, which still serve a URL without credentials', async () => {
    const r = repo();
    const store = join(r.dir, 'git-credentials');
    const remote = await httpsRemote(r, `[credential]\n\thelper = store --file ${store}\n`);
    await open(r, withCredentials(remote));
    // git asks every helper to store credentials that worked: `store` would write them in clear.
    expect(existsSync(store) ? readFileSync(store, 'utf8') : '').not.toContain(MARK);

    // The operator's own helper, for a URL that carries none.
    const origin = new URL(remote.url);
    writeFileSync(store, `https://${USER}:${encodeURIComponent(PASSWORD)}@${origin.host}\n`);
    const other = await open(r, `git+${remote.url}#main`);
    expect(other.catalogue.prompts.map((p) => p.name)).toEqual(['alpha']);
  });

  it('are not sent to another host that a redirect names', async () => {
    const r = repo();
    const elsewhere = await serveHttpRemote({ repository: r.bare, user: 'other', password: 'other', home: join(r.dir, 'h2'), dir: join(r.dir) });
    cleanups.push(() => elsewhere.close());
    const remote = await httpsRemote(r, '', new URL(elsewhere.url).origin);
    // Both certificates trusted.
    trust(r, elsewhere);
    await expect(open(r, withCredentials(remote))).rejects.toThrow(/git fetch failed/);
    // The first host redirected before asking for credentials; git followed, the second asked, and was given none.
    expect(remote.counts.redirected).toBeGreaterThan(0);
    expect(elsewhere.counts.refused).toBeGreaterThan(0);
    expect(elsewhere.authorizations.map((a) => Buffer.from(a.replace(/^Basic /, ''), 'base64').toString())).not.toContainEqual(expect.stringContaining(MARK));
  });
});

describe('skillport with credentials in a git source', () => {
  it('hides them from its own command line, and git’s helpers never show them', async () => {
    const r = repo();
    const remote = await httpsRemote(r);
    const watch = watchProcesses(remote.url);
    remote.hold(watch.helperSeen);
    const cli = spawn(process.execPath, [BIN, 'list', withCredentials(remote), '--cache-dir', r.cache], {
      env: r.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    cli.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    cli.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => cli.once('close', resolve));
    const seen = await watch.stop();
    expect(code, out).toBe(0);
    expect(out).toMatch(/^alpha\s/m);
    expect(seen.helpers).toBeGreaterThan(0);
    // Until node has started skillport, its command line is what it was given; by the time git runs, no longer.
    expect(seen.leaks.filter((s) => s.pid !== cli.pid || s.afterHelper)).toEqual([]);
  });
});
