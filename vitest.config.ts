import { defineConfig } from 'vitest/config';
import { locateSchemas, SCHEMA_TAG } from './test/_schema-dir.js';

// Once, before any test file loads: a misconfigured MCP_SCHEMA_DIR, or no
// schemas under SKILLPORT_REQUIRE_SCHEMAS=1, stops the run here with the reason.
locateSchemas();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The cluster tests need redis-server and nginx: `npm run test:cluster` (vitest.cluster.config.ts);
    // the image tests a Docker engine: `npm run test:image` (vitest.image.config.ts); the browser
    // tests Chromium: `npm run test:browser` (vitest.browser.config.ts).
    exclude: ['test/cluster/**', 'test/browser/**', 'test/deploy/image.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A fresh clone has no ../shared/mcp-schema: its schema tests are skipped
    // (test/_schema-setup.ts) and counted in one line, rather than failing on
    // a missing file.
    tags: [{ name: SCHEMA_TAG, description: 'validates messages against the official MCP JSON Schemas (skipped without them)' }],
    setupFiles: ['./test/_schema-setup.ts'],
    reporters: ['default', './test/_schema-reporter.ts'],
  },
});
