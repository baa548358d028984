/**
 * The official MCP conformance suite, in-scope scenarios, against the built
 * package over Streamable HTTP (test/conformance/run.mjs). It needs the
 * build `npm test` runs first, and about 40 seconds.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';

describe('MCP conformance suite', () => {
  it('passes every in-scope scenario at 2025-06-18, 2025-11-25 and 2026-07-28, baselined failures aside', async () => {
    const child = spawn(process.execPath, [`${ROOT}test/conformance/run.mjs`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 280_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Conformance: passed/);
  }, 300_000);
});
