/**
 * The Streamable HTTP suites against the web-standard handler, called
 * in-process with `handler.fetch(new Request(...))`.
 */
import { describe } from 'vitest';
import { RawHttpClient } from '../../_http-client.js';
import { legacySuite } from './http-suite-legacy.js';
import { modernSuite } from './http-suite-modern.js';
import { securitySuite } from './http-suite-security.js';

describe('Streamable HTTP, web handler in-process', () => {
  legacySuite(RawHttpClient.inProcess);
  modernSuite(RawHttpClient.inProcess);
  securitySuite(RawHttpClient.inProcess);
});
