/**
 * The stdio transport entry: `import { serveStdio } from 'skillport/stdio'`.
 */

export type { StdioOptions, StdioServer } from './transport/stdio/serve-stdio.js';
export { serveStdio } from './transport/stdio/serve-stdio.js';
