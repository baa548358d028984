import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the catalogue page in Debian's headless Chromium (test/browser/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
