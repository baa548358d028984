import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';

function cli(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: '', timeout: 10_000 });
}

describe('skillport CLI', () => {
  it('prints help and exits 0', () => {
    const result = cli('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: skillport');
    expect(result.stdout).toContain('2026-07-28, 2025-11-25, 2025-06-18');
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
    expect(cli('--version').stdout.trim()).toBe(version);
  });

  it.each([['frobnicate'], ['--no-such-flag'], ['serve', '--log-level', 'loud'], ['serve', '--page-size', '0'], ['serve', 'extra']])(
    'exits 2 with usage for %j',
    (...args) => {
      const result = cli(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('Usage: skillport');
      expect(result.stdout).toBe('');
    },
  );

  it('serves by default and exits 0 when stdin is empty', () => {
    const result = cli();
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });
});
