/**
 * The contract over Streamable HTTP on node:http: `serveHttp` (through
 * `toNodeHandler`) on 127.0.0.1, an ephemeral port.
 */
import { RawHttpClient } from '../_http-client.js';
import { contractSuite } from './_cases.js';
import { httpTransport } from './_http.js';

contractSuite(httpTransport('node:http server', RawHttpClient.node));
