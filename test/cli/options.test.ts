/**
 * How every command takes its folders and flags: one way to name folders,
 * a usage error (exit 2) for a flag the command does not take, help per
 * command, and a plain message for a folder that is not there.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';
import { BROKEN, runCli, VALID } from './_run.js';

const OAUTH = ['auth-issuer', 'auth-audience', 'auth-scope', 'auth-claim', 'auth-introspection', 'auth-client-id', 'auth-client-secret-env'];

/** The options each command takes (besides --help and --version); the help texts and README say the same. */
const ACCEPTED: Record<string, string[]> = {
  serve: [
    'dir',
    'watch',
    'no-tools',
    'prefix',
    'name',
    'title',
    'instructions',
    'log-level',
    'log-format',
    'page-size',
    'http',
    'auth-token',
    'allow-origin',
    'allow-host',
    ...OAUTH,
    'redis',
  ],
  list: ['dir', 'prefix', 'json'],
  get: ['dir', 'arg', 'prefix', 'json'],
  complete: ['dir', 'arg', 'prefix', 'json'],
  check: ['dir', 'prefix', 'strict', 'json'],
  help: [],
};

/** A value for each option that takes one. */
const VALUES: Record<string, string | undefined> = {
  dir: `${ROOT}no-such-folder`,
  http: '127.0.0.1:0',
  prefix: 'p',
  name: 'n',
  title: 't',
  instructions: 'i',
  arg: 'who=x',
  'log-level': 'info',
  'log-format': 'text',
  'page-size': '5',
  'auth-token': 'secret',
  'allow-origin': 'http://localhost',
  'allow-host': 'localhost',
  'auth-issuer': 'https://login.example.com/',
  'auth-audience': 'https://skills.example.com/mcp',
  'auth-scope': 'skills:read',
  'auth-claim': 'groups',
  'auth-introspection': 'https://login.example.com/introspect',
  'auth-client-id': 'skillport',
  'auth-client-secret-env': 'SECRET',
  redis: 'redis://127.0.0.1:1',
};
const HTTP_ONLY = ['auth-token', 'allow-origin', 'allow-host', 'redis', 'trust-proxy', ...OAUTH];
const ALL = [...new Set([...Object.values(ACCEPTED).flat(), 'json', 'strict', 'watch'])];

/** The command line of `command` with `option`; get and complete get the positionals they need. */
function line(command: string, option: string): string[] {
  const positionals = command === 'get' ? ['greeting'] : command === 'complete' ? ['greeting', 'who'] : [];
  const value = VALUES[option];
  const http = command === 'serve' && HTTP_ONLY.includes(option) ? ['--http', '127.0.0.1:0'] : [];
  return [command, ...positionals, `--${option}`, ...(value === undefined ? [] : [value]), ...http];
}

