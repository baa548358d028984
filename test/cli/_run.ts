/**
 * Runs the CLI in-process through `run`, the function the bin calls, with
 * captured streams: exit code, stdout and stderr without a process per case.
 * (main.test.ts spawns the built bin for what only a process shows.)
 */
import { PassThrough, Writable } from 'node:stream';
import { run } from '../../src/cli/main.js';
import { ROOT } from '../_stdio-client.js';

export const VALID = `${ROOT}test/fixtures/skills/valid`;
export const BROKEN = `${ROOT}test/fixtures/skills/broken`;
/** The skills folder the package ships. */
export const BUNDLED = `${ROOT}skills`;

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A finding as `check --json` prints it. */
export interface Finding {
  severity: string;
  code: string;
  path: string;
  line: number;
  message: string;
  folder?: string;
}

/** A stream that keeps what is written to it, as text. */
export function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs `skillport ...args`; stdin is empty, so `serve` over stdio ends at once. */
export async function runCli(...args: string[]): Promise<Ran> {
  const stdout = sink();
  const stderr = sink();
  const stdin = new PassThrough();
  stdin.end();
  const code = await run(args, { stdin, stdout: stdout.stream, stderr: stderr.stream, onShutdownSignal: () => {} });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
