/**
 * The contract over stdio: `serveStdio` in this process, over in-memory streams.
 */
import { contractSuite } from './_cases.js';
import { stdioTransport } from './_stdio.js';

contractSuite(stdioTransport);
