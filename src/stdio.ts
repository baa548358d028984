/**
 * The stdio transport entry: `import { serveStdio } from 'skillport/stdio'`.
 */
export { serveStdio } from './transport/stdio/serve-stdio.js';
export type { StdioOptions, StdioServer } from './transport/stdio/serve-stdio.js';
