/**
 * What the CLI says when something is wrong, one test per message, through
 * the built bin in a process of its own: the exit code and the words that
 * tell a user what happened and what to do. (A terminal on stdin is the one
 * case run in-process: no pseudo-terminal can be opened from Node alone.)
 */
import { type SpawnSyncOptions, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { loadSkillsFolder } from '../../src/skills.js';
import { BIN, ROOT } from '../_stdio-client.js';
import { tree } from '../_tree.js';
import { createRepo, skillMd } from '../skills/git/_repo.js';
import { sink } from './_run.js';

const BROKEN = `${ROOT}test/fixtures/skills/broken`;

function cli(args: readonly string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: '', timeout: 20_000, ...options });
  return { code: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Anthropic's skills repository in miniature: `skills/<name>/SKILL.md`, one of them broken, in a plugin marketplace. */
function anthropicStyle(): string {
  return tree({
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'market',
      owner: { name: 'Tester' },
      plugins: [{ name: 'kit', source: './', strict: false, skills: ['./skills/pdf', './skills/broken-yaml'] }],
    }),
    'skills/pdf/SKILL.md': skillMd('pdf', 'Work with PDF files.'),
    'skills/broken-yaml/SKILL.md': '---\nname: broken-yaml\ndescription: [unclosed\n---\n\nBody.\n',
  });
}