describe('flags per command', () => {
  const refused = Object.entries(ACCEPTED).flatMap(([command, accepted]) => ALL.filter((o) => !accepted.includes(o)).map((o) => [command, o] as const));

  it.each(refused)('%s refuses --%s: exit 2 naming the flag and the command', async (command, option) => {
    const result = await runCli(...line(command, option));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`skillport ${command}: --${option} is not an option of ${command}`);
    expect(result.stderr).toContain(`Usage: skillport ${command}`);
    expect(result.stdout).toBe('');
  });

  // Each accepted flag gets past the parser to the folder check, which fails
  // on the missing folder given last: exit 1, not the usage error.
  const accepted = Object.entries(ACCEPTED).flatMap(([command, options]) => options.map((o) => [command, o] as const));
  it.each(accepted)('%s accepts --%s', async (command, option) => {
    const result = await runCli(...line(command, option), '--dir', `${ROOT}no-such-folder`);
    expect(result.stderr).toBe(`skillport ${command}: no such folder: ${ROOT}no-such-folder\n`);
    expect(result.code).toBe(1);
  });

  it.each(HTTP_ONLY)('serve refuses --%s over stdio', async (option) => {
    const value = VALUES[option];
    const result = await runCli('serve', VALID, `--${option}`, ...(value === undefined ? [] : [value]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--${option} applies only with --http`);
  });

  it.each([
    [['serve', '--name', ''], '--name must not be empty'],
    [['serve', '--title', ' '], '--title must not be empty'],
    // Logged as given: a URL with credentials would put them in the log.
    [
      ['serve', '--http', '0', '--auth-issuer', 'https://as:hunter2@login.example.com/'],
      '--auth-issuer must not hold a user or password (the client secret goes in --auth-client-secret-env)',
    ],
    [
      ['serve', '--http', '0', '--auth-issuer', 'https://login.example.com/', '--auth-introspection', 'https://id:hunter2@login.example.com/i'],
      '--auth-introspection must not hold a user or password (the client secret goes in --auth-client-secret-env)',
    ],
    [['get', 'greeting', '--arg', 'who=a', '--arg', 'who=b'], '--arg who is given twice'],
    [['get', 'greeting', VALID], 'expects one prompt NAME (folders go in --dir)'],
    [['complete', 'greeting', 'who', 'x', VALID], 'expects NAME ARG [VALUE] (folders go in --dir)'],
  ])('refuses %j: %s', async (args, message) => {
    const result = await runCli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`skillport ${args[0]}: ${message}\n`);
  });
});

describe('folders', () => {
  it('lists the folder given with --dir, not the bundled skills', async () => {
    const result = await runCli('list', '--dir', VALID);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('10 prompts, 4 skills');
  });

  it('takes --dir on every command', async () => {
    expect((await runCli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada')).stdout).toContain('Say hello to Ada');
    expect((await runCli('complete', 'greeting', 'language', 'g', '--dir', VALID)).stdout).toBe('german\nenglish\n');
    expect((await runCli('check', '--dir', VALID)).stdout).toMatch(/^OK: 4 skills, 10 prompts/m);
    expect((await runCli('serve', '--dir', VALID)).stderr).toContain('serving 10 prompts and 2 tools from 4 skills over stdio');
  });

  it('takes positional folders and --dir in any mix, in command-line order', async () => {
    // The first folder names the shared reference prompts (valid/references/style.md).
    const validFirst = await runCli('list', VALID, '--dir', BROKEN);
    expect(validFirst.stdout).toContain('valid-references-style');
    expect(validFirst.stdout).toContain('13 prompts, 7 skills');
    const brokenFirst = await runCli('list', '--dir', BROKEN, VALID);
    expect(brokenFirst.stdout).toContain('broken-references-style');
  });

  it.each(['serve', 'list', 'check'])('%s: a missing folder is a plain message and exit 1', async (command) => {
    const result = await runCli(command, `${ROOT}no-such-folder`);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `skillport ${command}: no such folder: ${ROOT}no-such-folder\n` });
  });

  it.each([
    ['get', 'greeting'],
    ['complete', 'greeting', 'who'],
  ])('%s: a missing --dir folder is a plain message and exit 1', async (...args) => {
    const result = await runCli(...args, '--dir', 'no-such-folder');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `skillport ${args[0]}: no such folder: no-such-folder\n` });
  });

  it('says so when a folder is a file, or a path goes through one', async () => {
    expect(await runCli('list', `${ROOT}package.json`)).toEqual({ code: 1, stdout: '', stderr: `skillport list: not a folder: ${ROOT}package.json\n` });
    expect((await runCli('check', `${ROOT}package.json/skills`)).stderr).toBe(`skillport check: no such folder: ${ROOT}package.json/skills\n`);
  });
});

describe('help', () => {
  it.each(['serve', 'list', 'get', 'complete', 'check'])('%s --help prints its usage, its options and an example', async (command) => {
    const result = await runCli(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: skillport ${command} `));
    for (const option of ACCEPTED[command] as string[]) expect(result.stdout).toMatch(new RegExp(`^ {2}--${option} `, 'm'));
    for (const option of ALL.filter((o) => !ACCEPTED[command]?.includes(o))) expect(result.stdout).not.toMatch(new RegExp(`^ {2}--${option} `, 'm'));
    expect(result.stdout).toMatch(new RegExp(`Examples?:\\n {2}skillport ${command} `));
    expect(await runCli('help', command)).toEqual(result);
    expect(await runCli(command, '-h')).toEqual(result);
  });

  it("prints skillport's help for help, --help and -h alone", async () => {
    const result = await runCli('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: skillport <command> \[options\]/);
    for (const command of Object.keys(ACCEPTED)) expect(result.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    expect(await runCli('help')).toEqual(result);
    expect(await runCli('-h')).toEqual(result);
  });

  it("prints a command's help even beside a flag it does not take", async () => {
    const result = await runCli('list', '--http', '1', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: skillport list /);
  });

  it.each([
    [['help', 'nope'], 'Unknown command "nope"'],
    [['help', 'list', 'serve'], 'help expects at most one COMMAND'],
    [['nope', '--help'], 'Unknown command "nope"'],
  ])('refuses %j', async (args, message) => {
    const result = await runCli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`skillport: ${message}\n\nUsage: skillport <command> [options]\nRun "skillport help" for the commands.\n`);
  });
});
