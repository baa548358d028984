/**
 * Traces from the built CLI (`skillport serve` over stdio): with an OTLP
 * endpoint in the environment its spans arrive, `network.transport` pipe,
 * flushed as the server exits; without one, no module of the telemetry
 * entry is even loaded (a loader hook records every module the process
 * resolves).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';
import { initializeParams } from '../_wire.js';
import { startReceiver } from './_otlp-receiver.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const HOOK = `${ROOT}test/telemetry/_loads.mjs`;

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Runs `serve VALID` over stdio with `lines` on its stdin; resolves with its exit code and the modules it loaded. */
function serve(env: Record<string, string>, lines: object[]): Promise<{ code: number | null; loaded: string[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-loads-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'loads.txt');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['--import', HOOK, BIN, 'serve', VALID], { env: { ...clean, LOADS_FILE: file, ...env }, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.resume();
  child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill();
      reject(new Error(`serve did not exit: ${stderr}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      let loaded: string[] = [];
      try {
        loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      } catch {}
      resolve({ code, loaded, stderr });
    });
  });
}

const telemetryModules = (loaded: string[]) => [...new Set(loaded.filter((url) => url.includes('/dist/telemetry')))];

describe('skillport serve with traces', () => {
  it('exports the spans of a stdio session as it exits', async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const { code, loaded } = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
    ]);
    expect(code).toBe(0);
    expect(telemetryModules(loaded)).toContain(`file://${ROOT}dist/telemetry/tracing/start.js`);
    const spans = receiver.spans();
    expect(spans.map((s) => s.name)).toEqual(['initialize', 'prompts/list']);
    expect(spans[1]?.attributes).toMatchObject({ 'mcp.method.name': 'prompts/list', 'mcp.protocol.version': '2025-11-25', 'network.transport': 'pipe' });
    expect(spans[1]?.attributes['network.protocol.name']).toBeUndefined();
    expect(spans[1]?.resource['service.version']).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('loads no telemetry module without an OTLP endpoint', async () => {
    const { code, loaded } = await serve({}, [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') }]);
    expect(code).toBe(0);
    // The hook saw the process load (so an empty list is not a hook that failed).
    expect(loaded).toContain(`file://${ROOT}dist/cli/commands/serve.js`);
    expect(telemetryModules(loaded)).toEqual([]);
  });
});
