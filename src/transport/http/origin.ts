/**
 * DNS-rebinding defence: the `Origin` and `Host` allow-lists.
 *
 * A page on evil.example can make a browser resolve its own name to
 * 127.0.0.1 and then talk to a local server. The browser still sends
 * `Host: evil.example` and `Origin: http://evil.example`, so a local server
 * that checks both refuses it. The spec requires the `Origin` check
 * (2025-06-18 basic/transports §Security Warning; 2025-11-25 and 2026-07-28:
 * 403 for a present, invalid Origin); the official conformance suite's
 * `dns-rebinding-protection` scenario also sends a bad `Host`, so that is
 * checked too.
 */

/** Hostnames that name this machine. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Splits `host[:port]` into its hostname (lower case, brackets kept for IPv6) and port. */
export function splitHost(host: string): { hostname: string; port: string } {
  const trimmed = host.trim().toLowerCase();
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(trimmed);
  return { hostname: match?.[1] ?? trimmed, port: match?.[2] ?? '' };
}

/** A compiled allow-list check. */
export type AllowCheck = (value: string) => boolean;

/**
 * Builds the `Host` check. Entries are hostnames (`example.com`, any port)
 * or `host:port` pairs; `*` allows any host. The default allows the
 * loopback names on any port.
 */
export function createHostCheck(allowed: readonly string[] | undefined): AllowCheck {
  if (allowed === undefined) return (host) => LOOPBACK_HOSTNAMES.has(splitHost(host).hostname);
  if (allowed.includes('*')) return () => true;
  const entries = allowed.map((entry) => entry.trim().toLowerCase());
  return (host) => {
    const value = host.trim().toLowerCase();
    const { hostname } = splitHost(value);
    return entries.some((entry) => entry === value || entry === hostname);
  };
}

/** Normalises an origin (scheme://host[:port]) for comparison; undefined when it is not one. */
function normaliseOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Builds the `Origin` check. Entries are origins (`https://app.example.com`);
 * `*` allows any origin. The default allows http and https on the loopback
 * names with any port. A request without `Origin` (not a browser) is not
 * checked here; the `Host` check still applies to it.
 */
export function createOriginCheck(allowed: readonly string[] | undefined): AllowCheck {
  if (allowed === undefined) {
    return (origin) => {
      const normalised = normaliseOrigin(origin);
      if (!normalised) return false;
      const url = new URL(normalised);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.has(url.hostname);
    };
  }
  if (allowed.includes('*')) return () => true;
  const entries = new Set(allowed.map((entry) => normaliseOrigin(entry) ?? entry));
  return (origin) => {
    const normalised = normaliseOrigin(origin);
    return normalised !== undefined && entries.has(normalised);
  };
}
