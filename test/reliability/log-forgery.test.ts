/**
 * File names forged log lines (issue 20, point 6): a skill folder named
 * `a\nskillport error: forged` printed a line of its own in `check`'s report
 * and in `serve`'s log, and a folder name or a description holding ESC
 * sequences drove the operator's terminal; a client's method name reached the
 * debug log the same way. The built CLI runs in real processes over a folder
 * made here (file systems allow newlines and ESC in names).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawStdioClient } from '../_stdio-client.js';
import { initializeParams } from '../_wire.js';
import { BIN } from './_harness.js';

const FORGED = 'a\nskillport error: forged';
/** ESC and a colour, the 8-bit CSI (U+009B) clearing the screen, and a right-to-left override. */
const STEERING = 'red\x1b[31m\u009b2J\u202ex';
/** What must never reach stdout or stderr as it is: any control but the line feeds that end lines. */
const RAW_CONTROL = /(?!\n)[\p{Cc}\u2028\u202e]/u;

let root: string;

function skill(folder: string, frontmatter: string, body: string): void {
  mkdirSync(join(root, folder));
  writeFileSync(join(root, folder, 'SKILL.md'), `---\n${frontmatter}---\n${body}`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillport-log-forgery-'));
  skill(FORGED, 'name: one\ndescription: A skill in a folder that forges a line.\n', 'One.\n');
  skill(STEERING, 'name: two\ndescription: A skill in a folder that steers the terminal.\n', 'Two.\n');
  // YAML's double-quoted escapes: ESC, the 8-bit CSI, NEL, a line separator, a right-to-left override.
  skill('ok', 'name: ok\ndescription: "Fine \\e[31mred\\u202e \\x9b2J \\N done\\L."\n', 'Body \x1b]0;owned\x07 then \x1b[2J.\nSecond line.\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // The timeout is a hang guard.
  const ran = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** No line of `output` is a forged one, and no control character a terminal obeys is in it. */
function expectUnforged(output: string): void {
  expect(output.split('\n').filter((line) => line.startsWith('skillport error: forged'))).toEqual([]);
  expect(output).not.toMatch(RAW_CONTROL);
}

describe('text from a skills folder', () => {
  it('check prints each finding on one line, with the names escaped', () => {
    const { status, stdout, stderr } = cli('check', root);
    expect(status).toBe(0);
    expectUnforged(stdout);
    expectUnforged(stderr);
    expect(stdout).toContain('a\\nskillport error: forged/SKILL.md:2: warning: ');
    expect(stdout).toContain('red\\x1b[31m\\x9b2J\\u202ex/SKILL.md:2: warning: ');
    // One line per finding, and the summary.
    expect(stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('check --json gives the names exactly, in JSON with no raw control', () => {
    const { stdout } = cli('check', '--json', root);
    expectUnforged(stdout);
    const report = JSON.parse(stdout) as { issues: Array<{ path: string }> };
    expect(report.issues.map((issue) => issue.path).sort()).toEqual([`${FORGED}/SKILL.md`, `${STEERING}/SKILL.md`]);
  });

  it('list prints descriptions escaped', () => {
    const { status, stdout, stderr } = cli('list', root);
    expect(status).toBe(0);
    expectUnforged(stdout);
    expectUnforged(stderr);
    // The loader makes the line separator a space; the rest is escaped here.
    expect(stdout).toMatch(/^ok +Fine \\x1b\[31mred\\u202e \\x9b2J \\x85 done \.$/m);
  });

  it('get prints the text as its lines with the other controls escaped, and --json exactly', () => {
    const text = cli('get', '--dir', root, 'ok');
    expect(text.status).toBe(0);
    expectUnforged(text.stdout);
    expect(text.stdout).toContain('Body \\x1b]0;owned\\x07 then \\x1b[2J.\nSecond line.');
    const json = cli('get', '--json', '--dir', root, 'ok');
    expectUnforged(json.stdout);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('Body \\u001b]0;owned\\u0007 then \\u001b[2J.\\nSecond line.');
  });

  it('serve logs each finding as one entry, with the names escaped', async () => {
    const client = RawStdioClient.spawn(BIN, ['serve', root]);
    await client.waitForStderr('serving');
    await client.close();
    expectUnforged(client.stderr);
    for (const line of client.stderr.trimEnd().split('\n')) expect(line).toMatch(/^skillport (debug|info|warn|error): /);
    expect(client.stderr).toContain('skillport warn: a\\nskillport error: forged/SKILL.md:2: warning: ');
    expect(client.stderr).toContain('skillport warn: red\\x1b[31m\\x9b2J\\u202ex/SKILL.md:2: warning: ');
  });
});

describe('text from a client', () => {
  it('serve --log-level debug logs a notification method escaped', async () => {
    const client = RawStdioClient.spawn(BIN, ['serve', '--log-level', 'debug', root]);
    // The client's name is kept, not logged; it is sent here in case that changes.
    await client.request('initialize', {
      ...initializeParams('2025-06-18'),
      clientInfo: { name: 'x\nskillport error: forged by a name\x1b[2J', version: '1' },
    });
    client.notify('notifications/initialized');
    client.notify('notifications/x\nskillport error: forged by a client\x1b[2J\u009b2J');
    await client.waitForStderr('Ignored notification');
    await client.close();
    expectUnforged(client.stderr);
    for (const line of client.stderr.trimEnd().split('\n')) expect(line).toMatch(/^skillport (debug|info|warn|error): /);
    expect(client.stderr).toContain('Ignored notification notifications/x\\nskillport error: forged by a client\\x1b[2J\\x9b2J');
  });
});