describe('load findings', () => {
  it('list shows what failed to load on stderr, and lists the rest (exit 0)', () => {
    const folder = anthropicStyle();
    const result = cli(['list', folder]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('kit:pdf');
    expect(result.stdout).not.toContain('broken-yaml');
    expect(result.stderr).toMatch(/^skillport list: .*\/skills\/broken-yaml\/SKILL\.md:3: error: .*\(invalid_yaml\)$/m);
    expect(result.stderr).toContain(`skillport list: ${folder}/skills/broken-yaml/SKILL.md:3: error: `);
  });

  it('get of a skill that failed to load says why, not "Unknown prompt" (exit 1)', () => {
    const folder = anthropicStyle();
    for (const name of ['kit:broken-yaml', 'broken-yaml']) {
      const result = cli(['get', name, '--dir', folder]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`skillport get: "${name}" failed to load:\n  ${folder}/skills/broken-yaml/SKILL.md:3: error: `);
      expect(result.stderr).not.toContain('Unknown prompt');
    }
    const plain = cli(['get', 'bad-yaml', '--dir', BROKEN]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^skillport get: "bad-yaml" failed to load:\n {2}bad-yaml\/SKILL\.md:3: error: Invalid YAML: .*\(invalid_yaml\)\n$/);
  });

  it('get of a skill left out for a duplicate name says so (exit 1)', () => {
    const result = cli(['get', 'dup-b', '--dir', BROKEN]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('skillport get: "dup-b" is not served:\n');
    expect(result.stderr).toContain('this one is not served (duplicate_name)');
  });

  it('get of a name nothing was found for stays the engine\'s "Unknown prompt" (exit 1)', () => {
    const result = cli(['get', 'nothing-here', '--dir', BROKEN]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'skillport get: Unknown prompt: "nothing-here"\n' });
  });
});

describe('an empty or wrong folder', () => {
  it('serve warns that the folder holds no skills or prompt files (exit 0)', () => {
    const empty = tree({ 'README.md': '# Not skills\n' });
    const result = cli(['serve', empty]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`skillport warn: ${empty} holds no skills (a folder with SKILL.md) and no prompt files: is it the right folder?`);
  });

  it('check fails for it (exit 1), in text and JSON', () => {
    const empty = tree({ 'notes.txt': 'nothing\n' });
    const text = cli(['check', empty]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${empty}: error: holds no skills (a folder with SKILL.md) and no prompt files: is it the right folder? (no_skills)`);
    expect(text.stdout).toMatch(/^FAILED: 0 skills, 0 prompts, 0 files; 1 error, 0 warnings, 0 notes$/m);
    const json = cli(['check', empty, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, errors: 1, issues: [{ severity: 'error', code: 'no_skills', path: empty }] });
  });

  it('names the one empty folder among good ones: check fails, list warns', () => {
    const good = tree({ 'hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHello.\n' });
    const empty = tree({ 'README.md': '# Not skills\n' });
    const checked = cli(['check', good, empty, '--json']);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout).issues).toEqual([expect.objectContaining({ severity: 'error', code: 'no_skills', path: empty })]);
    const listed = cli(['list', good, empty]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('hello');
    expect(listed.stderr).toContain(`${empty} holds no skills`);
    expect(listed.stderr).not.toContain(`${good} holds`);
    // Two good folders: nothing to say.
    expect(cli(['check', good, good]).stdout).not.toContain('no_skills');
  });

  it('a folder of only broken skills is not called empty: its findings say more', () => {
    const result = cli(['serve', tree({ 'bad/SKILL.md': '---\nname: [\n---\n' })]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('invalid_yaml');
    expect(result.stderr).not.toContain('holds no skills');
  });
});

/** Runs `run` in-process with stdin a terminal that sends nothing more. */
async function runOnTerminal(...args: string[]): Promise<{ code: number; stderr: string }> {
  const stderr = sink();
  const stdin = new PassThrough();
  stdin.end();
  const code = await run(args, { stdin, stdout: new PassThrough(), stderr: stderr.stream, stdinIsTty: true, onShutdownSignal: () => {} });
  return { code, stderr: stderr.text() };
}

describe('serve over stdio on a terminal', () => {
  it('says once that it speaks MCP on stdin/stdout, and how to connect a host', async () => {
    const folder = tree({ 'a/SKILL.md': skillMd('a', 'A skill.') });
    const { code, stderr } = await runOnTerminal('serve', folder);
    expect(code).toBe(0);
    expect(stderr).toContain('speaks MCP on stdin and stdout');
    expect(stderr).toContain(`claude mcp add skills -- node ${BIN} serve ${folder}\n`);
    expect(stderr).toContain('"Connect your host" in the README');
    expect(stderr.split('speaks MCP').length).toBe(2);
  });

  it('says nothing of it when stdin is not a terminal (a host)', () => {
    const result = cli(['serve', `${ROOT}skills`]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('speaks MCP');
  });
});

describe('usage errors name the command, the flag and the command usage (exit 2)', () => {
  it.each([
    [['serve', '--bogus'], 'skillport serve: unknown option --bogus\n', 'Usage: skillport serve [DIR...]'],
    [['serve', '--wacth'], 'skillport serve: unknown option --wacth (did you mean --watch?)\n', 'Usage: skillport serve [DIR...]'],
    [['serve', '--watch=yes'], 'skillport serve: --watch takes no value: write --watch alone to turn it on (got --watch=yes)\n', 'Usage: skillport serve'],
    [['list', '--dir'], 'skillport list: --dir needs a value: --dir DIR\n', 'Usage: skillport list [DIR...]'],
    [['get', 'x', '--dir', '--json'], 'skillport get: --dir needs a value (--dir DIR), but is followed by --json', 'Usage: skillport get NAME'],
    [['list', '--watch'], 'skillport list: --watch is not an option of list; serve takes it\n', 'Usage: skillport list'],
  ])('%j', (args, message, usage) => {
    const result = cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(message)).toBe(true);
    expect(result.stderr).toContain(`${usage}`);
    expect(result.stderr).toContain(`Run "skillport help ${args[0]}" for its options.`);
    // Node's parser text: advice to quote the flag after `--`, with an unbalanced quote.
    expect(result.stderr).not.toContain('To specify a positional argument');
    expect(result.stderr).not.toContain("Option '--");
  });
});

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('bind errors say what to do (exit 1)', () => {
  it('a port in use', async () => {
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    for (const flag of ['--http', '--metrics']) {
      const result = cli(['serve', '--dir', `${ROOT}skills`, flag, `127.0.0.1:${port}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `skillport serve: ${flag} 127.0.0.1:${port}: port ${port} is already in use by another program; stop that one, or choose another port (0 picks any free one)\n`,
      );
    }
  });

  // Only a process without the privilege meets it: as root, the test runs the CLI as nobody.
  const unprivilegedFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
  const root = process.getuid?.() === 0;
  it.skipIf(unprivilegedFrom <= 80)('a privileged port', () => {
    const result = cli(['serve', '--http', '127.0.0.1:80'], root ? { uid: 65534, gid: 65534 } : {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'skillport serve: --http 127.0.0.1:80: port 80 is below 1024, which only a privileged process may bind; use a port from 1024 up',
    );
    expect(result.stderr).not.toContain('EACCES');
  });
});

/** Serves until the line that says it serves, then stops it; its stderr. */
async function servedLog(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(log)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (/serving .* at http/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.kill('SIGTERM');
  await exited;
  return log;
}

describe('--http on every interface', () => {
  it('warns with the flag --allow-host, not the library option allowedHosts', async () => {
    const log = await servedLog(['serve', `${ROOT}skills`, '--http', '0.0.0.0:0']);
    expect(log).toContain('skillport warn: listening on 0.0.0.0, but only localhost Host headers are accepted');
    expect(log).toContain('name them with --allow-host NAME');
    expect(log).not.toContain('allowedHosts');
  });
});

describe('git errors', () => {
  it.each(['list', 'check'])("%s keeps git's fatal: reason and does not say it serves", (command) => {
    const missing = join(tree({}), 'nothing.git');
    const result = cli([command, `git+file://${missing}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^skillport ${command}: cannot load file://${missing}: git fetch failed: fatal: .*does not appear to be a git repository`),
    );
    expect(result.stderr).toContain('fatal: Could not read from remote repository.');
    expect(result.stderr).not.toContain('cannot serve');
  });
});

describe('--pull-interval 0', () => {
  it('warns when nothing would fetch the source again: no webhook, no --redis', () => {
    const repo = createRepo({ 'one/SKILL.md': skillMd('one', 'The only skill.') });
    const options = { env: { ...process.env, ...repo.env } };
    const source = `git+${repo.url}`;
    const cache = ['--cache-dir', repo.cache];
    const never = cli(['serve', source, '--pull-interval', '0', ...cache], options);
    expect(never.code).toBe(0);
    expect(never.stderr).toContain(
      '--pull-interval 0 with no webhook (--http and a hook secret) and no --redis: the source is loaded once and never fetched again',
    );
    // Polling, the default: nothing to say.
    expect(cli(['serve', source, ...cache], options).stderr).not.toContain('never fetched again');
    repo.remove();
  });
});

describe('words', () => {
  it('--help says what --pull-interval 0 does', () => {
    const result = cli(['serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('0: no polling, so it is fetched again only on a push webhook, POST /hooks/git,');
  });

  it('counts one of a thing in the singular', () => {
    const folder = tree({ 'one/SKILL.md': skillMd('one', 'The only skill.') });
    expect(cli(['list', folder]).stdout).toContain('1 prompt, 1 skill, 1 resource\n');
    expect(cli(['check', folder]).stdout).toMatch(/^OK: 1 skill, 1 prompt, 1 file; 0 errors, 0 warnings, \d+ notes?$/m);
    expect(cli(['serve', folder]).stderr).toContain('serving 1 prompt and 2 tools from 1 skill over stdio');
  });
});

describe('missing pieces', () => {
  it('a missing folder is one line from the CLI, and a plain error from the library', async () => {
    const missing = join(tree({}), 'gone');
    expect(cli(['list', missing])).toEqual({ code: 1, stdout: '', stderr: `skillport list: no such folder: ${missing}\n` });
    const error = await loadSkillsFolder([missing]).catch((e: NodeJS.ErrnoException) => e);
    expect(error).toMatchObject({ message: `No such skills folder: ${missing}`, code: 'ENOENT' });
  });

  it('the bin before npm ci and the build is one line that says what to run', () => {
    const clone = tree({});
    mkdirSync(join(clone, 'bin'));
    copyFileSync(BIN, join(clone, 'bin', 'skillport.js'));
    const result = spawnSync(process.execPath, [join(clone, 'bin', 'skillport.js'), '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(
      /^skillport: cannot start, not installed or not built \(Cannot find module .*dist\/cli\/main\.js.*\); in a clone, run "npm ci" in /,
    );
    expect(result.stderr).not.toContain('    at ');
  });
});
