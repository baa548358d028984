/**
 * The same Streamable HTTP suites against serveHttp(): a real node:http
 * server on an ephemeral 127.0.0.1 port, through toNodeHandler.
 */
import { describe } from 'vitest';
import { RawHttpClient } from '../../_http-client.js';
import { legacySuite } from './http-suite-legacy.js';
import { modernSuite } from './http-suite-modern.js';
import { securitySuite } from './http-suite-security.js';

describe('Streamable HTTP, node:http server', () => {
  legacySuite(RawHttpClient.node);
  modernSuite(RawHttpClient.node);
  securitySuite(RawHttpClient.node);
});
