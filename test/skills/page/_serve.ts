/**
 * `skillport serve` as a real process on 127.0.0.1 (the build in dist/, as
 * the CLI tests use it): resolves once it logs where it serves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from '../../_stdio-client.js';

export interface ServedCli {
  /** The MCP endpoint. */
  readonly url: string;
  /** The page: the endpoint's origin with `/`. */
  readonly page: string;
  stderr(): string;
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts `skillport serve ...args --http 127.0.0.1:0`. */
export async function serveCli(args: readonly string[]): Promise<ServedCli> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--http', '127.0.0.1:0', '--log-level', 'info'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = exitOf(child);
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    // A safety net only: the wait is for the line that says where it serves.
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving .* at (http:\/\/\S+) \(protocol/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${stderr}`));
    });
  });
  return { url, page: new URL('/', url).href, stderr: () => stderr, stop };
}
