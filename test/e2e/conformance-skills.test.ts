/**
 * The official conformance suite's Skills-extension scenarios (SEP-2640),
 * run against `skillport serve --http` on the bundled skills. The suite needs
 * Node 22: test/conformance/node22.mjs finds it, or installs it on first use.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../_stdio-client.js';

const run = promisify(execFile);
let NODE22 = '';
const SUITE = `${ROOT}node_modules/conformance-next/dist/index.js`;

let url = '';

// Its path, installing it into the cache on first use (a download of some 30 MB, once).
beforeAll(async () => {
  NODE22 = (await run(process.execPath, [`${ROOT}test/conformance/node22.mjs`], { timeout: 280_000 })).stdout.trim();
}, 300_000);

const server = spawn(process.execPath, [BIN, 'serve', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });

beforeAll(async () => {
  url = await new Promise<string>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${log}`)), 20_000);
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
  });
});

afterAll(() => {
  server.kill('SIGTERM');
});

describe('conformance suite, Skills extension scenarios', () => {
  it.each(['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'])(
    'passes %s with no failure or warning',
    async (scenario) => {
      const { stdout } = await run(NODE22, [SUITE, 'server', '--url', url, '--scenario', scenario], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stdout);
      expect(summary, stdout).not.toBeNull();
      const [, passed, total, failed, warnings] = summary as unknown as [string, string, string, string, string];
      expect({ passed: Number(passed), failed: Number(failed), warnings: Number(warnings) }).toEqual({ passed: Number(total), failed: 0, warnings: 0 });
      expect(Number(total)).toBeGreaterThan(0);
    },
    150_000,
  );
});
