/**
 * `get` and `complete` with prompt arguments: a name the prompt does not
 * declare is a usage error that lists the declared ones.
 */
import { describe, expect, it } from 'vitest';
import { runCli, VALID } from './_run.js';

describe('get --arg', () => {
  it('refuses an argument the prompt does not declare, listing the declared ones', async () => {
    const result = await runCli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada', '--arg', 'langauge=german');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport: "greeting" has no argument "langauge"; it declares: who, language, variant\n');
    expect(result.stderr).toContain('Usage: skillport get NAME');
    expect(result.stdout).toBe('');
  });

  it('says so when the prompt declares none', async () => {
    const result = await runCli('get', 'pdf-tools', '--dir', VALID, '--arg', 'x=1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport: "pdf-tools" has no argument "x"; it declares none\n');
  });

  it('leaves an unknown prompt to the engine: exit 1', async () => {
    const result = await runCli('get', 'nope', '--dir', VALID, '--arg', 'x=1');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'skillport: Unknown prompt: "nope"\n' });
  });

  it('renders with declared arguments', async () => {
    const result = await runCli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada', '--arg', 'language=german');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Say hello to Ada in german ().');
  });
});

describe('complete', () => {
  it('refuses to complete an argument the prompt does not declare', async () => {
    const result = await runCli('complete', 'greeting', 'lang', '--dir', VALID);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport: "greeting" has no argument "lang"; it declares: who, language, variant\n');
  });

  it('refuses a context --arg the prompt does not declare', async () => {
    const result = await runCli('complete', 'greeting', 'variant', '--dir', VALID, '--arg', 'lang=french');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"greeting" has no argument "lang"');
  });

  it('completes with declared context arguments', async () => {
    const result = await runCli('complete', 'greeting', 'variant', '', '--dir', VALID, '--arg', 'language=french');
    expect(result).toEqual({ code: 0, stdout: 'fr-FR\nfr-CA\n', stderr: '' });
  });
});
