/**
 * Bytes as every layer handles them: chunks joined into one array, and a web
 * stream read whole up to a cap (a peer that sends more is cut off, not
 * buffered). Web-standard only (Uint8Array, ReadableStream), as util/ must be.
 */

/** `chunks` as one array of `total` bytes (their sum unless given); a lone chunk is returned as it is. */
export function concatBytes(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1 && (total === undefined || total === chunks[0]?.byteLength)) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total ?? chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The bytes of `stream` (none for a null body), or undefined once more than
 * `maxBytes` arrive: the stream is then cancelled, and nothing past the cap
 * is held.
 */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | undefined> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}
