/** An HttpRequest made by hand, for unit tests of the handler's stages. */
import type { HttpRequest } from '../../../src/http.js';

export function fakeRequest(pathname: string, init: { method?: string; headers?: Record<string, string>; search?: string } = {}): HttpRequest {
  const headers = new Headers(init.headers);
  return {
    method: init.method ?? 'POST',
    headers,
    pathname,
    search: init.search ?? '',
    host: headers.get('host') ?? 'localhost',
    origin: 'http://localhost',
    client: undefined,
    readBody: async () => new Uint8Array(),
    onAbort: () => () => {},
  };
}
