import { defineConfig } from 'vitest/config';

// `npm run test:cluster`: real Redis, nginx and skillport processes (test/cluster/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // One file at a time: the processes they start share the machine's two cores.
    fileParallelism: false,
  },
});
