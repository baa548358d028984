/**
 * The contract over Streamable HTTP, the web handler in-process:
 * `createHttpHandler(server).fetch(new Request(...))`.
 */
import { RawHttpClient } from '../_http-client.js';
import { contractSuite } from './_cases.js';
import { httpTransport } from './_http.js';

contractSuite(httpTransport('web handler (in-process)', RawHttpClient.inProcess));
