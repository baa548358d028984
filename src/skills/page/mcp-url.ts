/**
 * The MCP endpoint's URL as the page shows it. A request's `Host` names the
 * server as the browser reached it (a public name, a port a proxy maps), but
 * it is the client's to say: it is used only when the server's own allow-list
 * names it explicitly, or, with no list, when it is a loopback name, the
 * transport's own default (transport/http/origin.ts). A `*` list lets any
 * Host in, so none is taken from it: the server's own URL is shown. A page
 * never writes back a Host nobody vouched for.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A host name, an IPv4 address or a bracketed IPv6 address, and an optional port (RFC 3986 §3.2.2, §3.2.3), nothing else. */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** Whether `host` (lower case, `host[:port]`) is named by `allowed` (hostnames on any port or `host:port`), or loopback with no list. */
function vouchedFor(host: string, allowed: readonly string[] | undefined): boolean {
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] as string);
  if (allowed === undefined) return LOOPBACK.has(hostname);
  return allowed.some((entry) => {
    const named = entry.trim().toLowerCase();
    return named !== '*' && (named === host || named === hostname);
  });
}

/**
 * The scheme a trusted proxy says the client used: the last `X-Forwarded-Proto`
 * entry (the one the proxy next to us wrote, as for `X-Forwarded-For`), when
 * it is http or https.
 */
function forwardedProtocol(header: string | null): string | undefined {
  const last = header?.split(',').pop()?.trim().toLowerCase();
  return last === 'http' || last === 'https' ? `${last}:` : undefined;
}

/**
 * The endpoint at `own`'s path on the request's `host` when it is vouched for,
 * with `own`'s protocol or, behind a trusted proxy, the forwarded one; else `own`.
 */
export function shownEndpoint(own: URL, host: string | null, allowed: readonly string[] | undefined, forwardedProto?: string | null): string {
  const value = host?.trim().toLowerCase() ?? '';
  if (value === '' || value.length > 260 || !HOST.test(value) || !vouchedFor(value, allowed)) return own.href;
  const protocol = forwardedProtocol(forwardedProto ?? null) ?? own.protocol;
  try {
    return new URL(`${own.pathname}${own.search}`, `${protocol}//${value}`).href;
  } catch {
    return own.href;
  }
}
