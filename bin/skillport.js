#!/usr/bin/env node
import { fileURLToPath } from 'node:url';

// The command runs the compiled dist/ with the installed dependencies. In a
// clone that is not installed and built yet, say so in one line instead of
// the module loader's stack.
let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const what = String(error.message).split('\n')[0];
  process.stderr.write(`skillport: cannot start, not installed or not built (${what}); in a clone, run "npm ci" in ${root} first\n`);
  process.exitCode = 1;
}
await cli?.main();
