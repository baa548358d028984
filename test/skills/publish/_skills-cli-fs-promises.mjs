// Test-only: node:fs/promises as the `skills` CLI imports it, plus the `glob` that Node 20 lacks
// (added in Node 22). The CLI installs from a discovery index without calling it; a call fails loudly.
export * from 'node:fs/promises';

export function glob() {
  throw new Error('fs/promises glob is not available on this Node (test shim)');
}
