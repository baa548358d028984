/**
 * Finding a `skill://` URI in the catalogue's maps however a client encoded
 * it: the catalogue writes each segment percent-encoded, and a client that
 * expands `skill://{skill}/{+path}` may leave reserved characters as they are.
 */

/**
 * A `skill://` URI with each segment percent-encoded as the catalogue writes
 * it, or undefined when it is already so or is not one. A client that expands
 * `skill://{skill}/{+path}` leaves reserved characters such as `+` or `@` as
 * they are (RFC 6570 §3.2.3), where the catalogue encodes them: both name the
 * same file.
 */
function canonicalUri(uri: string): string | undefined {
  if (!uri.startsWith('skill://')) return undefined;
  const segments = uri.slice('skill://'.length).split('/');
  let changed = false;
  for (const [index, segment] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    const encoded = encodeURIComponent(decoded);
    if (encoded !== segment) {
      segments[index] = encoded;
      changed = true;
    }
  }
  return changed ? `skill://${segments.join('/')}` : undefined;
}

/** The value of `uri` in a map keyed by catalogue URIs, also when the client encoded it otherwise. */
export function byUri<T>(map: ReadonlyMap<string, T>, uri: string): T | undefined {
  const found = map.get(uri);
  if (found !== undefined) return found;
  const canonical = canonicalUri(uri);
  return canonical === undefined ? undefined : map.get(canonical);
}
