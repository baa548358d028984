/**
 * `get` and `complete` with prompt arguments: a name the prompt does not
 * declare is a usage error that lists the declared ones.
 */
import { describe, expect, it } from 'vitest';
import { BUNDLED, runCli, VALID } from './_run.js';

describe('get --arg', () => {
  it('refuses an argument the prompt does not declare, listing the declared ones', async () => {
    const result = await runCli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada', '--arg', 'langauge=german');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport get: "greeting" has no argument "langauge"; it declares: who, language, variant\n');
    expect(result.stderr).toContain('Usage: skillport get NAME');
    expect(result.stdout).toBe('');
  });

  it('says so when the prompt declares none', async () => {
    const result = await runCli('get', 'pdf-tools', '--dir', VALID, '--arg', 'x=1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport get: "pdf-tools" has no argument "x"; it declares none\n');
  });

  it('leaves an unknown prompt to the engine: exit 1', async () => {
    const result = await runCli('get', 'nope', '--dir', VALID, '--arg', 'x=1');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'skillport get: Unknown prompt: "nope"\n' });
  });

  it('renders with declared arguments', async () => {
    const result = await runCli('get', 'greeting', '--dir', VALID, '--arg', 'who=Ada', '--arg', 'language=german');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Say hello to Ada in german ().');
  });
});

describe('get --arg locale (RFC 4647 §3.4 lookup)', () => {
  const get = (...args: string[]) => runCli('get', 'code-review', '--dir', BUNDLED, '--arg', 'language=go', ...args);

  it('serves the closest variant: fr-CA gets the fr text', async () => {
    const french = await get('--arg', 'locale=fr');
    expect(french.code).toBe(0);
    expect(french.stdout).toContain('description: Relit une modification de code');
    expect(await get('--arg', 'locale=fr-CA')).toEqual(french);
    expect(await get('--arg', 'locale=FR-ca')).toEqual(french);
  });

  it('serves the default text for a well-formed tag without a variant', async () => {
    const english = await get();
    expect(english.code).toBe(0);
    expect(english.stdout).toContain('description: Reviews a code change');
    expect(await get('--arg', 'locale=en')).toEqual(english);
    expect(await get('--arg', 'locale=de-CH-1996')).toEqual(english);
  });

  it('refuses a malformed tag', async () => {
    const result = await get('--arg', 'locale=fr_CA');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'skillport get: Skill "code-review": "fr_CA" is not a BCP 47 language tag (RFC 5646)\n' });
  });
});

describe('complete', () => {
  it('refuses to complete an argument the prompt does not declare', async () => {
    const result = await runCli('complete', 'greeting', 'lang', '--dir', VALID);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skillport complete: "greeting" has no argument "lang"; it declares: who, language, variant\n');
  });

  it('refuses a context --arg the prompt does not declare', async () => {
    const result = await runCli('complete', 'greeting', 'variant', '--dir', VALID, '--arg', 'lang=french');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"greeting" has no argument "lang"');
  });

  it('completes a locale tag to the variant it gets (RFC 4647 §3.4 lookup)', async () => {
    expect(await runCli('complete', 'code-review', 'locale', 'fr-CA', '--dir', BUNDLED)).toEqual({ code: 0, stdout: 'fr\n', stderr: '' });
    expect(await runCli('complete', 'code-review', 'locale', 'en', '--dir', BUNDLED)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('completes with declared context arguments', async () => {
    const result = await runCli('complete', 'greeting', 'variant', '', '--dir', VALID, '--arg', 'language=french');
    expect(result).toEqual({ code: 0, stdout: 'fr-FR\nfr-CA\n', stderr: '' });
  });
});
