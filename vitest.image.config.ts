import { defineConfig } from 'vitest/config';

// `npm run test:image`: the Dockerfile built and run in a Docker engine (test/deploy/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/deploy/image.test.ts'],
    testTimeout: 120_000,
    // beforeAll builds the base image (once) and the image: minutes on a cold cache.
    hookTimeout: 30 * 60_000,
    fileParallelism: false,
  },
});
